package kafka

import (
	"context"
	"runtime"
	"sync/atomic"
	"testing"

	"github.com/sirali-konvoy/konvoy"
	"github.com/twmb/franz-go/pkg/kgo"
)

// TestRunWithADoneContextReleases: a consumer that is not to consume is
// released by Run with a context already done, as the doc of Consumer
// says: Run returns nil, handles nothing, and leaves no goroutine of the
// client or the executor behind.
func TestRunWithADoneContextReleases(t *testing.T) {
	addrs := cluster(t, 2)
	produce(t, addrs, 20, 4, 1)
	before := runtime.NumGoroutine()
	var handled atomic.Int64
	c, err := New(memberOpts(addrs), konvoy.Convoy, 2, keyEvent, func(context.Context, *kgo.Record) error {
		handled.Add(1)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := c.Run(ctx); err != nil {
		t.Errorf("Run with a done context: %v; want nil", err)
	}
	if n := handled.Load(); n != 0 {
		t.Errorf("handled %d records; want none", n)
	}
	checkGoroutines(t, before)
}
