package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// -seed seeds -duration-model's draws; fixed:N draws none, so a seed
// beside it would change nothing, and is a usage error, for each command
// that reads a trace. It went unused without a word (found by a review).
// Beside plan's -arrivals poisson, which it seeds too, it is taken.
func TestASeedBesideAFixedDurationIsRefused(t *testing.T) {
	trace := filepath.Join(t.TempDir(), "t.csv")
	if err := os.WriteFile(trace, []byte("key,line,step\nA,x,1\nA,x,2\nB,y,1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, cmd := range [][]string{{"-layouts", "free"}, {"plan"}, {"replay", "-unit", "10us"}} {
		args := append(cmd[:len(cmd):len(cmd)], "-events", trace, "-duration-model", "fixed:3", "-seed", "5")
		if _, errOut, status := runCommand(args...); status != 2 || !strings.Contains(errOut, "-seed draws -duration-model's durations, and fixed:3 draws the same every time") {
			t.Errorf("%q: status %d, stderr %q; want a usage error naming -seed", args, status, errOut)
		}
		args = append(cmd[:len(cmd):len(cmd)], "-events", trace, "-duration-model", "uniform:1,3", "-seed", "5")
		if _, errOut, status := runCommand(args...); status != 0 {
			t.Errorf("%q: status %d, stderr %q; want 0", args, status, errOut)
		}
	}
	// Every distribution that draws the same every time is refused beside
	// -seed, not fixed:N alone.
	for _, model := range []string{"uniform:3,3", "exp:0", "lognormal:1,0"} {
		args := []string{"-events", trace, "-layouts", "free", "-duration-model", model, "-seed", "5"}
		if _, errOut, status := runCommand(args...); status != 2 || !strings.Contains(errOut, "draws the same every time") {
			t.Errorf("%q: status %d, stderr %q; want a usage error naming -seed", args, status, errOut)
		}
	}
	args := []string{"plan", "-events", trace, "-duration-model", "fixed:3", "-seed", "5", "-slo", "p99=1s", "-arrivals", "poisson", "-peak", "2"}
	if _, errOut, status := runCommand(args...); status != 0 {
		t.Errorf("%q: status %d, stderr %q; want 0", args, status, errOut)
	}
}
