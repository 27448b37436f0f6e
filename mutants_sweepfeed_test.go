package konvoy_test

import (
	"context"
	"errors"
	"testing"

	"github.com/sirali-konvoy/konvoy"
)

// A pass after a run failed at event i reads the stream again only up to
// it (the runs there need no more to tell whether they fail first), not
// to its end: a sweep of a long stream that fails early would otherwise
// read all of it in every later pass. Here no spool file can be made, the
// budget takes a run a pass, and the convoy's schedule is full at event
// 5000: the free run's pass reads events 0 to 5000, and pulls one more
// to find it has. Mutants sweep.go:810 (`break` → `continue`: the rest of
// the stream read, and dropped) and sweep.go:809 (`p.read == limit` →
// `>`: one event past the limit interned and run) lived.
func TestAPassAfterAFailureReadsTheStreamOnlyUpToIt(t *testing.T) {
	t.Setenv("TMPDIR", "/nonexistent/konvoy")
	events := steadyEvents(20_000) // a spool past its buffer: a file, which cannot be made
	var yields []int               // by reading of the stream
	stream := func(yield func(konvoy.Event, error) bool) {
		yields = append(yields, 0)
		for _, e := range events {
			yields[len(yields)-1]++
			if !yield(e, nil) {
				return
			}
		}
	}
	configs := []konvoy.Config{
		{Layout: konvoy.Convoy, Consumers: 3, Options: []konvoy.Option{konvoy.WithSchedule(5000)}},
		{Layout: konvoy.Free, Consumers: 3},
	}
	_, err := konvoy.Sweep(context.Background(), stream, configs, konvoy.WithMaxMemory(onePerPass))
	var ev *konvoy.EventError
	if !errors.As(err, &ev) || ev.Index != 5000 || !errors.Is(err, konvoy.ErrScheduleFull) {
		t.Fatalf("error %v; want the convoy's schedule limit at event 5000", err)
	}
	if len(yields) != 2 || yields[1] != 5002 {
		t.Errorf("the stream yielded %v events by reading; want two readings, the second 5002 (events 0 to 5000, and the next)", yields)
	}
}
