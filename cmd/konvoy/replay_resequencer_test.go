package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// konvoy replay takes the resequencer's flags as konvoy -events does, with
// the same defaults, so that both predict a trace alike: -start is
// first-seen unless told zero, for the executor and both predictions.
// Here key a's steps come 2 then 1, and key b's 3 then 4: from first-seen
// nothing waits for a gap; from zero every event does (a/2 for a/1, b's
// for steps 1 and 2, which never come). The flags need -layout resequencer.
func TestReplayTakesTheResequencersFlags(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.csv")
	if err := os.WriteFile(path, []byte("key,step,duration,at\na,2,1,0\na,1,1,0\nb,3,1,1\nb,4,1,1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		start    []string
		buffered int
	}{{nil, 0}, {[]string{"-start", "zero"}, 3}} {
		args := append([]string{"replay", "-events", path, "-layout", "resequencer", "-unit", "1ms", "-format", "json"}, tc.start...)
		out, errOut, status := runCommand(args...)
		var got struct {
			Predicted, Measured struct {
				Buffered int `json:"buffered"`
			}
		}
		if status != 0 || json.Unmarshal([]byte(out), &got) != nil {
			t.Fatalf("%v: status %d, stderr %q", tc.start, status, errOut)
		}
		if got.Predicted.Buffered != tc.buffered || got.Measured.Buffered != tc.buffered {
			t.Errorf("%v: %d buffered predicted, %d measured; want %d", tc.start, got.Predicted.Buffered, got.Measured.Buffered, tc.buffered)
		}
	}
	status, _, errOut := runUsage(t, "replay", "-events", path, "-start", "zero")
	if status != 2 || !strings.Contains(errOut, "-start needs the resequencer in -layout") {
		t.Errorf("-start without the resequencer: status %d, stderr %q; want a usage error", status, errOut)
	}
	// The executor's timeout is wall time: rounds × -unit must fit.
	status, _, errOut = runUsage(t, "replay", "-events", path, "-layout", "resequencer", "-unit", "1h", "-reseq-timeout", "3000000")
	if status != 2 || !strings.Contains(errOut, "konvoy replay: -reseq-timeout is 3000000 rounds of -unit 1h0m0s") {
		t.Errorf("-reseq-timeout past the longest wall time: status %d, stderr %q; want a usage error", status, errOut)
	}
}
