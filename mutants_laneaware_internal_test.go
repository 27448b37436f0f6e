package konvoy

import "testing"

// An event that comes to a lane with none waiting, free exactly at its
// arrival, can run from its arrival on, so the lane-aware dispatcher puts
// it in fresh, which "needs no heap" (laneAware's doc of fresh: "those
// that came to a lane with none waiting and free by then"). In a run where
// every event arrives just as its lane frees, neither the ready heap nor
// the later heap is ever used. Kills the mutant of enqueue that files such
// an event only when its lane freed strictly before it arrived (free <
// arrival), which routes it through later or a wake and then ready.
func TestLaneAwareAnEventArrivingAsItsLaneFreesNeedsNoHeap(t *testing.T) {
	for _, consumers := range []int{1, 2} {
		s, err := NewSimulator(Convoy, consumers, WithPolicy(LaneAware))
		if err != nil {
			t.Fatal(err)
		}
		// Key A's events run 0–3, 3–5, 5–6: each arrives as the one before
		// it finishes, on a lane with none waiting.
		for i, e := range []Event{
			{Key: "A", Step: 1, Duration: 3, Arrival: 0},
			{Key: "A", Step: 2, Duration: 2, Arrival: 3},
			{Key: "A", Step: 3, Duration: 1, Arrival: 5},
		} {
			if err := s.Add(e); err != nil {
				t.Fatalf("%d consumers, event %d: %v", consumers, i, err)
			}
		}
		r, err := s.Result()
		if err != nil {
			t.Fatal(err)
		}
		if r.Rounds != 6 {
			t.Fatalf("%d consumers: %d rounds; want 6, A's events back to back", consumers, r.Rounds)
		}
		a := s.dispatch.(*laneAware)
		if cap(a.ready) != 0 || cap(a.later) != 0 {
			t.Fatalf("%d consumers: the ready heap grew to %d and the later heap to %d; want neither used, every event fresh",
				consumers, cap(a.ready), cap(a.later))
		}
	}
}
