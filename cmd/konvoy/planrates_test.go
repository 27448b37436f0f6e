package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestPlanJSONAtAHugePeak: konvoy plan's JSON report answers whatever the
// text report answers: -peak takes any positive float64, and the JSON
// report's rounding to three decimals leaves a rate too large to have any
// as it is, rather than overflow to +Inf, which JSON cannot hold.
func TestPlanJSONAtAHugePeak(t *testing.T) {
	for _, peak := range []string{"1e306", "1.7976931348623157e308"} {
		_, textErr, textStatus := runCommand("plan", "-peak", peak)
		out, jsonErr, jsonStatus := runCommand("plan", "-peak", peak, "-format", "json")
		switch {
		case jsonStatus == 0 && !json.Valid([]byte(out)):
			t.Errorf("-peak %s: status 0 but the JSON is not valid:\n%.300s", peak, out)
		case jsonStatus != 0 && textStatus == 0:
			t.Errorf("-peak %s: the text report succeeds, but -format json exits %d: %s", peak, jsonStatus, jsonErr)
		case jsonStatus != textStatus:
			t.Errorf("-peak %s: text exits %d (%s), json %d (%s)", peak, textStatus, textErr, jsonStatus, jsonErr)
		}
	}
}

// TestPlanTextDoesNotRoundARateToZero: konvoy plan's text report never
// prints a positive rate as 0.00 (at -peak 0.001 with an hour a round, "its
// ceiling, 0.00 events/s, is below the peak" would read as false): below
// 0.01 events/s it writes two significant digits.
func TestPlanTextDoesNotRoundARateToZero(t *testing.T) {
	out, errOut, status := runCommand("plan", "-peak", "0.001", "-round-time", "1h")
	if status != 0 {
		t.Fatalf("status %d: %s", status, errOut)
	}
	for _, bad := range []string{"peak 0.00 events/s", "ceiling, 0.00 events/s"} {
		if strings.Contains(out, bad) {
			t.Errorf("the report prints a positive rate as zero, %q:\n%s", bad, out)
		}
	}
}
