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

// The JSON's records carry the resequencer's counts that the model and the
// executor both keep, as konvoy -format json names them, and the text a
// row for each a side has. From zero, a/2 and b/3 wait for steps that never
// come, until -reseq-timeout releases them: 2 released by the timeout,
// 3 steps skipped, both held at once (b comes half-way through a's hold,
// in rounds of 50ms), each key holding one. (The records held a subset of
// the report's fields, without these, found by an audit of issue 24.)
func TestReplayRecordsCarryTheResequencersCounts(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.csv")
	if err := os.WriteFile(path, []byte("key,step,duration,at\na,2,1,0\nb,3,1,1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"replay", "-events", path, "-layout", "resequencer", "-start", "zero", "-reseq-timeout", "2", "-unit", "50ms"}
	out, errOut, status := runCommand(append(args, "-format", "json")...)
	type counts struct {
		MaxBuffered    int      `json:"max_buffered"`
		MaxKeyBuffered int      `json:"max_key_buffered"`
		GapsSkipped    int      `json:"gaps_skipped"`
		Forced         int      `json:"forced"`
		RejectedOld    int      `json:"rejected_old"`
		WaitP95        *float64 `json:"wait_p95"`
		ResponseP95    *float64 `json:"response_p95"`
	}
	var got struct {
		Predicted, Measured counts
		FromActual          counts `json:"from_actual"`
	}
	if err := json.Unmarshal([]byte(out), &got); status != 0 || err != nil {
		t.Fatalf("status %d, stderr %q, %v", status, errOut, err)
	}
	for name, c := range map[string]counts{"predicted": got.Predicted, "from actual times": got.FromActual, "measured": got.Measured} {
		if c.MaxBuffered != 2 || c.MaxKeyBuffered != 1 || c.GapsSkipped != 3 || c.Forced != 2 || c.RejectedOld != 0 || c.WaitP95 == nil || c.ResponseP95 == nil {
			t.Errorf("%s: %+v; want 2 held at once, 1 for a key, 3 gaps skipped, 2 released by the timeout, none rejected, and p95s", name, c)
		}
	}
	out, errOut, status = runCommand(args...)
	for _, row := range []string{"most held at once 2 2 2", "released by timeout or capacity 2 2 2", "gaps skipped 3 3 3"} {
		if status != 0 || !strings.Contains(strings.Join(strings.Fields(out), " "), row) {
			t.Errorf("text: status %d, stderr %q; want a row %q in\n%s", status, errOut, row, out)
		}
	}
}
