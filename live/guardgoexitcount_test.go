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
	// a failed twice; b's attempts and failures by where the guard left.
	for exitAt, want := range map[string][2]int{"enter": {0, 2}, "dead letter's enter": {3, 5}, "exit": {1, 3}} {
		ie, s := failInGuard(t, exitAt)
		if ie.Attempts != want[0] || s.Errors != want[1] {
			t.Errorf("Goexit in b's guard %s: ItemError.Attempts %d, Stats.Errors %d; want %d and %d",
				exitAt, ie.Attempts, s.Errors, want[0], want[1])
		}
	}
}

// guardExit is the handler and guard of failInGuard: item a fails twice,
// b always, and b's guard calls runtime.Goexit in its enter (before the
// first attempt), in the dead letter's enter (its fourth), or in the exit
// after its first attempt. One consumer runs them: no two calls at once.
type guardExit struct {
	exitAt        string
	enters, fails int // b's enters; the failures
}

func (g *guardExit) handle(_ context.Context, k string) error {
	if k == "a" && g.fails < 2 || k == "b" {
		g.fails++
		return errors.New("transient")
	}
	return nil
}

func (g *guardExit) enter(_ context.Context, k string) bool {
	if k != "b" {
		return true
	}
	if g.enters++; g.exitAt == "enter" || g.exitAt == "dead letter's enter" && g.enters == 4 {
		runtime.Goexit()
	}
	return true
}

func (g *guardExit) exit(_ context.Context, k string, err error) {
	if k == "b" && g.exitAt == "exit" && err != nil && !errors.Is(err, ErrGoexit) {
		runtime.Goexit() // after b's first attempt failed
	}
}

// failInGuard runs items a and b, with three attempts and a dead letter,
// under guardExit, and returns b's error, which Close must give, and the
// executor's Stats.
func failInGuard(t *testing.T, exitAt string) (*ItemError, Stats) {
	t.Helper()
	g := &guardExit{exitAt: exitAt}
	x, err := New(konvoy.Convoy, 1, func(k string) konvoy.Event { return konvoy.Event{Key: k} }, g.handle,
		WithRetry(Retry{Attempts: 3, Base: time.Microsecond}),
		WithDeadLetter(func(context.Context, string, error) error { return nil }),
		WithGuard(g.enter, g.exit))
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
	return ie, x.Stats()
}
