package live

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/sirali-konvoy/konvoy"
	"pgregory.net/rapid"
)

// Under lane-aware a lane of one item held sits in a slot, and moves to its
// shard when a second item of it comes, or an item of another lane of the
// same slot, while Submit and consumers race to set and clear the slot.
// With keys from a wide pool over the fewest slots (shards of them), lanes
// collide often. Whatever the interleaving, a lane's items run one at a
// time in submission order, Lanes never names a lane twice (a lane is in
// its slot or its shard, never both), and once Close has drained no slot
// and no shard holds a lane.
func TestCollidingLanesKeepOrderAndLeaveNothing(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		maxHeld := rapid.IntRange(1, 2*shards).Draw(t, "maxHeld")
		consumers := rapid.IntRange(1, 6).Draw(t, "consumers")
		wide := rapid.IntRange(1, 4*shards).Draw(t, "keys")
		n := rapid.IntRange(0, 200).Draw(t, "items")
		r := &collisions{running: map[int]bool{}, last: map[int]int{}}
		for range n {
			r.keys = append(r.keys, rapid.IntRange(0, wide-1).Draw(t, "key"))
			r.yields = append(r.yields, rapid.IntRange(0, 5).Draw(t, "yields"))
		}
		event := func(i int) konvoy.Event { return konvoy.Event{Key: fmt.Sprint("k", r.keys[i])} }
		x, err := New(konvoy.Convoy, consumers, event, r.handle, WithMaxHeld(maxHeld))
		if err != nil {
			t.Fatal(err)
		}
		r.x.Store(x)
		ctx, cancel := context.WithTimeout(context.Background(), deadline)
		defer cancel()
		for i := range n {
			if err := x.Submit(ctx, i); err != nil {
				t.Fatalf("Submit(%d): %v", i, err)
			}
		}
		if err := x.Close(ctx); err != nil {
			t.Fatalf("Close: %v", err)
		}
		r.check(t)
	})
}

// collisions is a run of TestCollidingLanesKeepOrderAndLeaveNothing: item
// i is of key keys[i], and its handler yields yields[i] times.
type collisions struct {
	keys, yields []int
	x            atomic.Pointer[Executor[int]]
	mu           sync.Mutex
	running      map[int]bool // by key
	last         map[int]int  // by key, the last item started
	faults       []string
}

// handle is the handler: it records a fault when an item runs beside
// another of its key or after a later one, and every seventh item checks
// that Lanes names no lane twice.
func (r *collisions) handle(_ context.Context, i int) error {
	k := r.keys[i]
	r.mu.Lock()
	if r.running[k] {
		r.faults = append(r.faults, fmt.Sprintf("item %d of key %d runs while another of it runs", i, k))
	}
	if p, ok := r.last[k]; ok && p > i {
		r.faults = append(r.faults, fmt.Sprintf("item %d of key %d runs after item %d", i, k, p))
	}
	r.running[k], r.last[k] = true, i
	r.mu.Unlock()
	if i%7 == 0 {
		checkLanesDistinct(r.x.Load(), &r.mu, &r.faults)
	}
	for range r.yields[i] {
		runtime.Gosched()
	}
	r.mu.Lock()
	r.running[k] = false
	r.mu.Unlock()
	return nil
}

// check fails t with the run's faults, and when, Close having drained, a
// key did not run, or a slot or a shard holds a lane.
func (r *collisions) check(t *rapid.T) {
	for _, f := range r.faults {
		t.Error(f)
	}
	if len(r.last) != len(distinct(r.keys)) {
		t.Fatalf("%d keys ran, of %d", len(r.last), len(distinct(r.keys)))
	}
	x := r.x.Load()
	for i := range x.slots.word {
		if v := x.slots.word[i].Load(); v != 0 {
			t.Fatalf("slot %d is %#x after Close drained", i, v)
		}
	}
	for i := range x.shards {
		if m := x.shards[i].table.n; m != 0 {
			t.Fatalf("shard %d holds %d lanes after Close drained", i, m)
		}
	}
	if s := x.Stats(); s.ActiveLanes != 0 || s.Done != len(r.keys) {
		t.Fatalf("Stats after Close: %d active lanes, %d done; want 0 and %d", s.ActiveLanes, s.Done, len(r.keys))
	}
}

// checkLanesDistinct records a fault when x.Lanes names a lane twice.
func checkLanesDistinct[T any](x *Executor[T], mu *sync.Mutex, faults *[]string) {
	seen := map[string]bool{}
	for _, l := range x.Lanes(1 << 20) {
		if seen[l.Lane] {
			mu.Lock()
			*faults = append(*faults, "Lanes names lane "+l.Lane+" twice")
			mu.Unlock()
		}
		seen[l.Lane] = true
	}
}

// distinct returns the distinct values of s.
func distinct(s []int) map[int]bool {
	m := map[int]bool{}
	for _, v := range s {
		m[v] = true
	}
	return m
}
