package main

import (
	"strings"
	"testing"
)

// TestServeRefusesAnEmptyAddr: konvoy serve -addr "" is a usage error
// (status 2) naming -addr, before anything listens. An empty -addr most
// likely comes from an unset shell variable (konvoy serve -addr $ADDR);
// the net package reads it as every interface at a port the system picks,
// which would serve the trace to the whole network, where -addr's default
// is this machine only. The command refuses it, as it refuses -events "",
// rather than take it as the default: the user who wrote -addr meant some
// address, and is told that none came.
//
// The command runs in a process of its own (as the interrupt tests run
// theirs), killed after 10 s should it listen instead.
func TestServeRefusesAnEmptyAddr(t *testing.T) {
	status, stdout, stderr := runUsage(t, "serve", "-addr", "")
	want := "konvoy serve: -addr is empty; want HOST:PORT"
	if status != 2 || !strings.HasPrefix(stderr, want) {
		t.Errorf("-addr \"\": status %d, stdout %q, stderr %q; want 2, a usage error beginning %q", status, stdout, stderr, want)
	}
}
