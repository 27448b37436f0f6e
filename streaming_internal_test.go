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
				for _, f := range s.pending {
					if f.finish <= bound {
						t.Fatalf("after event %d: event %d finished at %d, by %d, yet waits", i, f.index, f.finish, bound)
					}
				}
			}
		}
	})
}
