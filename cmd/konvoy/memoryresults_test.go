package main

import (
	"fmt"
	"strings"
	"testing"
)

// A run whose result, naming every key it left in a wrong final state,
// does not fit beside the results of the runs before it is an error whose
// hint names fewer runs as a way out, not only this run's keys, lanes and
// backlog, which fit (found by a review: the hint blamed the run alone).
func TestTheMemoryHintNamesTheResultsBefore(t *testing.T) {
	var trace strings.Builder
	trace.WriteString("key,line,step,duration\n")
	for _, step := range []int{2, 1} {
		for i := range 5000 {
			fmt.Fprintf(&trace, "K%d,L,%d,1\n", i, step)
		}
	}
	counts := make([]string, 20)
	for i := range counts {
		counts[i] = fmt.Sprint(i + 1)
	}
	_, errOut, status := runWithInput(trace.String(), "-events", "-", "-layouts", "free", "-policy", "all", "-consumers", strings.Join(counts, ","), "-format", "csv", "-max-memory", "4MiB")
	for _, want := range []string{"its result names 5000 keys left in a wrong final state", "or beside the results of the runs before it: raise it, or ask for fewer runs (-layouts, -policy, -consumers)"} {
		if status != 1 || !strings.Contains(errOut, want) {
			t.Errorf("status %d, stderr %q; want 1 and %q", status, errOut, want)
		}
	}
}
