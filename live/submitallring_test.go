package live

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/sirali-konvoy/konvoy"
)

// SubmitAll's doc (live.go): "It calls the event function, and
// WithOffsets's, under Submit's lock: another Submit waits for them, but
// no consumer does." Since the finish log is drained under the submit lock
// with a blocking Lock (leaveSlot), a consumer whose item finds the log
// full waits for the submit lock, so for SubmitAll's event function. Here
// one consumer runs 64 items of 64 lanes in distinct slots, which fill the
// 64-cell log (WithMaxHeld(64)) while Submit is idle; then SubmitAll takes
// a, b and c, of free slots: a's finish finds the log full and its
// consumer waits for the lock, which SubmitAll holds while it asks the
// event function of c, so b does not start until that function returns.
// The event function of c waits (3 s at most) for b to start.
func TestSubmitAllEventFuncDoesNotBlockConsumers(t *testing.T) {
	started := make(chan string, 256)
	gate := make(chan struct{})
	var x *Executor[string]
	waited := false
	event := func(s string) konvoy.Event {
		if s == "c" {
			deadline := time.After(3 * time.Second)
			for {
				select {
				case v := <-started:
					if v == "b" {
						return konvoy.Event{Key: keyOf[s]}
					}
					continue
				case <-deadline:
					waited = true
				}
				break
			}
		}
		return konvoy.Event{Key: keyOf[s]}
	}
	x, err := New(konvoy.Convoy, 1, event, func(_ context.Context, s string) error {
		if s == "i0" {
			<-gate
		}
		started <- s
		return nil
	}, WithMaxHeld(64))
	if err != nil {
		t.Fatal(err)
	}
	if x.finLog.mask != 63 || x.slots.mask != 127 {
		t.Fatalf("log of %d cells, %d slots; want 64 and 128", x.finLog.mask+1, x.slots.mask+1)
	}
	// Lanes in distinct slots: 64 for the first items, 3 for a, b and c.
	used := map[uint64]bool{}
	var first []string
	var rest []string
	for i := 0; len(first) < 64 || len(rest) < 3; i++ {
		k := fmt.Sprint("k", i)
		s := x.laneHash(k) & x.slots.mask
		if used[s] {
			continue
		}
		used[s] = true
		if len(first) < 64 {
			first = append(first, k)
		} else {
			rest = append(rest, k)
		}
	}
	for i, k := range first {
		keyOf[fmt.Sprint("i", i)] = k
	}
	keyOf["a"], keyOf["b"], keyOf["c"] = rest[0], rest[1], rest[2]

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for i := range first {
		if err := x.Submit(ctx, fmt.Sprint("i", i)); err != nil {
			t.Fatal(err)
		}
	}
	close(gate)
	l := x.finLog
	for l.enq.Load()-l.deq.Load() != 64 || !l.cells[(l.enq.Load()-1)&l.mask].ready(l.enq.Load()) {
		if ctx.Err() != nil {
			t.Fatalf("the log holds %d finished items, want 64", l.enq.Load()-l.deq.Load())
		}
		time.Sleep(time.Millisecond)
	}
	for range first {
		<-started
	}
	if _, err := x.SubmitAll(ctx, []string{"a", "b", "c"}); err != nil {
		t.Fatal(err)
	}
	if err := x.Close(ctx); err != nil {
		t.Fatal(err)
	}
	if waited {
		t.Error("b did not start while SubmitAll asked the event function of c: a's consumer waited for the submit lock")
	}
}

// keyOf gives the test's items their keys.
var keyOf = map[string]string{}

// ready tells whether the cell holds the item appended at pos-1.
func (c *finCell) ready(pos uint32) bool { return c.turn.Load() == pos }
