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

// An inbox gives its items back in the order delivered, however
// deliveries and takes interleave; what held gives, at any time, is the
// items delivered and not taken, in order, and the last taken as running
// until its consumer finds no item, or takes a batch;
// and its memory stays within a few times the most items it held at once:
// the consumer takes q's items as its batch only once it ran its batch
// out, and the two swap their memory.
func TestInboxKeepsOrderInBoundedMemory(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var c inbox[int]
		next, want, most := 0, 0, 0
		running := false // the consumer runs want-1
		for _, deliver := range rapid.SliceOfN(rapid.Bool(), 500, 3000).Draw(t, "ops") {
			if deliver {
				c.mu.Lock() // as Executor.deliver does
				c.q = append(c.q, owned[int]{item: next, seq: int64(next)})
				c.mu.Unlock()
				next++
			} else if n, ok := c.head(); ok != (want < next) {
				t.Fatalf("head found an item: %v; want %v (%d delivered, %d taken)", ok, want < next, next, want)
			} else if ok { // as takeOwned does
				checkInboxHeld(t, &c, want, next, running && n > 0) // a batch just taken runs none of its items yet
				if got := c.batch[n].item; got != want {
					t.Fatalf("took %d; want %d", got, want)
				}
				c.running.Store(true)
				c.next.Store(n + 1)
				want, running = want+1, true
			} else {
				c.running.Store(false)
				running = false
			}
			most = max(most, next-want)
			checkInboxHeld(t, &c, want, next, running)
			// append doubles, and rounds to the allocator's size classes, which
			// leave smaller items (where int has 32 bits) more spare places.
			if size := cap(c.q) + cap(c.batch); size > 5*most+32 {
				t.Fatalf("an inbox of %d places, having held %d items at most", size, most)
			}
		}
	})
}

// checkInboxHeld fails t unless what c says it holds is the items want to
// next-1, in order, and, when running, want-1 as the item its consumer
// runs.
func checkInboxHeld(t *rapid.T, c *inbox[int], want, next int, running bool) {
	c.mu.Lock()
	waiting, cur, runs := c.held()
	c.mu.Unlock()
	if len(waiting) != next-want || runs != running || running && cur.item != want-1 {
		t.Fatalf("held %d items, running %v (%d); want %d, running %v (%d)", len(waiting), runs, cur.item, next-want, running, want-1)
	}
	for i, j := range waiting {
		if j.item != want+i {
			t.Fatalf("held item %d is %d; want %d", i, j.item, want+i)
		}
	}
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
