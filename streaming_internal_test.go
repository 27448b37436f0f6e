package konvoy

import (
	"fmt"
	"math"
	"math/bits"
	"testing"

	"pgregory.net/rapid"
)

// A streaming simulator must not hold back what it could apply: after every
// Add, each event still waiting finishes after the time up to which no later
// event can come before it. Holding events longer would give the same
// results, but memory would grow with the events instead of the consumers.
func TestEventsAreAppliedAsSoonAsTheyAreSafe(t *testing.T) {
	t.Parallel()
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(0, 60).Draw(t, "events")
		c := rapid.IntRange(1, 6).Draw(t, "consumers")
		p := rapid.SampledFrom([]Policy{HeadOfLine, LaneAware, Static}).Draw(t, "policy")
		l := rapid.SampledFrom([]Layout{Free, Convoy, LineConvoy}).Draw(t, "layout")
		s, err := NewSimulator(l, c, WithPolicy(p))
		if err != nil {
			t.Fatal(err)
		}
		arrival := 0
		for i := range n {
			arrival += rapid.IntRange(0, 2).Draw(t, "gap")
			e := Event{
				Key:      fmt.Sprint(rapid.IntRange(0, 4).Draw(t, "key")),
				Line:     fmt.Sprint(rapid.IntRange(0, 2).Draw(t, "line")),
				Step:     rapid.IntRange(0, 4).Draw(t, "step"),
				Duration: rapid.IntRange(0, 4).Draw(t, "duration"),
				Arrival:  arrival,
			}
			if err := s.Add(e); err != nil {
				t.Fatal(err)
			}
			switch d := s.dispatch.(type) {
			case *headOfLine:
				for id, r := range d.running {
					if r.waiting && r.finish <= s.consumers.earliest() {
						t.Fatalf("after event %d: consumer %d's event finished at %d, by the earliest free time %d, yet waits", i, id, r.finish, s.consumers.earliest())
					}
				}
				checkDueLists(t, d)
			default:
				var bound int
				var waiting []finished
				switch d := d.(type) {
				case *laneAware:
					// Nor may it stop while every consumer is busy: no
					// event yet to come can change a choice before one
					// frees, so it runs on to that time.
					if d.busy == s.consumers.n {
						t.Fatalf("after event %d: the run stopped at %d with its %d consumers busy", i, d.now, d.busy)
					}
					bound = d.now
					for id, r := range d.runs {
						if f := s.consumers.freeAt(id); f != math.MaxInt {
							waiting = append(waiting, finished{finish: f, index: r.index})
						}
					}
					waiting = append(waiting, d.done...)
				case *static:
					bound = max(s.consumers.earliest(), e.Arrival)
					for _, q := range d.owned.queue {
						waiting = append(waiting, q.elements()...)
					}
				}
				for _, f := range waiting {
					if f.finish <= bound {
						t.Fatalf("after event %d: event %d finished at %d, by %d, yet waits", i, f.index, f.finish, bound)
					}
				}
			}
		}
	})
}

// The due lists must outnumber the consumers at least twice, by a power of
// two, and spread finish times over them, a quarter of the lists at least,
// even when the times are in step with the number of lists (every duration
// a multiple of it, say):
// otherwise applying the events due at a time scans the events due at
// others, and the head-of-line policy costs O(consumers) per event.
func TestDueListsSpreadFinishTimes(t *testing.T) {
	t.Parallel()
	rapid.Check(t, func(t *rapid.T) {
		most := 5000
		if bits.UintSize == 32 {
			most = 2048 // so that n finish times 64·n apart fit in an int
		}
		c := rapid.IntRange(1, most).Draw(t, "consumers")
		d := newDueLists(c)
		n := len(d.head)
		if n < 2*c || n&(n-1) != 0 || n >= 4*c && n > 2 {
			t.Fatalf("%d consumers: %d lists; want the least power of two from %d", c, n, max(2, 2*c))
		}
		step := rapid.IntRange(1, 64).Draw(t, "step")
		if rapid.Bool().Draw(t, "in step with the lists") {
			step *= n
		}
		// Finish times are ints: the last one drawn must be one too.
		start := rapid.IntRange(0, min(math.MaxInt32, math.MaxInt-n*step)).Draw(t, "start")
		used := map[int]bool{}
		for k := range n {
			l := d.list(start + k*step)
			if l < 0 || l >= n {
				t.Fatalf("finish %d filed in list %d of %d", start+k*step, l, n)
			}
			used[l] = true
		}
		if 4*len(used) < n { // hashing at random would use about 63% of them
			t.Fatalf("%d finish times %d apart share %d of %d lists", n, step, len(used), n)
		}
	})
}

