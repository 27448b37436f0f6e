package main

import (
	"strings"
	"testing"
	"time"
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
	type result struct {
		out, errOut string
		status      int
	}
	done := make(chan result, 1)
	go func() {
		out, errOut, status := runCommand(args...)
		done <- result{out, errOut, status}
	}()
	const wait = 20 * time.Second // a join refused is answered at once; the replay idles after 300ms
	select {
	case r := <-done:
		if r.status != 1 || r.out != "" || !strings.Contains(strings.ToLower(r.errOut), "session") {
			t.Errorf("status %d, stdout %q, stderr %q; want 1 and an error naming the session timeout", r.status, r.out, r.errOut)
		}
	case <-time.After(wait):
		t.Fatalf("%q: still running after %v; want an error: the broker refuses a session timeout below its group.min.session.timeout.ms (6s)", args, wait)
	}
}
