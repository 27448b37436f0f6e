package live

import (
	"context"
	"testing"

	"github.com/sirali-konvoy/konvoy"
	"pgregory.net/rapid"
)

// Under Static a consumer counts the items it ran from its inbox without
// the executor's lock, and settles them later; a Submit that finds the
// executor full settles them first, so that an item done leaves room at
// once, and Stats settles them too, so that its counts are those of now.
// One consumer, at most 3 held: a is done and b runs, so c and d fit.
func TestStaticItemsDoneLeaveRoom(t *testing.T) {
	started, release := make(chan struct{}), make(chan struct{})
	x, err := New(konvoy.Convoy, 1, ev, func(_ context.Context, e konvoy.Event) error {
		if e.Key == "b" {
			close(started)
			<-release
		}
		return nil
	}, WithPolicy(konvoy.Static), WithMaxHeld(3))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	for _, k := range []string{"a", "b"} {
		if err := x.Submit(ctx, konvoy.Event{Key: k}); err != nil {
			t.Fatal(err)
		}
	}
	waitFor(t, started, "b's start")
	for _, k := range []string{"c", "d"} {
		if err := x.Submit(ctx, konvoy.Event{Key: k}); err != nil {
			t.Fatalf("Submit %s with a done and b running: %v", k, err)
		}
	}
	if st := x.Stats(); st.Events != 4 || st.Done != 1 || st.InFlight != 1 || st.Held != 2 {
		t.Fatalf("a done, b running: %+v", st)
	}
	close(release)
	if err := mustClose(t, x); err != nil {
		t.Fatal(err)
	}
	if st := x.Stats(); st.Done != 4 || st.InFlight != 0 || st.Held != 0 || st.MaxInFlight != 1 {
		t.Fatalf("closed: %+v", st)
	}
}

// Stats counts, under Static, the items a consumer ran and has not
// settled: with one consumer, a is done while b runs, its consumer not
// back under the executor's lock since.
func TestStaticStatsCountsItemsNotSettled(t *testing.T) {
	started, release := make(chan struct{}), make(chan struct{})
	x, err := New(konvoy.Convoy, 1, ev, func(_ context.Context, e konvoy.Event) error {
		if e.Key == "b" {
			close(started)
			<-release
		}
		return nil
	}, WithPolicy(konvoy.Static))
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"a", "b", "c"} {
		if err := x.Submit(context.Background(), konvoy.Event{Key: k}); err != nil {
			t.Fatal(err)
		}
	}
	waitFor(t, started, "b's start")
	if st := x.Stats(); st.Events != 3 || st.Done != 1 || st.InFlight != 1 || st.Held != 1 || st.MaxInFlight != 1 {
		t.Fatalf("a done, b running: %+v", st)
	}
	close(release)
	if err := mustClose(t, x); err != nil {
		t.Fatal(err)
	}
	if st := x.Stats(); st.Done != 3 || st.InFlight != 0 || st.Held != 0 {
		t.Fatalf("closed: %+v", st)
	}
}

// An inbox gives its items back in the order pushed, however pushes and
// pops interleave, and its queue's length stays within about twice the
// items it holds when it takes one: it drops the front it has given
// back, also when it is never empty (here it keeps at least one item when
// told to).
func TestInboxKeepsOrderInBoundedMemory(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var c inbox[int]
		next, want := 0, 0
		keep := rapid.IntRange(0, 1).Draw(t, "keep")
		for _, push := range rapid.SliceOfN(rapid.Bool(), 500, 3000).Draw(t, "ops") {
			pushed := push || next-want <= keep
			if pushed {
				c.push(&task[int]{item: next})
				next++
			} else if !c.empty() {
				if got := c.pop().item; got != want {
					t.Fatalf("popped %d; want %d", got, want)
				}
				want++
			}
			if held := next - want; pushed && len(c.q) > 2*held+32 {
				t.Fatalf("queue of %d for %d items held after a push", len(c.q), held)
			}
		}
	})
}

// smallNumber reads the partition lanes' names, decimal numbers, below
// ownersKept, and nothing else: fixedOwner keeps the owners it reads.
func TestSmallNumber(t *testing.T) {
	for name, want := range map[string]int{"": -1, "0": 0, "7": 7, "1023": 1023, "1024": -1, "9999": -1,
		"12345": -1, "12a": -1, "-1": -1, "+1": -1, " 1": -1, "/": -1, ":": -1} {
		if got := smallNumber(name); got != want {
			t.Errorf("smallNumber(%q) = %d; want %d", name, got, want)
		}
	}
}
