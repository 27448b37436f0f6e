package kafka

import (
	"errors"
	"fmt"
	"testing"

	"github.com/twmb/franz-go/pkg/kerr"
)

// A commit whose partitions Kafka refused, one for a moment and another
// for good, is refused for good: CaughtUp reports it instead of saying
// "not yet" for ever. commitError joins one error a partition, and
// commitParts joins the request's with its retry's; errors.Is finds the
// first that matches in either. (Before, UNKNOWN_TOPIC_OR_PARTITION, which
// kerr calls retriable, beside TOPIC_AUTHORIZATION_FAILED hid the second;
// found by a review.)
func TestARefusalThatLastsBesideAMomentaryOneIsNotTransient(t *testing.T) {
	part := func(p int, err error) error { return fmt.Errorf("kafka: commit events/%d: %w", p, err) }
	for _, c := range []struct {
		name string
		err  error
		want bool
	}{
		{"none", nil, false},
		{"a rebalance", part(0, kerr.RebalanceInProgress), true},
		{"a lasting refusal", part(0, kerr.TopicAuthorizationFailed), false},
		{"momentary ones joined", errors.Join(part(0, kerr.UnknownTopicOrPartition), part(1, kerr.UnknownMemberID)), true},
		{"a lasting one beside a momentary one", errors.Join(part(0, kerr.UnknownTopicOrPartition), part(1, kerr.TopicAuthorizationFailed)), false},
		{"a lasting one in a retry's join", errors.Join(errors.Join(part(0, kerr.IllegalGeneration)), errors.Join(part(1, kerr.TopicAuthorizationFailed))), false},
		{"an empty join's place", errors.Join(nil, part(1, kerr.RebalanceInProgress)), true},
	} {
		if got := transient(c.err); got != c.want {
			t.Errorf("%s: transient(%v) = %v; want %v", c.name, c.err, got, c.want)
		}
	}
}
