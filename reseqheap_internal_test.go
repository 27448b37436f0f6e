package konvoy

import "testing"

// A key's heap of held steps, which a Timeout or Capacity keeps to give up
// its gaps lowest step first, drops the steps its gap's filling applied: it
// holds no more than the key's held steps and the stale ones lowestHeld
// has yet to meet, so that its memory follows what the key holds, not the
// steps that passed through. Key K holds 2, 3 and 5; step 1 applies 1, 2
// and 3; the heap holds 5 alone.
func TestAKeysHeapOfHeldStepsDropsTheStepsApplied(t *testing.T) {
	s, err := NewSimulator(Resequencer, 1, WithResequencer(ResequencerConfig{Timeout: 1000}))
	if err != nil {
		t.Fatal(err)
	}
	for _, step := range []int{3, 2, 5, 1} {
		if err := s.Add(Event{Key: "K", Step: step}); err != nil {
			t.Fatal(err)
		}
	}
	if len(s.heldSteps) != 1 {
		t.Fatalf("heaps of %d keys; want K's alone", len(s.heldSteps))
	}
	for _, h := range s.heldSteps {
		if len(*h) != 1 || (*h)[0].key != 5 {
			t.Errorf("K's heap %v; want step 5 alone", *h)
		}
	}
}
