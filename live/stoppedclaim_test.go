package live

import (
	"context"
	"errors"
	"runtime"
	"testing"
	"time"

	"github.com/sirali-konvoy/konvoy"
)

// An item whose lane was handed to its consumer before a failure stopped
// the executor, and that the consumer had yet to start, does not start
// after the stop: Close reports it not run, and Lanes and Stats count it
// held in its lane, which no item runs. Before, the consumer that
// failed found no consumer counted running and let Close stop watching
// its context; the item then started, and Close waited for its handler,
// which Close's context ending never cancelled. Under head-of-line, on one
// processor: A runs on one consumer, H of A's lane is blocked on the
// other, and Close waits; A's end hands the lane to H's consumer, and A's
// consumer goes on at once to run F, which fails. (Found by a review.)
func TestAnItemHandedItsLaneBeforeAStopDoesNotStartAfterIt(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	r := &handedLane{gate: make(chan struct{}), started: make(chan struct{}), ran: make(chan bool, 1)}
	event := func(k string) konvoy.Event { return konvoy.Event{Key: map[string]string{"F": "m"}[k] + "l"} }
	x, err := New(konvoy.Convoy, 2, event, r.handle, WithPolicy(konvoy.HeadOfLine))
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"A", "H", "F"} {
		if err := x.Submit(context.Background(), k); err != nil {
			t.Fatal(err)
		}
	}
	waitFor(t, r.started, "A's start")
	awaitBlocked(t, x)
	ctx, cancel := context.WithCancel(context.Background())
	r.cancel = cancel
	closed := make(chan error, 1)
	go func() { closed <- x.Close(ctx) }()
	for !x.closing.Load() {
		runtime.Gosched()
	}
	close(r.gate)
	var cerr error
	select {
	case cerr = <-closed:
	case <-time.After(deadline):
		t.Fatal("Close never returned")
	}
	select {
	case cancelled := <-r.ran:
		if !cancelled {
			t.Errorf("H ran after the stop, and Close's context ended without cancelling it")
		}
		// Were A's consumer paused between handing the lane to H's and
		// taking F, H ran first and ended Close's context: Close then gave
		// up before F ran, and the schedule the test is after did not come.
		if !errors.Is(cerr, ErrStopped) && !errors.Is(cerr, context.Canceled) {
			t.Errorf("Close: %v; want ErrStopped, or Close's context's end", cerr)
		}
	default: // H did not run: it is Close's to report, and its lane's, not running
		checkHNotRun(t, x, cerr)
		if !errors.Is(cerr, ErrStopped) {
			t.Errorf("Close: %v; want ErrStopped", cerr)
		}
	}
}

// checkHNotRun checks that Close, which returned cerr, reports H not run,
// and that Lanes and Stats count it held in lane l, which runs nothing.
func checkHNotRun(t *testing.T, x *Executor[string], cerr error) {
	t.Helper()
	var ue *UnrunError[string]
	if !errors.As(cerr, &ue) || len(ue.Items) != 1 || ue.Items[0] != "H" {
		t.Errorf("Close: %v; want H reported not run", cerr)
	}
	lanes := x.Lanes(10)
	if len(lanes) != 1 || lanes[0].Lane != "l" || lanes[0].Held != 1 || lanes[0].Running {
		t.Errorf("Lanes after Close: %+v; want lane l holding H, not running", lanes)
	}
	if s := x.Stats(); s.Held != 1 || s.InFlight != 0 {
		t.Errorf("Stats after Close: %d held, %d in flight; want H held, nothing in flight", s.Held, s.InFlight)
	}
}

// handedLane is the handler of
// TestAnItemHandedItsLaneBeforeAStopDoesNotStartAfterIt: A waits for the
// gate, F fails, and H ends Close's context and tells whether its own
// ended then.
type handedLane struct {
	gate, started chan struct{}
	ran           chan bool
	cancel        context.CancelFunc
}

func (r *handedLane) handle(ctx context.Context, k string) error {
	switch k {
	case "A":
		close(r.started)
		<-r.gate
	case "F":
		return errors.New("F fails")
	case "H":
		r.cancel()
		select {
		case <-ctx.Done():
			r.ran <- true
		case <-time.After(2 * time.Second):
			r.ran <- false
		}
	}
	return nil
}

// awaitBlocked waits until a consumer of x is blocked on its item's lane,
// under head-of-line, failing t at the deadline.
func awaitBlocked[T any](t *testing.T, x *Executor[T]) {
	t.Helper()
	for end := time.Now().Add(deadline); ; runtime.Gosched() {
		for w := range x.tallies {
			c := &x.tallies[w]
			c.mu.Lock()
			blocked := c.since >= 0
			c.mu.Unlock()
			if blocked {
				return
			}
		}
		if time.Now().After(end) {
			t.Fatal("no consumer blocked on its lane")
		}
	}
}
