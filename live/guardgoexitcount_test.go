package live

import (
	"context"
	"errors"
	"runtime"
	"testing"
	"time"

	"github.com/sirali-konvoy/konvoy"
)

// An item that a guard's runtime.Goexit fails reports the attempts whose
// handler ran, and Stats.Errors counts only failed attempts: ItemError's
// Attempts is "how many times the item was tried" and Errors "the failed
// attempts" (stats.go). The consumer's count of attempts is its own, kept
// across items, so an item failed in the guard before its first attempt
// once reported the attempts of the item before it, and a Goexit in the
// guard, before an attempt or a dead letter, counted an attempt failed.
// Item a fails twice and then passes, on one consumer, so b comes after
// its three attempts.
func TestAGuardsGoexitCountsOnlyAttemptsMade(t *testing.T) {
	for _, exitAt := range []string{"enter", "dead letter's enter", "exit"} {
		enters := 0 // of item b: one consumer, no two at once
		fails := 0
		x, err := New(konvoy.Convoy, 1, func(k string) konvoy.Event { return konvoy.Event{Key: k} },
			func(_ context.Context, k string) error {
				if k == "a" && fails < 2 || k == "b" {
					fails++
					return errors.New("transient")
				}
				return nil
			},
			WithRetry(Retry{Attempts: 3, Base: time.Microsecond}),
			WithDeadLetter(func(context.Context, string, error) error { return nil }),
			WithGuard(func(_ context.Context, k string) bool {
				if k == "b" {
					if enters++; exitAt == "enter" || exitAt == "dead letter's enter" && enters == 4 {
						runtime.Goexit()
					}
				}
				return true
			}, func(_ context.Context, k string, err error) {
				if k == "b" && exitAt == "exit" && err != nil && !errors.Is(err, ErrGoexit) {
					runtime.Goexit() // after b's first attempt failed
				}
			}))
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range []string{"a", "b"} {
			if err := x.Submit(context.Background(), k); err != nil {
				t.Fatal(err)
			}
		}
		cerr := mustClose(t, x)
		var ie *ItemError
		if !errors.As(cerr, &ie) || !errors.Is(cerr, ErrGoexit) || ie.Seq != 1 {
			t.Fatalf("Goexit in b's guard %s: Close: %v; want item 1's failure with ErrGoexit", exitAt, cerr)
		}
		// a failed twice; b's attempts and failures by where the guard left.
		want := map[string][2]int{"enter": {0, 2}, "dead letter's enter": {3, 5}, "exit": {1, 3}}[exitAt]
		if s := x.Stats(); ie.Attempts != want[0] || s.Errors != want[1] {
			t.Errorf("Goexit in b's guard %s: ItemError.Attempts %d, Stats.Errors %d; want %d and %d",
				exitAt, ie.Attempts, s.Errors, want[0], want[1])
		}
	}
}
