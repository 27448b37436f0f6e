package live

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/sirali-konvoy/konvoy"
	"pgregory.net/rapid"
)

// loggedVersions is a VersionStore, not a VersionReader (so every item's
// step is settled by Advance, at its finish), that logs, in the order it
// answers them, the steps it was asked about and its answers.
type loggedVersions struct {
	m        MemoryVersions
	mu       sync.Mutex
	events   []konvoy.Event
	advanced []bool
}

func (l *loggedVersions) Advance(ctx context.Context, key string, step int) (bool, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	ok, err := l.m.Advance(ctx, key, step)
	l.events = append(l.events, konvoy.Event{Key: key, Step: step})
	l.advanced = append(l.advanced, ok)
	return ok, err
}

// stampItem is an item of the version-stamp properties.
type stampItem struct {
	seq int
	e   konvoy.Event
}

// stampItems draws a stream of items over three keys, with steps 0 to 4.
func stampItems(t *rapid.T) []stampItem {
	items := make([]stampItem, rapid.IntRange(0, 40).Draw(t, "items"))
	for i := range items {
		items[i] = stampItem{i, konvoy.Event{
			Key:  rapid.SampledFrom([]string{"a", "b", "c"}).Draw(t, "key"),
			Step: rapid.IntRange(0, 4).Draw(t, "step"),
		}}
	}
	return items
}

// The version stamp skips exactly what the model's VersionStamp skips for
// the same stream applied in the same order: the model applies events in
// the order they finish, and the executor asks the store about each item
// once its handler has returned, so the steps, in the order the store was
// asked about them, run through Simulate on one consumer (which applies
// them in that order), are skipped there exactly when the store refused
// them. On one consumer that order is the submission order.
func TestVersionStampSkipsAsTheModel(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		items := stampItems(t)
		n := len(items)
		c := rapid.IntRange(1, 4).Draw(t, "consumers")
		store := &loggedVersions{}
		x, err := New(konvoy.VersionStamp, c, func(it stampItem) konvoy.Event { return it.e },
			func(context.Context, stampItem) error { return nil }, WithVersions(store))
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
		if st := x.Stats(); st.Skipped != r.Skipped || st.Done != n-r.Skipped {
			t.Fatalf("stats %+v; the model skipped %d of %d", st, r.Skipped, n)
		}
		if c == 1 && fmt.Sprint(store.events) != fmt.Sprint(ordered) {
			t.Fatalf("one consumer asked the store about %v; want the steps as submitted, %v", store.events, ordered)
		}
	})
}

// A VersionReader (the default store is one) skips an item whose key is
// past its step before it runs, and only such an item: on one consumer,
// which runs items in submission order, the items whose handler never ran
// are exactly those the model skips for the stream as submitted.
func TestAVersionReaderSkipsStaleItemsUnrun(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		items := stampItems(t)
		handled := map[int]bool{}
		x, err := New(konvoy.VersionStamp, 1, func(it stampItem) konvoy.Event { return it.e },
			func(_ context.Context, it stampItem) error {
				handled[it.seq] = true
				return nil
			})
		if err != nil {
			t.Fatal(err)
		}
		var events []konvoy.Event
		for _, it := range items {
			if err := x.Submit(context.Background(), it); err != nil {
				t.Fatal(err)
			}
			events = append(events, it.e)
		}
		if err := mustClose(t, x); err != nil {
			t.Fatal(err)
		}
		r, err := konvoy.Simulate(events, konvoy.VersionStamp, 1, konvoy.WithSchedule(len(events)+1))
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range r.Schedule {
			if (s.Outcome == konvoy.Skipped) == handled[s.Index] {
				t.Fatalf("item %d (%+v): the model's outcome %v, handled %v", s.Index, events[s.Index], s.Outcome, handled[s.Index])
			}
		}
		if st := x.Stats(); st.Skipped != r.Skipped || len(handled) != st.Done {
			t.Fatalf("stats %+v, %d handled; the model skipped %d", st, len(handled), r.Skipped)
		}
	})
}

// A lower step that finishes after a higher one of its key is stale, as
// the model, applying events in the order they finish, says: a/2 runs
// first and finishes only once a/3, started after it on the other
// consumer, has been handled and applied (its handler's return alone would
// leave a/2 room to finish first); the store then refuses a/2, which
// counts as skipped, and the key's version stays 3.
func TestALowerStepFinishingLastIsSkipped(t *testing.T) {
	a3 := make(chan struct{})
	store := &MemoryVersions{}
	x, err := New(konvoy.VersionStamp, 2, ev, func(ctx context.Context, e konvoy.Event) error {
		if e.Step == 2 {
			waitFor(t, a3, "a/3's handler")
			for end := time.Now().Add(deadline); ; runtime.Gosched() {
				if v, _ := store.Version(ctx, "a"); v == 3 {
					break
				}
				if time.Now().After(end) {
					t.Error("a/3 was not applied")
					break
				}
			}
		} else {
			close(a3)
		}
		return nil
	}, WithVersions(store))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range []konvoy.Event{{Key: "a", Step: 2}, {Key: "a", Step: 3}} {
		if err := x.Submit(context.Background(), e); err != nil {
			t.Fatal(err)
		}
	}
	if err := mustClose(t, x); err != nil {
		t.Fatal(err)
	}
	v, _ := store.Version(context.Background(), "a")
	if s := x.Stats(); s.Skipped != 1 || s.Done != 1 || v != 3 {
		t.Fatalf("Stats: %d skipped, %d done; version %d; want a/2 skipped, a/3 done, and version 3", s.Skipped, s.Done, v)
	}
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
