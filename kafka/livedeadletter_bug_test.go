package kafka

import (
	"context"
	"testing"

	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/live"
	"github.com/twmb/franz-go/pkg/kgo"
)

// TestNewRefusesALiveDeadLetterBesideItsOwn: WithExecutor's doc says "New
// refuses a live.WithDeadLetter, whose item type is not a record", and it
// does when the live dead letter comes alone. Given beside WithDeadLetter
// or WithDeadLetterTopic, the consumer's own live.WithDeadLetter, placed
// after the caller's, replaces it, and New accepts the pair: the caller's
// dead letter is silently never called.
func TestNewRefusesALiveDeadLetterBesideItsOwn(t *testing.T) {
	handle := func(context.Context, *kgo.Record) error { return nil }
	theirs := WithExecutor(live.WithDeadLetter(func(context.Context, *kgo.Record, error) error { return nil }))
	for _, tc := range []struct {
		name string
		ours Option
	}{
		{"WithDeadLetter", WithDeadLetter(func(context.Context, *kgo.Record, error) error { return nil })},
		{"WithDeadLetterTopic", WithDeadLetterTopic("dead")},
	} {
		name, ours := tc.name, tc.ours
		c, err := New(offlineOpts(), konvoy.Convoy, 1, keyEvent, handle, theirs, ours)
		if err == nil {
			_ = c.Run(canceled()) // release the client
			t.Errorf("New with live.WithDeadLetter and %s: no error; want New to refuse the live dead letter, which is never called", name)
		}
	}
}

// canceled returns a context already done.
func canceled() context.Context {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	return ctx
}
