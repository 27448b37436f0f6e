package kafka

import (
	"cmp"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/sirali-konvoy/konvoy"
	"github.com/twmb/franz-go/pkg/kgo"
)

// TestTheRevokeTimeoutIsBelowTheRebalanceTimeout: a revocation waits for
// its handlers, then commits, within the group's rebalance timeout, or
// the group throws the member out and the partitions' new owners run the
// keys its handlers still run, which WithRevokeTimeout's doc promises
// only of a handler that outlasts the revoke timeout. So New refuses a
// revoke timeout not below the client's rebalance timeout, and the
// default one is at most half of it: 30 s under franz-go's 60 s, 500 ms
// under 1 s (a review ran two members' handlers of 3 s at once under the
// default's 30 s and kgo.RebalanceTimeout(time.Second)).
func TestTheRevokeTimeoutIsBelowTheRebalanceTimeout(t *testing.T) {
	handle := func(context.Context, *kgo.Record) error { return nil }
	group := []kgo.Opt{kgo.SeedBrokers("127.0.0.1:1"), kgo.ConsumerGroup(testGroup), kgo.ConsumeTopics(testTopic)}
	for _, tc := range []struct {
		rebalance, revoke time.Duration // 0: not given
		want              time.Duration // the revoke timeout; 0: refused
	}{
		{0, 0, DefaultRevokeTimeout},
		{time.Second, 0, 500 * time.Millisecond},
		{50 * time.Second, 0, 25 * time.Second},
		{61 * time.Second, 0, DefaultRevokeTimeout},
		{time.Hour, 0, DefaultRevokeTimeout},
		{0, 59 * time.Second, 59 * time.Second},
		{0, 60 * time.Second, 0},
		{time.Second, 999 * time.Millisecond, 999 * time.Millisecond},
		{time.Second, time.Second, 0},
		{time.Second, 2 * time.Second, 0},
	} {
		opts := group
		if tc.rebalance > 0 {
			opts = append(opts[:len(opts):len(opts)], kgo.RebalanceTimeout(tc.rebalance))
		}
		var options []Option
		if tc.revoke > 0 {
			options = append(options, WithRevokeTimeout(tc.revoke))
		}
		c, err := New(opts, konvoy.Convoy, 1, keyEvent, handle, options...)
		switch {
		case tc.want == 0:
			rebalance := cmp.Or(tc.rebalance, time.Minute) // franz-go's default
			want := "kafka: New: WithRevokeTimeout(" + tc.revoke.String() + "): want a duration below the client's rebalance timeout, " + rebalance.String()
			if err == nil || !strings.HasPrefix(err.Error(), want) {
				t.Errorf("rebalance %v, revoke %v: New returned %v; want an error beginning %q", tc.rebalance, tc.revoke, err, want)
			}
		case err != nil:
			t.Errorf("rebalance %v, revoke %v: New: %v", tc.rebalance, tc.revoke, err)
		default:
			if got := c.cfg.revokeTimeout(c.cl); got != tc.want {
				t.Errorf("rebalance %v, revoke %v: the revoke timeout is %v; want %v", tc.rebalance, tc.revoke, got, tc.want)
			}
			c.cl.Close()
			_ = c.x.Close(context.Background())
		}
	}
}
