package live

import (
	"context"
	"strconv"
	"sync"
	"testing"

	"github.com/sirali-konvoy/konvoy"
)

// TestStatsNeverShowMoreInFlightThanTheMost: in every Stats, read while
// consumers start and finish items, InFlight is at most MaxInFlight. A
// consumer counts its item running before it raises the most, so Stats,
// read between the two, would see one more running than the most that
// ever ran; it reports the larger of the two as the most.
func TestStatsNeverShowMoreInFlightThanTheMost(t *testing.T) {
	x, err := New(konvoy.Convoy, 4, func(k int) konvoy.Event { return konvoy.Event{Key: strconv.Itoa(k % 64)} },
		func(context.Context, int) error { return nil })
	if err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-stop:
				return
			default:
			}
			if s := x.Stats(); s.InFlight > s.MaxInFlight {
				t.Errorf("Stats: InFlight %d, MaxInFlight %d", s.InFlight, s.MaxInFlight)
				return
			}
		}
	}()
	for i := range 20_000 {
		if err := x.Submit(context.Background(), i); err != nil {
			t.Fatal(err)
		}
	}
	if err := x.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	close(stop)
	wg.Wait()
}
