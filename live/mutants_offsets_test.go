package live_test

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/live"
)

// offsetsDeadline bounds every wait of these tests; only a hung executor
// reaches it.
const offsetsDeadline = 20 * time.Second

// at is an item of source partition part at offset off, in lane key.
type at struct {
	key  string
	part int
	off  int64
}

func atEvent(a at) konvoy.Event                { return konvoy.Event{Key: a.key} }
func atOffset(a at) (partition int, off int64) { return a.part, a.off }

// eventually polls cond, yielding, until it holds, failing t at the
// deadline.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for end := time.Now().Add(offsetsDeadline); !cond(); time.Sleep(100 * time.Microsecond) {
		if time.Now().After(end) {
			t.Fatalf("%s never happened", what)
		}
	}
}

// completionBecomes polls x.Completion() until it is want, failing t at
// the deadline with the last it gave.
func completionBecomes[T any](t *testing.T, x *live.Executor[T], want []live.Completion) {
	t.Helper()
	var got []live.Completion
	for end := time.Now().Add(offsetsDeadline); ; time.Sleep(100 * time.Microsecond) {
		got = x.Completion()
		if fmt.Sprint(got) == fmt.Sprint(want) {
			return
		}
		if time.Now().After(end) {
			t.Fatalf("Completion() = %v; want %v", got, want)
		}
	}
}

// closeWithin closes x, failing t at the first error.
func closeWithin[T any](t *testing.T, x *live.Executor[T]) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), offsetsDeadline)
	defer cancel()
	if err := x.Close(ctx); err != nil {
		t.Fatal(err)
	}
}

// Completion lists every finished offset above an unfinished first item,
// whatever the number of items submitted: in particular when they fill
// the executor's chunks of offsets exactly, so that no item was published
// past the last, whose place is in a chunk not yet linked. The first item
// runs until the test lets it go, in a lane of its own; the others, of
// one lane, finish meanwhile.
func TestCompletionListsEveryFinishedOffsetBehindAnUnfinishedHead(t *testing.T) {
	for n := 1; n <= 130; n++ {
		gate := make(chan struct{})
		var done atomic.Int64
		x, err := live.New(konvoy.Convoy, 2, atEvent, func(_ context.Context, a at) error {
			if a.off == 0 {
				<-gate
				return nil
			}
			done.Add(1)
			return nil
		}, live.WithOffsets(atOffset), live.WithMaxHeld(n))
		if err != nil {
			t.Fatal(err)
		}
		want := live.Completion{Partition: 3}
		for i := range n {
			key := "rest"
			if i == 0 {
				key = "first"
			} else {
				want.Finished = append(want.Finished, int64(i))
			}
			if err := x.Submit(context.Background(), at{key: key, part: 3, off: int64(i)}); err != nil {
				t.Fatalf("n=%d: Submit of offset %d: %v", n, i, err)
			}
		}
		// Items 1 to n−1 have returned; the executor marks each finished
		// just after.
		eventually(t, fmt.Sprintf("n=%d: items 1 to %d done", n, n-1), func() bool { return done.Load() == int64(n-1) })
		completionBecomes(t, x, []live.Completion{want})
		close(gate)
		closeWithin(t, x)
		if got := x.Completion(); fmt.Sprint(got) != fmt.Sprint([]live.Completion{{Partition: 3, Committable: int64(n)}}) {
			t.Fatalf("n=%d: Completion() after Close = %v; want [{3 %d []}]", n, got, n)
		}
	}
}
