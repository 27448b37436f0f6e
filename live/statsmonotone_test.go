package live

import (
	"context"
	"fmt"
	"math/rand/v2"
	"runtime"
	"sync"
	"testing"

	"github.com/sirali-konvoy/konvoy"
)

// Stats's cumulative measures never fall from one call to the next, read
// while items run: Events, Done, Errors, Retries, DeadLetters, the most
// in flight, the latency maxima, and Blocked, which counts a block going
// on up to the call's own time. A blocked consumer that read the clock
// before it took its tally's lock to end its block could count it as
// ended before a Stats that had already counted it further: Blocked fell,
// by up to milliseconds (found by a review). Head-of-line over few keys
// blocks consumers often; a reader calls Stats in a loop meanwhile. The
// fault showed in about one run in ten of this size; the test runs five.
func TestStatsCumulativeMeasuresNeverFall(t *testing.T) {
	for round := range 5 {
		if err := statsNeverFall(uint64(round)); err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
	}
}

// statsNeverFall runs one stream under head-of-line with Stats read in a
// loop, and returns the first fall it saw.
func statsNeverFall(seed uint64) error {
	const consumers = 3
	x, err := New(konvoy.Convoy, consumers, func(e konvoy.Event) konvoy.Event { return e },
		func(_ context.Context, e konvoy.Event) error {
			for range e.Duration {
				runtime.Gosched()
			}
			return nil
		}, WithPolicy(konvoy.HeadOfLine), WithMaxHeld(16))
	if err != nil {
		return err
	}
	yields := 0 // a reader that yields on more processors hides the fall, in every run of ten
	if runtime.GOMAXPROCS(0) == 1 {
		yields = 64
	}
	stop := make(chan struct{})
	fell := make(chan error, 1)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		var prev Stats
		for {
			select {
			case <-stop:
				fell <- nil
				return
			default:
			}
			s := x.Stats()
			if err := fallen(prev, s); err != nil {
				fell <- err
				return
			}
			prev = s
			// On one processor a reader that never yields leaves each of
			// the handlers' yields a time slice, and one that yields once
			// a Stats: the run took minutes, then 30 s. It yields for
			// more of theirs there, alone (found by a review).
			for range yields {
				runtime.Gosched()
			}
		}
	}()
	r := rand.New(rand.NewPCG(seed, 7))
	for range 20000 {
		if err := x.Submit(context.Background(), konvoy.Event{Key: fmt.Sprint(r.IntN(5)), Step: 1, Duration: r.IntN(20)}); err != nil {
			close(stop)
			wg.Wait()
			return err
		}
	}
	cerr := x.Close(context.Background())
	close(stop)
	wg.Wait()
	if cerr != nil {
		return cerr
	}
	return <-fell
}

// fallen names a cumulative measure of s below prev's.
func fallen(prev, s Stats) error {
	for _, m := range []struct {
		name     string
		was, now int64
	}{
		{"Events", int64(prev.Events), int64(s.Events)}, {"Done", int64(prev.Done), int64(s.Done)},
		{"Errors", int64(prev.Errors), int64(s.Errors)}, {"Retries", int64(prev.Retries), int64(s.Retries)},
		{"DeadLetters", int64(prev.DeadLetters), int64(s.DeadLetters)}, {"MaxInFlight", int64(prev.MaxInFlight), int64(s.MaxInFlight)},
		{"Wait.Max", int64(prev.Wait.Max), int64(s.Wait.Max)}, {"Response.Max", int64(prev.Response.Max), int64(s.Response.Max)},
		{"Blocked", int64(prev.Blocked), int64(s.Blocked)}, {"CutShort", int64(prev.CutShort), int64(s.CutShort)},
	} {
		if m.now < m.was {
			return fmt.Errorf("%s fell from %d to %d", m.name, m.was, m.now)
		}
	}
	return nil
}
