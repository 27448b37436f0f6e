package main

import (
	"fmt"
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

// TestServeRefusesAnAddrItCannotListenOn: an -addr that is not HOST:PORT,
// or whose port is no port, is a usage error (status 2) naming -addr and
// what is wrong, as every other bad flag value is, before anything
// listens. (It was the listener's error, "listen tcp: address foo:
// missing port in address", with status 1; found by a review.)
func TestServeRefusesAnAddrItCannotListenOn(t *testing.T) {
	for _, c := range []struct{ addr, why string }{
		{"foo", "missing port in address"},
		{"18763x", "missing port in address"},
		{":99999", "invalid port"},
		{":-1", "invalid port"},
		{"[::1]:8080x", "unknown port"},
		{"a:b:c", "too many colons in address"},
	} {
		status, stdout, stderr := runUsage(t, "serve", "-addr", c.addr)
		want := fmt.Sprintf("konvoy serve: -addr is %q: %s; want HOST:PORT, such as 127.0.0.1:8080", c.addr, c.why)
		if status != 2 || stdout != "" || !strings.HasPrefix(stderr, want) {
			t.Errorf("-addr %q: status %d, stdout %q, stderr %q; want 2, a usage error beginning %q", c.addr, status, stdout, stderr, want)
		}
	}
}

// TestListenAddrTakesWhatListenTakes: the -addr check passes every form
// net.Listen takes, a port by a service's name among them, and an empty
// host for every interface; a host it cannot resolve is the listener's
// to refuse, after the flags.
func TestListenAddrTakesWhatListenTakes(t *testing.T) {
	for _, addr := range []string{"127.0.0.1:8080", ":8080", "localhost:http", "[::1]:0", "127.0.0.1:", ":00080", "nosuchhost.invalid:80"} {
		var stderr strings.Builder
		c := newCommand("konvoy serve", &stderr)
		var a string
		c.StringVar(&a, "addr", "127.0.0.1:8080", "")
		c.listenAddr(&a, "addr", "HOST:PORT")
		if err := c.parse([]string{"-addr", addr}); err != nil || a != addr {
			t.Errorf("-addr %q: %v, %q (stderr %q); want it taken as it is", addr, err, a, stderr.String())
		}
	}
}
