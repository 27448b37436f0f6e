package konvoy

import (
	"fmt"
	"testing"

	"pgregory.net/rapid"
)

// A streaming simulator must not hold back what it could apply: after every
// Add, each event still waiting finishes after the time up to which no later
// event can come before it. Holding events longer would give the same
// results, but memory would grow with the events instead of the consumers.
func TestEventsAreAppliedAsSoonAsTheyAreSafe(t *testing.T) {
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
			switch p {
			case HeadOfLine:
				for id, r := range s.running {
					if r.waiting && r.finish <= s.consumers.earliest() {
						t.Fatalf("after event %d: consumer %d's event finished at %d, by the earliest free time %d, yet waits", i, id, r.finish, s.consumers.earliest())
					}
				}
			default:
				bound := s.aware.now
				if p == Static {
					bound = max(s.consumers.earliest(), e.Arrival)
				}
				var waiting []finished
				for _, p := range s.pending {
					waiting = append(waiting, p.val)
				}
				for id, q := range s.owned.queue {
					waiting = append(waiting, q[s.owned.head[id]:]...)
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
	rapid.Check(t, func(t *rapid.T) {
		c := rapid.IntRange(1, 5000).Draw(t, "consumers")
		d := newDueLists(c)
		n := len(d.head)
		if n < 2*c || n&(n-1) != 0 || n >= 4*c && n > 2 {
			t.Fatalf("%d consumers: %d lists; want the least power of two from %d", c, n, max(2, 2*c))
		}
		start := rapid.IntRange(0, 1<<40).Draw(t, "start")
		step := n * rapid.IntRange(1, 64).Draw(t, "step")
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
