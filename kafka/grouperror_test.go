package kafka

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/sirali-konvoy/konvoy"
	"github.com/twmb/franz-go/pkg/kgo"
)

// A group session the broker refuses ends Run with an error that says
// where: the group, whose session timeout (konvoy replay's
// -session-timeout) the broker refused, not a fetch of partition "/0",
// which franz-go's error of no partition would make of it. Here the
// member asks for a session of an hour, beyond kfake's bounds.
func TestARefusedSessionNamesTheGroup(t *testing.T) {
	addrs := cluster(t, 1)
	noop := func(context.Context, *kgo.Record) error { return nil }
	c, err := New(append(memberOpts(addrs), kgo.SessionTimeout(time.Hour)), konvoy.Convoy, 1, keyEvent, noop)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), testWait)
	defer cancel()
	err = c.Run(ctx)
	if ctx.Err() != nil {
		t.Fatal("Run did not end on the refused session")
	}
	if err == nil || !strings.Contains(err.Error(), "INVALID_SESSION_TIMEOUT") {
		t.Fatalf("Run: %v; want the broker's refusal, INVALID_SESSION_TIMEOUT", err)
	}
	if strings.Contains(err.Error(), " /0") || !strings.Contains(err.Error(), testGroup) {
		t.Errorf("Run: %q; want an error naming group %q, not a fetch of partition \"/0\"", err, testGroup)
	}
}
