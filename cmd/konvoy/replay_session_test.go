package main

import (
	"strings"
	"testing"
)

// TestReplayATopicWithASessionTimeoutTheBrokerRefuses: a -session-timeout
// below the broker's group.min.session.timeout.ms (6s, Kafka's default and
// kfake's) passes franz-go's own checks, and the broker answers every
// JoinGroup with INVALID_SESSION_TIMEOUT: the replay ends with an error
// naming the session timeout, rather than join again for ever (with
// -idle it would never stop either: never joined, the group never
// commits, and its lag never reaches 0).
func TestReplayATopicWithASessionTimeoutTheBrokerRefuses(t *testing.T) {
	addr, cl := topicCluster(t)
	produceExport(t, cl, 20)
	args := topicArgs(addr, "refused", "-session-timeout", "4s") // above franz-go's 3s heartbeat, below the broker's 6s
	out, errOut, status := runTopicCommand(t, args...)
	if status != 1 || out != "" || !strings.Contains(strings.ToLower(errOut), "session") {
		t.Errorf("status %d, stdout %q, stderr %q; want 1 and an error naming the session timeout", status, out, errOut)
	}
}
