package live

import (
	"context"
	"fmt"
	"strconv"
	"testing"

	"github.com/sirali-konvoy/konvoy"
)

// Submit frees the slots of the items finished so far every drainEvery
// items it joins to their lanes, even when nothing asks it to sooner (no
// item waits in a lane, and no new item finds its slot held by one item):
// so a finish logged by a consumer is read within drainEvery items, and
// the log does not fill for its consumers to drain under the submit lock.
// The test plays the consumer of A1, lane "a"'s only item, which took its
// slot and finished; then joins items of other lanes, each to a free slot
// of its own, as Submit does, up to the next multiple of drainEvery joins:
// A1's finish must have been read by then, and its slot freed.
func TestLanesFinishIsReadWithinDrainEveryItems(t *testing.T) {
	x, err := New(konvoy.Convoy, 2, func(s string) konvoy.Event { return konvoy.Event{Key: s} },
		func(context.Context, string) error { return nil }, WithMaxHeld(drainEvery))
	if err != nil {
		t.Fatal(err)
	}
	if x.slots.word == nil || len(x.slots.word) < 2*drainEvery || len(x.finLog.cells) < drainEvery {
		t.Fatalf("%d slots, %d cells in the log of finished items; want lane-aware, at least %d and %d", len(x.slots.word), len(x.finLog.cells), 2*drainEvery, drainEvery)
	}
	ha := x.laneHash("a")
	x.subMu.Lock()
	a1 := task[string]{item: "A1", lane: "a", hash: ha, hasLane: true, seq: -1}
	x.takeSlot(&a1)
	if _, added := x.finLog.add(ha); !added { // A1's consumer: its finish
		t.Fatal("the log is full")
	}
	k := drainEvery - x.joined%drainEvery // joins up to the next multiple
	others := lanesWithSlotsOfTheirOwn(t, x, k, ha)
	for i := range others {
		if !x.joinLane(&others[i]) {
			t.Fatalf("%s, the only item of its lane, cannot start", others[i].lane)
		}
		if x.laneWaitN.Load() != 0 {
			t.Fatalf("laneWaitN = %d after %s; want no item waiting", x.laneWaitN.Load(), others[i].lane)
		}
	}
	if x.finLog.ready() || x.slots.at(ha).Load() != 0 {
		t.Errorf("A1's finish still in the log, its slot word %#x, after %d items joined (drainEvery %d)", x.slots.at(ha).Load(), k, drainEvery)
		x.drainFinished(nil, nil) // what was missing
	}
	// The items joined finish: their consumers log them, and a reader of
	// the lanes drains the log.
	for i := range others {
		if _, added := x.finLog.add(others[i].hash); !added {
			t.Fatal("the log is full")
		}
	}
	x.drainFinished(nil, nil)
	left := x.slotsHeld
	x.unlockSub()
	if left != 0 {
		t.Errorf("%d slots held once every item finished; want 0", left)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*deadline)
	defer cancel()
	if err := x.Close(ctx); err != nil {
		t.Fatal(err)
	}
}

// newSlots makes 2·n slots for an executor holding up to n items, rounded
// up to a power of 2, from shards to slotsMax, as WithMaxHeld's doc says:
// for n a power of 2 itself, exactly 2·n, not twice that.
func TestLanesSlotsAreTwiceMaxHeldRoundedUp(t *testing.T) {
	for _, n := range []int{1, 2, 31, 32, 33, 63, 64, 65, 100, 128, 1000, 1 << 14, 1<<14 + 1, 1 << 15, 1<<15 + 1, 1 << 16} {
		want := shards
		for want < 2*n {
			want *= 2
		}
		want = min(want, slotsMax)
		s := newSlots(n)
		if len(s.word) != want || len(s.entry) != want || s.mask != uint64(want-1) {
			t.Errorf("newSlots(%d): %d words, %d entries, mask %#x; want %d", n, len(s.word), len(s.entry), s.mask, want)
		}
	}
}

// A lane table holds up to half as many lanes as it has places, and
// doubles when one more comes: 8 lanes in its first 16 places, then 32
// places for the 9th, up to 16 lanes, then 64; every lane added is found
// at its index all along.
func TestLanesTableDoublesPastHalfFull(t *testing.T) {
	var tab laneTable
	index := map[string]int32{}
	for i := range 40 {
		name := strconv.Itoa(i)
		h := uint64(i)*0x9e3779b97f4a7c15 | 1<<63
		p, found := tab.find(name, h)
		if found {
			t.Fatalf("find(%q) found a lane before it was added", name)
		}
		index[name] = tab.add(p, h, lane{name: name, n: 1, first: int64(i)})
		want := 16
		for want < 2*(i+1) {
			want *= 2
		}
		if len(tab.place) != want || tab.n != i+1 {
			t.Fatalf("%d places, %d lanes after %d added; want %d places", len(tab.place), tab.n, i+1, want)
		}
		for k := 0; k <= i; k++ {
			name := strconv.Itoa(k)
			h := uint64(k)*0x9e3779b97f4a7c15 | 1<<63
			if p, found := tab.find(name, h); !found || tab.index(p) != index[name] || tab.lanes[index[name]].first != int64(k) {
				t.Fatalf("after %d added, find(%q) = %d, %v; want index %d", i+1, name, p, found, index[name])
			}
		}
	}
}

// lanesWithSlotsOfTheirOwn returns k items, each the first of a lane of
// its own, whose slots are neither taken's nor each other's.
func lanesWithSlotsOfTheirOwn(t *testing.T, x *Executor[string], k int, taken uint64) []task[string] {
	t.Helper()
	used := map[uint64]bool{taken & x.slots.mask: true}
	var others []task[string]
	for i := 0; len(others) < k; i++ {
		if i > 1<<20 {
			t.Fatal("no lanes found with slots of their own")
		}
		name := fmt.Sprint("l", i)
		h := x.laneHash(name)
		if used[h&x.slots.mask] {
			continue
		}
		used[h&x.slots.mask] = true
		others = append(others, task[string]{item: name, lane: name, hash: h, hasLane: true, seq: int64(i)})
	}
	return others
}
