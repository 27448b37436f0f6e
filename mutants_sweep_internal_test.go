package konvoy

import (
	"fmt"
	"testing"
)

// A Static run keeps an owner for each lane only under a layout of
// partitions dealt by number (ownerBytes: "a Static run's owner of a
// partition lane, dealt by number"); under a layout without partitions,
// such as the convoy, static.owner deals the k-th lane to consumer k mod C
// and keeps no owner, whatever the assignor, so the plan of such a run
// counts what a head-of-line run's does: laneRunBytes a lane, no more.
// Mutant sweep.go:387 (`r.layout.partitions > 0` → `>= 0`) lived: it
// counted ownerBytes a lane for a Static convoy run.
func TestAStaticRunWithoutPartitionsPlansNoOwners(t *testing.T) {
	const keys, lanes, events = 100, 10, 1000
	plan := func(o options) int {
		return runOf(&Simulator{layout: Convoy, opts: o, consumers: consumerQueue{n: 2}}).bytes(keys, lanes, events)
	}
	for _, a := range []Assignor{0, RangeAssignor, RoundRobinAssignor} {
		if got, want := plan(options{policy: Static, assignor: a}), plan(options{policy: HeadOfLine}); got != want {
			t.Errorf("static convoy, assignor %v: planned %d bytes; want a head-of-line run's %d, as it keeps no owners", a, got, want)
		}
	}
}

// A pass's sizes count each layout's keys away from their first lanes
// under that layout, including a layout the earlier passes' sizes (seen)
// did not count: sizesFrom returns "the sizes of the pass's inputs now, no
// smaller than seen", and awayOf reads them by the layout's place among
// the sizes' layouts. Here seen counts the convoy alone, and the pass
// also takes the line convoy, whose key K0 goes to lines L0, L1 and L2:
// two loads away from its first line, counted by hand. Mutants
// sweep.go:469 (`len(z.lanes)-len(z.away)` → `+`, and its
// INVERT_NEGATIVES twin) lived: they padded away past the layouts, so the
// line convoy's count landed beyond its place and awayOf read 0.
func TestASweepsSizesCountTheAwayLoadsOfALayoutSeenAnew(t *testing.T) {
	seen := sweepSizes{layouts: []Layout{Convoy}, lanes: []int{1}, away: []int{0}, named: []int{0}}
	configs := []Config{{Layout: Convoy, Consumers: 1}, {Layout: LineConvoy, Consumers: 1}}
	p := newSweepPass(configs, []int{0, 1}, sweepOptions{maxMemory: 1 << 30}, seen, nil)
	defer p.wait()
	b := p.batch()
	for i := range 3 {
		e := Event{Key: "K0", Line: fmt.Sprint("L", i), Step: i + 1, Duration: 1}
		p.intern(b, &e)
	}
	z := p.sizes()
	if got := z.awayOf(LineConvoy); got != 2 {
		t.Errorf("line convoy: %d loads away from their keys' first lanes; want 2 (K0's in L1 and L2)", got)
	}
	if got := z.lanesOf(LineConvoy); got != 3 {
		t.Errorf("line convoy: %d lanes; want 3 (L0, L1, L2)", got)
	}
}

// A pass's sizes count each layout's lane names ([LaneFunc] lanes'
// bytes) under that layout, including a layout the earlier passes' sizes
// (seen) did not count, as sizesFrom's doc says of every size. Here seen
// counts the convoy alone, and the pass also takes a LaneFunc layout
// whose lanes "ab" and "cde" take 5 bytes of names, counted by hand.
// Mutants sweep.go:470 (`len(z.lanes)-len(z.named)` → `+`, and its
// INVERT_NEGATIVES twin) lived: they padded named past the layouts, so
// the new layout's bytes landed beyond its place and namedOf read 0.
func TestASweepsSizesCountTheLaneNamesOfALayoutSeenAnew(t *testing.T) {
	byKey := NewLayout("by-key", func(e Event) (string, bool) { return e.Key, true })
	seen := sweepSizes{layouts: []Layout{Convoy}, lanes: []int{1}, away: []int{0}, named: []int{0}}
	configs := []Config{{Layout: Convoy, Consumers: 1}, {Layout: byKey, Consumers: 1}}
	p := newSweepPass(configs, []int{0, 1}, sweepOptions{maxMemory: 1 << 30}, seen, nil)
	defer p.wait()
	b := p.batch()
	for i, k := range []string{"ab", "cde"} {
		e := Event{Key: k, Step: i + 1, Duration: 1}
		p.intern(b, &e)
	}
	if got := p.sizes(); got.namedOf(byKey) != 5 {
		t.Errorf("LaneFunc layout: %d bytes of lane names; want 5 (\"ab\" and \"cde\")", got.namedOf(byKey))
	}
}
