package main

import (
	"encoding/json"
	"testing"
)

// slowLowStepTrace is one key's step 2, taking 10 rounds from round 0, and
// its step 3, arriving at round 5 and taking 1: on two consumers step 3
// finishes at round 6, step 2 at round 10.
const slowLowStepTrace = "key,step,duration,at\nk,2,10,0\nk,3,1,5\n"

// TestReplayVersionStampSkipsTheStepTheModelSkips: the model applies events
// in order of finish (SPEC.md, "Apply": "if its step is lower than the
// key's current state ... under the version-stamp layout such an event is
// skipped"), so step 2, finishing after step 3, is skipped, and predicted
// "skipped" is 1. Issue 24 asks that "the version stamp skips exactly what
// the model's VersionStamp skips for the same stream", and konvoy replay
// sets the measured run beside the prediction under the same names. The
// executor asks its VersionStore before the handler starts (live.attempt),
// when step 3 has not arrived yet, so step 2 runs and finishes last: its
// backward write lands over step 3, which the version stamp exists to
// stop, and the measured run skips nothing. Arrivals 5 rounds of 20ms
// apart leave no doubt which asks the store first.
func TestReplayVersionStampSkipsTheStepTheModelSkips(t *testing.T) {
	args := []string{"replay", "-events", "-", "-layout", "version-stamp", "-consumers", "2", "-unit", "20ms", "-format", "json"}
	out, errOut, status := runWithInput(slowLowStepTrace, args...)
	if status != 0 {
		t.Fatalf("%q: status %d: %s", args, status, errOut)
	}
	var got struct {
		Predicted struct {
			Skipped int `json:"skipped"`
		} `json:"predicted"`
		Measured struct {
			Skipped int `json:"skipped"`
		} `json:"measured"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%q: %v\n%s", args, err, out)
	}
	if got.Predicted.Skipped != 1 {
		t.Fatalf("%q: predicted skipped %d; want 1 (step 2 finishes after step 3)", args, got.Predicted.Skipped)
	}
	if got.Measured.Skipped != got.Predicted.Skipped {
		t.Errorf("%q: measured skipped %d, predicted %d: the live version stamp let step 2 run and write after step 3; want it skipped as the model skips it", args, got.Measured.Skipped, got.Predicted.Skipped)
	}
}
