package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestAPositiveMeanWaitNeverReadsAsZero: 3,001 events on one consumer, one
// of which waits a round; its mean wait is 1/3001 > 0, which the JSON
// record wrote as "wait_mean":0 (found by a review).
func TestAPositiveMeanWaitNeverReadsAsZero(t *testing.T) {
	var b strings.Builder
	b.WriteString("key,line,step,duration,at\n")
	for i := range 3000 {
		fmt.Fprintf(&b, "K%d,L,1,1,%d\n", i, i)
	}
	b.WriteString("X,L,1,1,2999\n")
	trace := filepath.Join(t.TempDir(), "t.csv")
	if err := os.WriteFile(trace, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, status := runCommand("-events", trace, "-layouts", "free", "-consumers", "1", "-format", "json")
	if status != 0 {
		t.Fatalf("status %d: %s", status, errOut)
	}
	var recs []struct {
		WaitMax  int     `json:"wait_max"`
		WaitMean float64 `json:"wait_mean"`
	}
	if err := json.Unmarshal([]byte(out), &recs); err != nil || len(recs) != 1 {
		t.Fatalf("%v: %s", err, out)
	}
	if recs[0].WaitMax > 0 && recs[0].WaitMean == 0 {
		t.Errorf("wait_max %d but wait_mean 0: a mean of 1/3001 rounds reads as none", recs[0].WaitMax)
	}
}

// TestReplayParallelismNeverReadsAsZero: work 1 over 2501 rounds is a
// parallelism of 0.0004, which konvoy -format json writes as 0.0004, and
// replay's JSON prediction wrote as 0.
func TestReplayParallelismNeverReadsAsZero(t *testing.T) {
	trace := filepath.Join(t.TempDir(), "t.csv")
	if err := os.WriteFile(trace, []byte("key,step,duration,at\nA,1,1,0\nB,1,0,2500\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, status := runCommand("replay", "-events", trace, "-unit", "1us", "-layout", "free", "-format", "json")
	if status != 0 {
		t.Fatalf("status %d: %s", status, errOut)
	}
	var doc struct {
		Predicted struct {
			Work        int     `json:"work"`
			Parallelism float64 `json:"parallelism"`
		} `json:"predicted"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if doc.Predicted.Work > 0 && doc.Predicted.Parallelism == 0 {
		t.Errorf("predicted work %d but parallelism 0", doc.Predicted.Work)
	}
}

// TestAPositiveOrderedShareNeverReadsAsZero: one ordered step among 3,001
// events is a share of 0.00033; konvoy plan -format json wrote
// "ordered_share":0 beside "ordered":1, and the text "ordered share
// 0.000".
func TestAPositiveOrderedShareNeverReadsAsZero(t *testing.T) {
	trace := oneOrderedStepIn3001(t)
	out, errOut, status := runCommand("plan", "-events", trace, "-layouts", "free,convoy", "-format", "json")
	if status != 0 {
		t.Fatalf("status %d: %s", status, errOut)
	}
	var doc struct {
		Selective struct {
			Ordered int     `json:"ordered"`
			Share   float64 `json:"ordered_share"`
		} `json:"selective"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if doc.Selective.Ordered > 0 && doc.Selective.Share == 0 {
		t.Errorf("%d ordered steps but ordered_share 0", doc.Selective.Ordered)
	}
	text, errOut, status := runCommand("plan", "-events", trace, "-layouts", "free,convoy")
	if status != 0 || !strings.Contains(text, "1 of them ordered steps, ordered share 0.000333\n") {
		t.Errorf("status %d, stderr %q; want the text plan to say ordered share 0.000333:\n%s", status, errOut, text)
	}
}

// The same trace's share in konvoy -capacity's table read 0.000 too (found
// by a review of 976bc08, which fixed plan's alone).
func TestCapacityOrderedShareNeverReadsAsZero(t *testing.T) {
	trace := oneOrderedStepIn3001(t)
	out, errOut, status := runCommand("-events", trace, "-layouts", "free,convoy", "-capacity")
	if status != 0 || !strings.Contains(out, "\n0.000333 ") {
		t.Errorf("status %d, stderr %q; want the capacity table to read ordered share 0.000333:\n%s", status, errOut, out)
	}
}

// oneOrderedStepIn3001 writes a trace of one ordered step and 3,000
// history-only events, an ordered share of 1/3001, and returns its path.
func oneOrderedStepIn3001(t *testing.T) string {
	var b strings.Builder
	b.WriteString("key,step,duration\nA,1,1\n")
	for i := range 3000 {
		fmt.Fprintf(&b, "K%d,0,1\n", i)
	}
	trace := filepath.Join(t.TempDir(), "t.csv")
	if err := os.WriteFile(trace, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return trace
}
