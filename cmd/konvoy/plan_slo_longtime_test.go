package main

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// The latency plan writes each latency in rounds and as time at
// -round-time; a latency past what a time.Duration holds (10^12 rounds of
// 10ms, some 317 years) is written in hours, never as a time the product
// wrapped to, such as a negative one.
func TestPlanSLOWritesLongLatenciesAsTheyAre(t *testing.T) {
	if strconv.IntSize < 64 {
		t.Skip("durations of 10^12 rounds do not fit a 32-bit int")
	}
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
