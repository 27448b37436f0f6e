package main

import (
	"strings"
	"testing"
)

// -session-timeout is sent to the broker as whole milliseconds in 32
// bits: a value beyond 596h31m23.647s is a usage error naming the flag, as
// one not above the heartbeat is, before any broker is dialled (here
// 127.0.0.1:1, which would refuse).
func TestReplaySessionTimeoutBeyondTheWireIsAUsageError(t *testing.T) {
	status, out, errOut := runUsage(t, "replay", "-brokers", "127.0.0.1:1", "-topic", "t", "-group", "g",
		"-duration-model", "fixed:1", "-idle", "1s", "-session-timeout", "1000h")
	if status != 2 || out != "" || !strings.Contains(errOut, "konvoy replay: -session-timeout") {
		t.Errorf("status %d, stdout %q, stderr %q; want 2 and a usage error naming -session-timeout", status, out, errOut)
	}
	// A part below a millisecond would be dropped on the wire.
	status, _, errOut = runUsage(t, "replay", "-brokers", "127.0.0.1:1", "-topic", "t", "-group", "g",
		"-duration-model", "fixed:1", "-idle", "1s", "-session-timeout", "10s500us")
	if status != 2 || !strings.Contains(errOut, "want whole milliseconds") {
		t.Errorf("-session-timeout 10s500us: status %d, stderr %q; want 2 and a usage error", status, errOut)
	}
}
