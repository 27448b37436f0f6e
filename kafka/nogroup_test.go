package kafka

import (
	"context"
	"strings"
	"testing"

	"github.com/sirali-konvoy/konvoy"
	"github.com/twmb/franz-go/pkg/kgo"
)

// New with client options that name no consumer group says so: a
// Consumer is a group member. (It returned franz-go's refusal of the
// options New adds, "invalid autocommit options specified when a group
// was not specified", which names neither the group nor the option to
// add; found by a review.) Options refused for another reason keep
// franz-go's own error.
func TestNewWithoutAGroupSaysToNameOne(t *testing.T) {
	handle := func(context.Context, *kgo.Record) error { return nil }
	_, err := New([]kgo.Opt{kgo.SeedBrokers("127.0.0.1:1"), kgo.ConsumeTopics(testTopic)}, konvoy.Convoy, 2, keyEvent, handle)
	want := "kafka: New: want kgo.ConsumerGroup among the client options"
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("no group: %v; want %q", err, want)
	}
	_, err = New([]kgo.Opt{kgo.SeedBrokers("127.0.0.1:1"), kgo.ConsumerGroup(testGroup), kgo.ConsumeTopics(testTopic), kgo.ClientID(strings.Repeat("x", 300))}, konvoy.Convoy, 2, keyEvent, handle)
	if err == nil || strings.Contains(err.Error(), "ConsumerGroup") {
		t.Errorf("a group and a bad option: %v; want franz-go's refusal of the option", err)
	}
}