// checkDueLists fails t unless every consumer whose event waits is filed
// once, in the list its finish time hashes to, lists run in input order,
// and each list's tail is its last consumer.
func checkDueLists(t *rapid.T, h *headOfLine) {
	d := &h.due
	filed := make([]bool, len(h.running))
	for l := range d.head {
		last, index := int32(-1), -1
		for id := d.head[l]; id >= 0; id = h.running[id].next {
			r := h.running[id]
			switch {
			case filed[id]:
				t.Fatalf("consumer %d is filed twice", id)
			case !r.waiting:
				t.Fatalf("consumer %d is filed, but its event was applied", id)
			case d.list(r.finish) != l:
				t.Fatalf("consumer %d, finishing at %d, is filed in list %d, not %d", id, r.finish, l, d.list(r.finish))
			case r.index <= index:
				t.Fatalf("list %d has event %d after event %d", l, r.index, index)
			}
			filed[id], last, index = true, id, r.index
		}
		if d.tail[l] != last {
			t.Fatalf("list %d ends with consumer %d, but its tail says %d", l, last, d.tail[l])
		}
	}
	for id, r := range h.running {
		if r.waiting && !filed[id] {
			t.Fatalf("consumer %d's event waits, but it is filed nowhere", id)
		}
	}
}

// The lane-aware dispatcher holds only the events not taken yet, each in a
// slot, and must let go of each one's slot as a consumer takes it, for the
// next event to reuse: otherwise its memory grows with the run rather than
// with the events waiting. Its slots are never more than the most events
// that waited at once: an Add holds its event, then runs the policy.
func TestLaneAwareForgetsTakenEvents(t *testing.T) {
	t.Parallel()
	rapid.Check(t, func(t *rapid.T) {
		s, err := NewSimulator(Convoy, rapid.IntRange(1, 4).Draw(t, "consumers"), WithPolicy(LaneAware))
		if err != nil {
			t.Fatal(err)
		}
		keys := rapid.IntRange(1, 50).Draw(t, "keys")
		a, most := s.dispatch.(*laneAware), 0
		for i := range 5000 {
			most = max(most, a.waiting+1)
			e := Event{Key: fmt.Sprint(i % keys), Step: 1 + i/keys, Duration: 1 + i%3}
			if err := s.Add(e); err != nil {
				t.Fatal(err)
			}
			checkLaneAwareSlots(t, a)
			if a.slots.len() > most {
				t.Fatalf("after event %d: %d slots, but at most %d events waited at once", i, a.slots.len(), most)
			}
		}
	})
}

// checkLaneAwareSlots fails t unless the slots of a that are not vacant are
// the events waiting in its lanes' queues and among the fresh ones, none
// taken, and the others are linked vacant.
func checkLaneAwareSlots(t interface{ Fatalf(string, ...any) }, a *laneAware) {
	seen := make([]bool, a.slots.len())
	// where is the slot's place, a lane's number, or vacant or fresh: the
	// message is made only on a failure, as the check runs after every
	// event of TestLaneAwareForgetsTakenEvents.
	const vacantSlot, freshSlot = -1, -2
	mark := func(h int32, where int) {
		if h < 0 || int(h) >= len(seen) || seen[h] {
			what := map[int]string{vacantSlot: "vacant", freshSlot: "fresh"}[where]
			if where >= 0 {
				what = fmt.Sprint("in lane ", where)
			}
			t.Fatalf("slot %d, %s, is out of range or in two places", h, what)
		}
		seen[h] = true
	}
	vacant := 0
	for h := a.vacant; h >= 0; h = a.at(h).next {
		mark(h, vacantSlot)
		vacant++
	}
	waiting := 0
	for ln := range a.queues.len() {
		for h := int32(a.queues.at(ln).head); h >= 0; h = a.at(h).next {
			mark(h, ln)
			waiting++
		}
	}
	for _, h := range a.fresh[a.freshHead:] {
		if a.at(h).lane < 0 {
			mark(h, freshSlot)
			waiting++
		}
	}
	if waiting != a.waiting || vacant+waiting != a.slots.len() {
		t.Fatalf("%d slots: %d vacant and %d events waiting, but the dispatcher counts %d waiting", a.slots.len(), vacant, waiting, a.waiting)
	}
}
