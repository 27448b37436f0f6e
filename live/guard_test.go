package live

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sirali-konvoy/konvoy"
)

// guardLog records, in order, what a consumer did with each item: enter,
// the store asked, the handler, the dead letter, exit with its error.
type guardLog struct {
	mu  sync.Mutex
	log []string
}

func (g *guardLog) add(format string, args ...any) {
	g.mu.Lock()
	g.log = append(g.log, fmt.Sprintf(format, args...))
	g.mu.Unlock()
}

// loggedStore is a VersionStore that logs its calls and advances as
// MemoryVersions does.
type loggedStore struct {
	g *guardLog
	m MemoryVersions
}

func (s *loggedStore) Advance(ctx context.Context, key string, step int) (bool, error) {
	ok, err := s.m.Advance(ctx, key, step)
	s.g.add("store %s/%d %v", key, step, ok)
	return ok, err
}

// WithGuard's enter comes before anything else a consumer does with an
// item, and before each attempt and the dead letter; exit follows each
// with its error, nil for an item handled, skipped as stale or
// dead-lettered. The version stamp's store, here no VersionReader, is
// asked within the guard, once the handler has returned nil, and never
// for an attempt that failed. An item enter refuses does
// not run, reaches no store or dead letter, and counts as done. One
// consumer makes the log a sequence.
func TestGuardBracketsEveryAttemptAndTheStore(t *testing.T) {
	g := &guardLog{}
	items := []konvoy.Event{
		{Key: "a", Step: 2}, // handled
		{Key: "a", Step: 1}, // stale: skipped
		{Key: "b", Step: 1}, // refused by enter: never reaches the store
		{Key: "c", Step: 1}, // fails twice, then dead-lettered
	}
	handle := func(_ context.Context, e konvoy.Event) error {
		g.add("handle %s", e.Key)
		if e.Key == "c" {
			return errors.New("c fails")
		}
		return nil
	}
	enter := func(_ context.Context, e konvoy.Event) bool {
		g.add("enter %s", e.Key)
		return e.Key != "b"
	}
	exit := func(_ context.Context, e konvoy.Event, err error) {
		g.add("exit %s %v", e.Key, err != nil)
	}
	dead := func(_ context.Context, e konvoy.Event, _ error) error {
		g.add("dead %s", e.Key)
		return nil
	}
	x, err := New(konvoy.VersionStamp, 1, func(e konvoy.Event) konvoy.Event { return e }, handle,
		WithGuard(enter, exit), WithVersions(&loggedStore{g: g}), WithRetry(Retry{Attempts: 2}),
		WithDeadLetter(dead), withSleep(func(context.Context, time.Duration) error { return nil }))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range items {
		if err := x.Submit(context.Background(), e); err != nil {
			t.Fatal(err)
		}
	}
	if err := mustClose(t, x); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"enter a", "handle a", "store a/2 true", "exit a false",
		"enter a", "handle a", "store a/1 false", "exit a false",
		"enter b",
		"enter c", "handle c", "exit c true",
		"enter c", "handle c", "exit c true",
		"enter c", "dead c", "exit c false",
	}
	if !slices.Equal(g.log, want) {
		t.Fatalf("the consumer did\n\t%s\nwant\n\t%s", strings.Join(g.log, "\n\t"), strings.Join(want, "\n\t"))
	}
	if s := x.Stats(); s.Done != 2 || s.Skipped != 1 || s.DeadLetters != 1 {
		t.Fatalf("Stats: %d done, %d skipped, %d dead letters; want 2 (a, and b refused), 1 and 1", s.Done, s.Skipped, s.DeadLetters)
	}
}

// New refuses a guard whose functions take another type than the
// executor's items, as it refuses such a dead letter.
func TestNewRefusesAGuardOfAnotherType(t *testing.T) {
	_, err := New(konvoy.Convoy, 1, func(int) konvoy.Event { return konvoy.Event{} }, func(context.Context, int) error { return nil },
		WithGuard(func(context.Context, string) bool { return true }, func(context.Context, string, error) {}))
	if err == nil || !strings.Contains(err.Error(), "WithGuard's functions take a string; want ones that take a int") {
		t.Fatalf("New with a guard of strings for an executor of ints: %v", err)
	}
}

