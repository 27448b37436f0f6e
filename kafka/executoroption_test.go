package kafka

import (
	"context"
	"strings"
	"testing"

	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/live"
	"github.com/twmb/franz-go/pkg/kgo"
)

// New's error names a nil option given to WithExecutor by its index among
// WithExecutor's options, as it names a nil among its own ("option 0 is
// nil"), not by its place among the options New passes to live.New after
// its own (the guard, and a dead letter when one is set).
func TestANilExecutorOptionIsNamedWhereItIs(t *testing.T) {
	noop := func(context.Context, *kgo.Record) error { return nil }
	retry := live.WithRetry(live.Retry{Attempts: 2})
	for _, tc := range []struct {
		name string
		opts []Option
		want string
	}{
		{"alone", []Option{WithExecutor(nil)}, "option 0"},
		{"after a retry", []Option{WithExecutor(retry, nil)}, "option 1"},
		{"with a dead-letter topic", []Option{WithDeadLetterTopic("dead"), WithExecutor(nil)}, "option 0"},
	} {
		c, err := New(offlineOpts(), konvoy.Convoy, 1, keyEvent, noop, tc.opts...)
		if err == nil {
			c.Close()
			t.Errorf("%s: New took a nil executor option", tc.name)
			continue
		}
		if !strings.Contains(err.Error(), "WithExecutor") || !strings.Contains(err.Error(), tc.want+" ") {
			t.Errorf("%s: New: %v; want an error naming WithExecutor's %s", tc.name, err, tc.want)
		}
	}
}
