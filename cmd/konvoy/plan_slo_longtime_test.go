package main

import (
	"regexp"
	"strings"
	"testing"
)

// TestPlanSLOWritesLongLatenciesAsTheyAre: the latency plan writes each
// latency in rounds and as time at -round-time (report.Plan.duration,
// rounds × the round as a time.Duration). A latency of 10^12 rounds of
// 10ms, some 317 years, passes what a time.Duration holds, and the
// product wraps: the plan says the floor is "1000000000000 rounds
// (-2346317h47m53.709551616s)", a negative time. A latency the plan
// measured must be written as what it is, or in a form that holds it,
// never as another.
func TestPlanSLOWritesLongLatenciesAsTheyAre(t *testing.T) {
	trace := "key,line,step,duration,at\na,L,1,1000000000000,0\nb,L,1,1000000000000,1\nc,L,1,1000000000000,2\n"
	out, errOut, status := runWithInput(trace, "plan", "-events", "-", "-slo", "p99=1s", "-layouts", "convoy")
	if status != 0 {
		t.Fatalf("status %d: %s", status, errOut)
	}
	negative := regexp.MustCompile(`-[0-9]+h[0-9]+m`) // a time.Duration below 0, as String writes it
	for _, line := range strings.Split(out, "\n") {
		if negative.MatchString(line) {
			t.Errorf("a latency written as a negative time: %q", line)
		}
	}
}
