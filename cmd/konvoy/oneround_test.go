package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// A count of one round is "1 round" wherever a plan writes one: a lane
// that carries 1 round of work, a floor or a best of 1 round. (The
// latency plan's reasons wrote "1 rounds", and its assumptions "the
// work, 1 rounds"; found by a review.)
func TestAPlanWritesOneRoundInTheSingular(t *testing.T) {
	trace := filepath.Join(t.TempDir(), "two.csv")
	if err := os.WriteFile(trace, []byte("key,line,step,duration,at\nA,x,1,1,0\nB,y,1,1,0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, status := runCommand("plan", "-events", trace, "-arrivals", "poisson", "-slo", "p99=1s", "-peak", "1000000")
	if status != 0 {
		t.Fatalf("plan: status %d, stderr %q", status, errOut)
	}
	flat := strings.Join(strings.Fields(out), " ") // the report wraps its lines
	if m := regexp.MustCompile(`\b1 rounds\b`).FindAllStringIndex(flat, -1); len(m) > 0 {
		t.Errorf("the plan writes %q; want \"1 round\":\n%s", flat[max(0, m[0][0]-60):m[0][1]], out)
	}
	for _, want := range []string{"A carries 1 round of work over", "p99 1 round (10ms) is the floor"} {
		if !strings.Contains(flat, want) {
			t.Errorf("the plan does not say %q:\n%s", want, out)
		}
	}
}
