package kafka

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/twmb/franz-go/pkg/kerr"
)

// A commit cut short as Run's drain ends is one whose errors are all
// cancellations or refusals franz-go was still retrying: which of the two
// it reports falls to the moment of the cut, a request in flight or a
// pause before the next try, so both go uncounted
// (TestRunCutsShortTheIntervalsCommitOnceDrained failed now and then under
// load, counting a retried COORDINATOR_LOAD_IN_PROGRESS). A refusal that
// settles the commit still counts, joined with a cancellation or not:
// franz-go retries a commit only after the coordinator's three codes.
func TestOnlyCutShort(t *testing.T) {
	retried := fmt.Errorf("kafka: commit events/0: %w", kerr.CoordinatorLoadInProgress)
	settled := fmt.Errorf("kafka: commit events/1: %w", kerr.TopicAuthorizationFailed)
	for _, tc := range []struct {
		err  error
		want bool
	}{
		{context.Canceled, true},
		{retried, true},
		{errors.Join(retried, context.Canceled), true},
		{settled, false},
		{errors.Join(settled, context.Canceled), false},
		{errors.Join(retried, settled), false},
		{fmt.Errorf("kafka: commit events/0: %w", kerr.NotCoordinator), true},
		{fmt.Errorf("kafka: commit events/0: %w", kerr.CoordinatorNotAvailable), true},
		{errors.Join(fmt.Errorf("kafka: commit events/0: %w", kerr.UnknownTopicOrPartition), context.Canceled), false}, // retriable by kerr, not retried for a commit
		{errors.New("some other failure"), false},
	} {
		if got := onlyCutShort(tc.err); got != tc.want {
			t.Errorf("onlyCutShort(%v) = %v; want %v", tc.err, got, tc.want)
		}
	}
}
