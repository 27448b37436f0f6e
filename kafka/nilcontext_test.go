package kafka

import (
	"context"
	"fmt"
	"testing"

	"github.com/sirali-konvoy/konvoy"
	"github.com/twmb/franz-go/pkg/kgo"
)

// Run, CaughtUp and Lag panic with a "kafka:" message, as the Consumer's
// doc says, when given a nil context, before they do anything: Run had
// started its commits' goroutine and taken the consumer as running before
// it ran into the nil pointer, so that neither it nor Close could end it.
// The consumer, untouched, closes as one never run does.
func TestANilContextPanicsWithTheMessage(t *testing.T) {
	addrs := cluster(t, 1)
	var nilContext context.Context // a variable: staticcheck flags a literal nil
	noop := func(context.Context, *kgo.Record) error { return nil }
	for _, tc := range []struct {
		call func(c *Consumer)
		want string
	}{
		{func(c *Consumer) { _ = c.Run(nilContext) }, "kafka: Run: ctx is nil; want a context, such as context.Background()"},
		{func(c *Consumer) { _, _ = c.CaughtUp(nilContext, testTopic) }, "kafka: CaughtUp: ctx is nil; want a context, such as context.Background()"},
		{func(c *Consumer) { _, _ = Lag(nilContext, c.cl, testGroup, testTopic) }, "kafka: Lag: ctx is nil; want a context, such as context.Background()"},
	} {
		c, err := New(memberOpts(addrs), konvoy.Convoy, 1, keyEvent, noop)
		if err != nil {
			t.Fatal(err)
		}
		func() {
			defer func() {
				if got := fmt.Sprint(recover()); got != tc.want {
					t.Errorf("panic %q; want %q", got, tc.want)
				}
			}()
			tc.call(c)
		}()
		if c.state.Load() != made {
			t.Errorf("%q: the consumer is no longer as made", tc.want)
		}
		c.Close()
	}
}
