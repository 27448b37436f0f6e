package main

import (
	"strings"
	"testing"
)

// TestReplaySessionTimeoutBeyondTheWireIsAUsageError: -session-timeout is
// sent to the broker as whole milliseconds in 32 bits, so franz-go takes
// at most 596h31m23.647s. konvoy replay checks the flag's lower bound (more
// than the heartbeat) as a usage error naming the flag, but not its upper
// one: -session-timeout 1000h passes the command line and fails in
// kafka.New with status 1 and "kafka: New: session timeout 1000h0m0s is
// larger than allowed", a message that names no flag. A value out of a
// flag's range is a usage error, status 2, naming the flag, as the lower
// bound's is. No broker is reached: 127.0.0.1:1 refuses, and the command
// line is refused before it is dialled.
func TestReplaySessionTimeoutBeyondTheWireIsAUsageError(t *testing.T) {
	status, out, errOut := runUsage(t, "replay", "-brokers", "127.0.0.1:1", "-topic", "t", "-group", "g",
		"-duration-model", "fixed:1", "-idle", "1s", "-session-timeout", "1000h")
	if status != 2 || out != "" || !strings.Contains(errOut, "konvoy replay: -session-timeout") {
		t.Errorf("status %d, stdout %q, stderr %q; want 2 and a usage error naming -session-timeout", status, out, errOut)
	}
}
