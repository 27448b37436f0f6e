package live

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"

	"github.com/sirali-konvoy/konvoy"
	"pgregory.net/rapid"
)

// The resequencer applies in the model's order: for a stream with
// duplicates and gaps, the executor runs, for each key, the items the
// model's Resequencer applies (on one consumer, where it applies in
// submission order), in the order it applies them, step by step; it
// discards the model's duplicates, still holds at Close the items the
// model never applies (Close names them), and counts as the model does.
// History-only items run as they come.
func TestResequencerAppliesInTheModelsOrder(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(0, 40).Draw(t, "items")
		items := make([]stampItem, n)
		events := make([]konvoy.Event, n)
		for i := range items {
			events[i] = konvoy.Event{Key: rapid.SampledFrom([]string{"a", "b", "c"}).Draw(t, "key"), Step: rapid.IntRange(0, 5).Draw(t, "step")}
			items[i] = stampItem{i, events[i]}
		}
		var mu sync.Mutex
		ran := map[string][]int{} // by key: the items run with a step, in order
		history := 0
		x, err := New(konvoy.Resequencer, rapid.IntRange(1, 4).Draw(t, "consumers"), func(it stampItem) konvoy.Event { return it.e },
			func(ctx context.Context, it stampItem) error {
				mu.Lock()
				defer mu.Unlock()
				if it.e.Step == 0 {
					history++
				} else {
					ran[it.e.Key] = append(ran[it.e.Key], it.seq)
				}
				return nil
			}, WithPolicy(rapid.SampledFrom(konvoy.Policies()).Draw(t, "policy")), WithMaxHeld(n+1))
		if err != nil {
			t.Fatal(err)
		}
		for _, it := range items {
			if err := x.Submit(context.Background(), it); err != nil {
				t.Fatal(err)
			}
		}
		closeErr := mustClose(t, x)
		r, err := konvoy.Simulate(events, konvoy.Resequencer, 1, konvoy.WithSchedule(n+1))
		if err != nil {
			t.Fatal(err)
		}
		want := map[string][]int{}
		var never []int
		histories := 0
		for _, s := range r.Schedule { // in input order
			switch s.Outcome {
			case konvoy.Applied, konvoy.Held:
				want[s.Key] = append(want[s.Key], s.Index)
			case konvoy.NeverApplied:
				never = append(never, s.Index)
			case konvoy.HistoryOnly:
				histories++
			}
		}
		for k, seqs := range want { // the model applies a key's steps in step order
			slices.SortStableFunc(seqs, func(a, b int) int { return events[a].Step - events[b].Step })
			if !slices.Equal(ran[k], seqs) {
				t.Fatalf("key %s ran items %v; the model applies %v", k, ran[k], seqs)
			}
		}
		if len(ran) != len(want) || history != histories {
			t.Fatalf("ran %v and %d history-only items; the model applies %v and %d", ran, history, want, histories)
		}
		var unrun *UnrunError[stampItem]
		var left []int
		if errors.As(closeErr, &unrun) {
			for _, it := range unrun.Items {
				left = append(left, it.seq)
			}
		}
		if !slices.Equal(left, never) || len(never) > 0 && !errors.Is(closeErr, ErrNeverApplied) || len(never) == 0 && closeErr != nil {
			t.Fatalf("Close: %v; the model never applies %v", closeErr, never)
		}
		st := x.Stats()
		if st.Duplicates != r.Duplicates || st.Buffered != r.Buffered || st.MaxBuffered != r.MaxBuffered ||
			st.MaxKeyBuffered != r.MaxKeyBuffered || st.NeverApplied != r.NeverApplied {
			t.Fatalf("stats %+v; the model's %+v", st, r)
		}
	})
}
