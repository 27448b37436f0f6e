package kafka

import (
	"context"
	"testing"

	"github.com/sirali-konvoy/konvoy"
	"github.com/twmb/franz-go/pkg/kgo"
)

// A partition one record short of committed is not caught up: with its
// only record still running, the lag is exactly 1 and CaughtUp says false.
func TestCaughtUpIsFalseAtALagOfOne(t *testing.T) {
	addrs := cluster(t, 1)
	produce(t, addrs, 1, 1, 1)
	started, gate := make(chan struct{}), make(chan struct{})
	c, err := New(memberOpts(addrs), konvoy.Convoy, 1, keyEvent, func(context.Context, *kgo.Record) error {
		close(started)
		<-gate
		return nil
	}, WithCommitInterval(testWait))
	if err != nil {
		t.Fatal(err)
	}
	stop := start(c)
	ctx, cancel := context.WithTimeout(context.Background(), testWait)
	defer cancel()
	<-started
	if up, err := c.CaughtUp(ctx, testTopic); up || err != nil {
		t.Errorf("caught up with the only record running (lag 1): %v, %v; want false", up, err)
	}
	close(gate)
	if up, err := awaitCaughtUp(ctx, c); !up || err != nil {
		t.Errorf("caught up once it finished: %v, %v; want true", up, err)
	}
	if err := stop(); err != nil {
		t.Fatal(err)
	}
}
