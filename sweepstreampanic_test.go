package konvoy_test

import (
	"context"
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/sirali-konvoy/konvoy"
)

// No goroutine outlives its owner: a Sweep that ends, however it ends,
// leaves none of its workers behind, a stream that panics (a decoder's
// bug, say) included, whose panic reaches a caller that may recover it,
// as net/http does for each request konvoy serve handles.
func TestSweepLeavesNoWorkerBehindWhenTheStreamPanics(t *testing.T) {
	for _, at := range []int{0, 100, 20000} {
		stream := func(yield func(konvoy.Event, error) bool) {
			for i := 0; ; i++ {
				if i == at {
					panic("the stream broke")
				}
				if !yield(konvoy.Event{Key: fmt.Sprint("k", i%500), Line: "L", Step: i % 7, Duration: i % 3}, nil) {
					return
				}
			}
		}
		var configs []konvoy.Config
		for _, l := range konvoy.AllLayouts(4) {
			for _, p := range konvoy.Policies() {
				configs = append(configs, konvoy.Config{Layout: l, Consumers: 3, Options: []konvoy.Option{konvoy.WithPolicy(p)}})
			}
		}
		before := runtime.NumGoroutine()
		func() {
			defer func() {
				if r := recover(); r != "the stream broke" {
					t.Fatalf("recovered %v; want the stream's panic", r)
				}
			}()
			konvoy.Sweep(context.Background(), stream, configs)
		}()
		if left := goroutinesAbove(before, time.Second); left > 0 {
			t.Fatalf("stream panicking at event %d: %d goroutines more than before the sweep still run after it returned", at, left)
		}
	}
}

// goroutinesAbove waits up to d for the goroutines to be no more than
// before, and returns how many more there still are.
func goroutinesAbove(before int, d time.Duration) int {
	deadline := time.Now().Add(d)
	for {
		n := runtime.NumGoroutine() - before
		if n <= 0 || time.Now().After(deadline) {
			return max(n, 0)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
