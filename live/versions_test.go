package live

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/sirali-konvoy/konvoy"
	"pgregory.net/rapid"
)

// loggedVersions is a MemoryVersions that logs, in the order it answers
// them, the steps it was asked about and its answers.
type loggedVersions struct {
	MemoryVersions
	mu       sync.Mutex
	events   []konvoy.Event
	advanced []bool
}

func (l *loggedVersions) Advance(ctx context.Context, key string, step int) (bool, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	ok, err := l.MemoryVersions.Advance(ctx, key, step)
	l.events = append(l.events, konvoy.Event{Key: key, Step: step})
	l.advanced = append(l.advanced, ok)
	return ok, err
}

// stampItem is an item of the version-stamp properties.
type stampItem struct {
	seq int
	e   konvoy.Event
}

// The version stamp skips exactly what the model's VersionStamp skips for
// the same stream applied in the same order: the steps, in the order the
// store was asked about them, run through Simulate on one consumer (which
// applies them in that order), are skipped there exactly when the store
// refused them, and the executor handles every item but those. On one
// consumer that order is the submission order, so the executor skips
// exactly the items Simulate skips for the stream as submitted.
func TestVersionStampSkipsAsTheModel(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(0, 40).Draw(t, "items")
		items := make([]stampItem, n)
		for i := range items {
			items[i] = stampItem{i, konvoy.Event{
				Key:  rapid.SampledFrom([]string{"a", "b", "c"}).Draw(t, "key"),
				Step: rapid.IntRange(0, 4).Draw(t, "step"),
			}}
		}
		c := rapid.IntRange(1, 4).Draw(t, "consumers")
		var mu sync.Mutex
		handled := map[int]bool{}
		store := &loggedVersions{}
		x, err := New(konvoy.VersionStamp, c, func(it stampItem) konvoy.Event { return it.e }, func(ctx context.Context, it stampItem) error {
			mu.Lock()
			defer mu.Unlock()
			handled[it.seq] = true
			return nil
		}, WithVersions(store))
		if err != nil {
			t.Fatal(err)
		}
		var ordered []konvoy.Event // the stream as submitted, history-only steps left out
		for _, it := range items {
			if err := x.Submit(context.Background(), it); err != nil {
				t.Fatal(err)
			}
			if it.e.Step > 0 {
				ordered = append(ordered, it.e)
			}
		}
		if err := mustClose(t, x); err != nil {
			t.Fatal(err)
		}
		if len(store.events) != len(ordered) {
			t.Fatalf("the store was asked %d times; %d items have a step", len(store.events), len(ordered))
		}
		r, err := konvoy.Simulate(store.events, konvoy.VersionStamp, 1, konvoy.WithSchedule(n+1))
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range r.Schedule {
			if (s.Outcome == konvoy.Skipped) == store.advanced[s.Index] {
				t.Fatalf("step %d of the store's log (%+v): the model's outcome %v, the store advanced: %v", s.Index, store.events[s.Index], s.Outcome, store.advanced[s.Index])
			}
		}
		if st := x.Stats(); st.Skipped != r.Skipped || st.Done != n-r.Skipped || len(handled) != st.Done {
			t.Fatalf("stats %+v, handled %d; the model skipped %d", st, len(handled), r.Skipped)
		}
		if c > 1 {
			return
		}
		r, err = konvoy.Simulate(ordered, konvoy.VersionStamp, 1, konvoy.WithSchedule(n+1))
		if err != nil {
			t.Fatal(err)
		}
		skippedAt := make([]bool, len(ordered))
		for _, s := range r.Schedule {
			skippedAt[s.Index] = s.Outcome == konvoy.Skipped
		}
		j := 0
		for _, it := range items {
			if it.e.Step == 0 {
				continue
			}
			if skippedAt[j] == handled[it.seq] {
				t.Fatalf("item %d (%+v): skipped by the model %v, handled %v", it.seq, it.e, skippedAt[j], handled[it.seq])
			}
			j++
		}
	})
}

// A store's error fails the attempt, which is retried; a store that
// panics fails it too.
func TestVersionStoreErrorsAreAttempts(t *testing.T) {
	calls := 0
	x, err := New(konvoy.VersionStamp, 1, ev, func(context.Context, konvoy.Event) error { return nil },
		WithVersions(storeFunc(func(ctx context.Context, key string, step int) (bool, error) {
			calls++
			switch calls {
			case 1:
				return false, errors.New("connection reset")
			case 2:
				panic("driver")
			}
			return true, nil
		})), WithRetry(Retry{Attempts: 3}))
	if err != nil {
		t.Fatal(err)
	}
	if err := x.Submit(context.Background(), konvoy.Event{Key: "k", Step: 1}); err != nil {
		t.Fatal(err)
	}
	if err := mustClose(t, x); err != nil {
		t.Fatal(err)
	}
	if st := x.Stats(); st.Done != 1 || st.Errors != 2 || st.Retries != 2 || calls != 3 {
		t.Fatalf("stats %+v after %d calls", st, calls)
	}
}

type storeFunc func(ctx context.Context, key string, step int) (bool, error)

func (f storeFunc) Advance(ctx context.Context, key string, step int) (bool, error) {
	return f(ctx, key, step)
}