// Without a dead letter, a consumer asks the guard once more before an
// item's failure stops the executor: enter, then exit at once with the
// item's *ItemError when enter lets it. An item enter then refuses is
// dropped as done, and the executor goes on, as when enter refuses an
// attempt: a Kafka consumer whose record failed as its partition was
// revoked drops it for the next owner to read, where its failure stopped
// the whole member (found by a review). Here x's enter refuses once
// "drop" failed; y's lets every item be, and its failure stops it.
func TestTheGuardIsAskedBeforeAFailureStopsTheExecutor(t *testing.T) {
	for _, refuse := range []bool{true, false} {
		g := &guardLog{}
		failed := false // one consumer: no race
		submitted := make(chan struct{})
		handle := func(_ context.Context, e konvoy.Event) error {
			g.add("handle %s", e.Key)
			if e.Key == "drop" {
				<-submitted // next is held when drop's failure stops y
				failed = true
				return errors.New("drop fails")
			}
			return nil
		}
		enter := func(_ context.Context, e konvoy.Event) bool {
			g.add("enter %s", e.Key)
			return !(refuse && failed && e.Key == "drop")
		}
		exit := func(_ context.Context, e konvoy.Event, err error) {
			var ie *ItemError
			g.add("exit %s %v", e.Key, errors.As(err, &ie))
		}
		x, err := New(konvoy.Convoy, 1, func(e konvoy.Event) konvoy.Event { return e }, handle, WithGuard(enter, exit))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range []konvoy.Event{{Key: "drop"}, {Key: "next"}} {
			if err := x.Submit(context.Background(), e); err != nil {
				t.Fatal(err)
			}
		}
		close(submitted)
		cerr := mustClose(t, x)
		want := []string{"enter drop", "handle drop", "exit drop false", "enter drop"}
		if refuse {
			want = append(want, "enter next", "handle next", "exit next false")
			if cerr != nil {
				t.Errorf("Close: %v; want nil: the guard dropped the failed item", cerr)
			}
			if s := x.Stats(); s.Done != 2 || s.Errors != 1 {
				t.Errorf("Stats: %d done, %d errors; want 2 (next, and drop dropped) and 1", s.Done, s.Errors)
			}
		} else {
			want = append(want, "exit drop true")
			if !errors.Is(cerr, ErrStopped) {
				t.Errorf("Close: %v; want the failure that stopped the executor", cerr)
			}
		}
		if !slices.Equal(g.log, want) {
			t.Errorf("refuse %v: the consumer did\n\t%s\nwant\n\t%s", refuse, strings.Join(g.log, "\n\t"), strings.Join(want, "\n\t"))
		}
	}
}

// A failed dead letter is asked about as a failure without one is: the
// consumer asks the guard once more before the dead letter's failure
// stops the executor, and an item enter then refuses is dropped as done.
// A Kafka consumer whose dead-letter produce failed after the record's
// partition was revoked drops it for the next owner to read, where the
// failure stopped the whole member (found by a review). Here x's enter
// refuses "drop" once its dead letter failed; y's lets every item be.
func TestTheGuardIsAskedBeforeAFailedDeadLetterStopsTheExecutor(t *testing.T) {
	for _, refuse := range []bool{true, false} {
		g := &guardLog{}
		deadFailed := false // one consumer: no race
		submitted := make(chan struct{})
		handle := func(_ context.Context, e konvoy.Event) error {
			g.add("handle %s", e.Key)
			if e.Key == "drop" {
				<-submitted
				return errors.New("drop fails")
			}
			return nil
		}
		dead := func(_ context.Context, e konvoy.Event, _ error) error {
			g.add("dead %s", e.Key)
			deadFailed = true
			return errors.New("dead letter fails")
		}
		enter := func(_ context.Context, e konvoy.Event) bool {
			g.add("enter %s", e.Key)
			return !(refuse && deadFailed && e.Key == "drop")
		}
		exit := func(_ context.Context, e konvoy.Event, err error) {
			var ie *ItemError
			g.add("exit %s %v", e.Key, errors.As(err, &ie))
		}
		x, err := New(konvoy.Convoy, 1, func(e konvoy.Event) konvoy.Event { return e }, handle,
			WithGuard(enter, exit), WithDeadLetter(dead))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range []konvoy.Event{{Key: "drop"}, {Key: "next"}} {
			if err := x.Submit(context.Background(), e); err != nil {
				t.Fatal(err)
			}
		}
		close(submitted)
		cerr := mustClose(t, x)
		want := []string{"enter drop", "handle drop", "exit drop false", "enter drop", "dead drop", "exit drop false", "enter drop"}
		if refuse {
			want = append(want, "enter next", "handle next", "exit next false")
			if cerr != nil {
				t.Errorf("Close: %v; want nil: the guard dropped the item whose dead letter failed", cerr)
			}
			if s := x.Stats(); s.Done != 2 || s.DeadLetters != 0 {
				t.Errorf("Stats: %d done, %d dead letters; want 2 (next, and drop dropped) and 0", s.Done, s.DeadLetters)
			}
		} else {
			want = append(want, "exit drop true")
			if !errors.Is(cerr, ErrStopped) {
				t.Errorf("Close: %v; want the failure that stopped the executor", cerr)
			}
		}
		if !slices.Equal(g.log, want) {
			t.Errorf("refuse %v: the consumer did\n\t%s\nwant\n\t%s", refuse, strings.Join(g.log, "\n\t"), strings.Join(want, "\n\t"))
		}
	}
}
