package live

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/sirali-konvoy/konvoy"
)

// Lanes shows the lanes held now, under every policy: with lanes a and b
// each running an item blocked on a gate, a holding two more and b one,
// a comes first (its waiting item was submitted first) with 2 held and
// one running, b with 1; the waits grow while the gate stays shut, n
// bounds the answer, and once the executor is drained no lane is left.
func TestLanesShowsHeldLanes(t *testing.T) {
	for _, p := range konvoy.Policies() {
		t.Run(p.String(), func(t *testing.T) {
			gate := make(chan struct{})
			started := make(chan string, 10)
			x, err := New(konvoy.Convoy, 2, ev, func(ctx context.Context, e konvoy.Event) error {
				started <- e.Key
				<-gate
				return nil
			}, WithPolicy(p), WithAssignor(konvoy.RoundRobinAssignor))
			if err != nil {
				t.Fatal(err)
			}
			for _, k := range []string{"a", "b", "a", "b", "a"} {
				if err := x.Submit(context.Background(), konvoy.Event{Key: k, Step: 1}); err != nil {
					t.Fatal(err)
				}
			}
			for range 2 { // a's first and b's first run, on the two consumers
				select {
				case <-started:
				case <-time.After(deadline):
					t.Fatal("the first items never started")
				}
			}
			if got := x.Lanes(0); got != nil {
				t.Fatalf("Lanes(0) = %v; want none", got)
			}
			first := x.Lanes(5)
			if len(first) != 2 || first[0].Lane != "a" || first[0].Held != 2 || !first[0].Running ||
				first[1].Lane != "b" || first[1].Held != 1 || !first[1].Running || first[1].Wait > first[0].Wait {
				t.Fatalf("Lanes(5) = %+v; want a (2 held, running), then b (1 held, running)", first)
			}
			time.Sleep(time.Millisecond) // the clock moves on; nothing waits for this
			if again := x.Lanes(1); len(again) != 1 || again[0].Lane != "a" || again[0].Wait < first[0].Wait+time.Millisecond {
				t.Fatalf("Lanes(1) = %+v a millisecond after %+v; want a, waiting a millisecond longer", again, first[0])
			}
			close(gate)
			if err := mustClose(t, x); err != nil {
				t.Fatal(err)
			}
			if got := x.Lanes(5); len(got) != 0 {
				t.Fatalf("after Close, Lanes(5) = %+v; want none", got)
			}
		})
	}
}

// An item the resequencer holds for a gap is in no lane until released:
// with step 1 running and step 3 held, key a's lane holds nothing more.
func TestLanesLeaveOutGapHeldItems(t *testing.T) {
	gate := make(chan struct{})
	started := make(chan struct{}, 1)
	x, err := New(konvoy.Resequencer, 1, ev, func(ctx context.Context, e konvoy.Event) error {
		started <- struct{}{}
		<-gate
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []int{1, 3} {
		if err := x.Submit(context.Background(), konvoy.Event{Key: "a", Step: s}); err != nil {
			t.Fatal(err)
		}
	}
	waitFor(t, started, "step 1's start")
	if got := x.Lanes(5); len(got) != 1 || got[0] != (LaneStat{Lane: "a", Running: true}) {
		t.Fatalf("Lanes(5) = %+v; want a, running, none held", got)
	}
	close(gate)
	if err := mustClose(t, x); !errors.Is(err, ErrNeverApplied) {
		t.Fatalf("Close: %v; want step 3 never applied", err)
	}
}
