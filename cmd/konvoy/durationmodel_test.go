package main

import (
	"strings"
	"testing"
)

// TestADurationModelOfAMillionRoundsRuns: -duration-model fixed:N and
// uniform:LO,HI take whole rounds up to synth.MaxDuration (1073741824),
// a million among them: eventlog checks the distribution by parsing
// synth.Dist.String, which writes whole numbers whole (1000000, not
// 1e+06, which ParseDist refuses for fixed and uniform).
func TestADurationModelOfAMillionRoundsRuns(t *testing.T) {
	for _, model := range []string{"fixed:1000000", "uniform:1,2000000"} {
		out, stderr, status := runCommand("-events", "testdata/shipments.csv", "-steps", "accepted,transfer,out-for-delivery,delivered",
			"-history", "scanned,weighed", "-layouts", "free", "-duration-model", model)
		if status != 0 || !strings.Contains(out, "durations modelled") {
			t.Errorf("-duration-model %s: status %d; want 0 and the report:\n%s", model, status, stderr)
		}
	}
}

// TestADurationDrawnPastMaxDurationIsRefused: a duration that a
// -duration-model draws past synth.MaxDuration is an error at its event's
// line, in the command's words, from konvoy, konvoy plan and konvoy
// replay alike, not a duration cut short; konvoy gen's -duration the
// same, at the event it would write.
func TestADurationDrawnPastMaxDurationIsRefused(t *testing.T) {
	want := "testdata/shipments.csv:2: want a duration of at most 1073741824 rounds; the one drawn for this event from lognormal:709,0 (-duration-model) passes it"
	trace := []string{"-events", "testdata/shipments.csv", "-steps", "accepted,transfer,out-for-delivery,delivered",
		"-history", "scanned,weighed", "-duration-model", "lognormal:709,0"}
	for _, args := range [][]string{
		append([]string{"-layouts", "free"}, trace...),
		append([]string{"plan", "-peak", "10"}, trace...),
		append([]string{"replay", "-unit", "1us"}, trace...),
	} {
		_, stderr, status := runCommand(args...)
		if status != 1 || !strings.Contains(stderr, want) {
			t.Errorf("konvoy %s: status %d, stderr %q; want 1 and %q", strings.Join(args, " "), status, stderr, want)
		}
	}
	// gen refuses it before it writes an event (see TestGenUsageErrors).
	out, stderr, status := runCommand("gen", "-events", "5", "-duration", "lognormal:20.75,0.05")
	want = "konvoy gen: -duration is lognormal:20.75,0.05: event 4 of -seed 1 draws more than 1073741824 rounds (MaxDuration)"
	if status != 2 || !strings.Contains(stderr, want) || out != "" {
		t.Errorf("gen: status %d, stderr %q, output\n%s\nwant 2, %q and no output", status, stderr, out, want)
	}
}
