package main

import (
	"strings"
	"testing"
)

// konvoy plan -slo plans every layout under every policy: under static
// dispatch the resequencer, which has no lanes, ended in a nil
// dereference (found by a review), on the lesson itself.
func TestPlanSLOPlansEveryLayoutUnderEveryPolicy(t *testing.T) {
	for _, format := range []string{"text", "json"} {
		out, errOut, status := runCommand("plan", "-layouts", "all", "-policy", "all", "-slo", "p99=1s", "-arrivals", "poisson", "-format", format)
		if status != 0 || errOut != "" || !strings.Contains(out, "resequencer") {
			t.Errorf("-format %s: status %d, stderr %q, stdout %q; want a plan of every layout", format, status, firstLines(errOut, 3), firstLines(out, 3))
		}
	}
}
