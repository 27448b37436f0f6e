package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestReplayUsageErrors wants a usage error, status 2, naming the flag,
// for a replay without a trace, with an unknown layout, with no consumers,
// with two policies, with a -unit under a microsecond or of 0, and with a
// trace flag that needs a unit when -unit is 0.
func TestReplayUsageErrors(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"replay"}, "-events is missing"},
		{[]string{"replay", "-events", "testdata/arrivals.csv", "-layout", "nope"}, "-layout"},
		{[]string{"replay", "-events", "testdata/arrivals.csv", "-consumers", "0"}, "-consumers is 0"},
		{[]string{"replay", "-events", "testdata/arrivals.csv", "-consumers", "65537"}, "-consumers is 65537; want 1 to 65536"},
		{[]string{"replay", "-events", "testdata/arrivals.csv", "-policy", "lane-aware,static"}, "-policy names one policy"},
		// Not "or all", which a replay refuses (found by a review).
		{[]string{"replay", "-events", "testdata/arrivals.csv", "-policy", "fifo"}, `-policy: unknown policy "fifo"; want head-of-line, lane-aware or static` + "\n"},
		{[]string{"replay", "-events", "testdata/arrivals.csv", "-unit", "1ns"}, "-unit is 1ns; want the wall time of one round, at least 1µs"},
		{[]string{"replay", "-events", "testdata/arrivals.csv", "-unit", "0", "-round"}, "-unit is 0s; want the wall time of one round"},
		{[]string{"replay", "-events", "testdata/arrivals.csv", "-format", "csv"}, "-format"},
		{[]string{"replay", "-events", "testdata/arrivals.csv", "-max-held", "0"}, "-max-held is 0"},
		{[]string{"replay", "-events", "testdata/arrivals.csv", "-max-backlog", "-1"}, "-max-backlog is -1; want 0 (no limit) or more events"},
	} {
		out, errOut, status := runCommand(tt.args...)
		if status != 2 || out != "" || !strings.Contains(errOut, "konvoy replay: "+tt.want) {
			t.Errorf("%q: status %d, stdout %q, stderr %q; want 2 and %q", tt.args, status, out, errOut, tt.want)
		}
	}
}

// TestReplayBadTrace wants a trace's bad line named by file and line, and
// nothing run.
func TestReplayBadTrace(t *testing.T) {
	out, errOut, status := runWithInput("key,step,duration\na,1,1\nb,1,x\n", "replay", "-events", "-", "-unit", "100us")
	if status != 1 || out != "" || !strings.Contains(errOut, "<stdin>:3") {
		t.Errorf("status %d, stdout %q, stderr %q; want 1 and <stdin>:3", status, out, errOut)
	}
}

// TestReplayJSONAndApplied replays a small trace at 200µs a round and
// wants the JSON comparison's shape, and an -applied line for every event.
func TestReplayJSONAndApplied(t *testing.T) {
	applied := filepath.Join(t.TempDir(), "applied.jsonl")
	out, errOut, status := runCommand("replay", "-events", "testdata/arrivals.csv", "-layout", "partitioned:3", "-policy", "static",
		"-consumers", "3", "-unit", "200us", "-format", "json", "-applied", applied)
	if status != 0 {
		t.Fatalf("status %d: %s", status, errOut)
	}
	var got map[string]any
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v:\n%s", err, out)
	}
	for _, k := range []string{"predicted_seconds", "from_actual_seconds", "measured_seconds", "planned_service_seconds", "actual_service_seconds"} {
		if v, ok := got[k].(float64); !ok || v <= 0 {
			t.Errorf("%q is %v; want seconds > 0", k, got[k])
		}
	}
	events := int(got["events"].(float64))
	for _, side := range []string{"predicted", "from_actual", "measured"} {
		rec, _ := got[side].(map[string]any)
		if rec["layout"] != "partitioned:3" || rec["policy"] != "static" || rec["consumers"] != 3.0 || rec["events"] != float64(events) {
			t.Errorf("%s record %v", side, rec)
		}
		for _, k := range []string{"rounds", "work", "wait_p50", "wait_p99", "wait_max", "response_p50", "response_p99", "response_max", "throughput", "blocked_share"} {
			if _, ok := rec[k].(float64); !ok {
				t.Errorf("%s record has no number %q", side, k)
			}
		}
	}
	f, err := os.Open(applied)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	offsets := map[int]bool{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var l struct{ Offset, Partition int }
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatal(err)
		}
		if offsets[l.Offset] || l.Partition != -1 {
			t.Errorf("line %q: offset written twice, or a partition the trace does not record", sc.Text())
		}
		offsets[l.Offset] = true
	}
	if len(offsets) != events || events == 0 {
		t.Errorf("%d applied lines for %d events", len(offsets), events)
	}
}

// TestReplayText wants the text comparison to name the trace, its three
// columns and the split of the gap.
func TestReplayText(t *testing.T) {
	out, errOut, status := runCommand("replay", "-events", "testdata/arrivals.csv", "-unit", "200us", "-policy", "lane-aware")
	if status != 0 {
		t.Fatalf("status %d: %s", status, errOut)
	}
	for _, want := range []string{"replay of testdata/arrivals.csv", "layout convoy, policy lane-aware, 4 consumers, one round 200µs",
		"predicted", "from actual times", "measured", "makespan", "wait p99", "response max", "blocked share", "timing (actual service times)"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// TestReplayUnitReadsRoundsAndUnits wants -unit to be the wall time of one
// round whether the trace writes durations and arrivals as whole rounds or
// with units: at 500µs a round, a duration of 2 and one of 1ms are both two
// rounds, an arrival of 1 is one, and the predicted makespan is three
// rounds, 1.5ms, as for the same trace written in rounds alone.
func TestReplayUnitReadsRoundsAndUnits(t *testing.T) {
	for _, trace := range []string{"key,step,duration,at\na,1,2,0\nb,1,1ms,1\n", "key,step,duration,at\na,1,2,0\nb,1,2,1\n", "key,step,duration,at\na,1,1ms,0s\nb,1,1000us,500us\n"} {
		out, errOut, status := runWithInput(trace, "replay", "-events", "-", "-unit", "500us", "-format", "json")
		if status != 0 {
			t.Fatalf("%q: status %d: %s", trace, status, errOut)
		}
		var got struct {
			Unit      float64 `json:"unit_seconds"`
			Predicted float64 `json:"predicted_seconds"`
			Planned   float64 `json:"planned_service_seconds"`
			Rec       struct {
				Rounds float64 `json:"rounds"`
				Work   float64 `json:"work"`
			} `json:"predicted"`
		}
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatalf("%v:\n%s", err, out)
		}
		if got.Unit != 0.0005 || got.Predicted != 0.0015 || got.Planned != 0.002 || got.Rec.Rounds != 3 || got.Rec.Work != 4 {
			t.Errorf("%q: %+v; want a round of 0.0005s, a makespan of 0.0015s (3 rounds), 0.002s of work (4 rounds)", trace, got)
		}
	}
}

// TestReplayDefaultUnit wants a replay without -unit to last 1ms a round,
// as its help says.
func TestReplayDefaultUnit(t *testing.T) {
	out, errOut, status := runWithInput("key,step,duration\na,1,2\n", "replay", "-events", "-")
	if status != 0 || !strings.Contains(out, "one round 1ms") {
		t.Errorf("status %d, stderr %q, stdout:\n%s\nwant one round of 1ms", status, errOut, out)
	}
}

// TestReplayArrivalsBackwards wants a trace whose arrivals go backwards
// refused before anything runs, naming the line and -reorder, and the
// same trace replayed under -reorder, which sorts it.
func TestReplayArrivalsBackwards(t *testing.T) {
	trace := "key,step,duration,at\na,1,1,2ms\nb,1,1,1ms\n"
	out, errOut, status := runWithInput(trace, "replay", "-events", "-")
	if status != 1 || out != "" || !strings.Contains(errOut, "<stdin>:3: ") || !strings.Contains(errOut, "arrival order (-reorder WINDOW") ||
		strings.Contains(errOut, "running") {
		t.Errorf("status %d, stdout %q, stderr %q; want 1, line 3 named, -reorder named, nothing run", status, out, errOut)
	}
	out, errOut, status = runWithInput(trace, "replay", "-events", "-", "-reorder", "5ms", "-format", "json")
	if status != 0 || !strings.Contains(out, `"events": 2`) || !strings.Contains(out, `"stopped_early": false`) {
		t.Errorf("under -reorder: status %d, stderr %q, stdout:\n%s", status, errOut, out)
	}
}

// TestReplayProgressLine wants the progress line to say the events
// submitted and finished of the trace's and the time elapsed, over the
// line it is on.
func TestReplayProgressLine(t *testing.T) {
	if got, want := replayProgressLine(3, 1, 10, 1234*time.Millisecond), "\rreplay: 3 of 10 events submitted, 1 finished, 1.2s elapsed\x1b[K"; got != want {
		t.Errorf("%q; want %q", got, want)
	}
}

// TestReplayProgressOnTerminal replays a trace of one event lasting a
// second with stderr taken for a terminal and a tick sent while it runs:
// stderr holds a progress line, then the line cleared; stdout is what it
// is without a terminal (the same first line). Without a terminal, stderr
// holds no progress line.
func TestReplayProgressOnTerminal(t *testing.T) {
	oldTerm, oldTicker := isTerminal, replayTicker
	defer func() { isTerminal, replayTicker = oldTerm, oldTicker }()
	isTerminal = func(io.Writer) bool { return true }
	ticks := make(chan time.Time)
	replayTicker = func() (<-chan time.Time, func()) { return ticks, func() {} }
	var out, errOut bytes.Buffer
	ended := make(chan int)
	go func() {
		ended <- run([]string{"replay", "-events", "-"}, strings.NewReader("key,step,duration\na,1,1000\n"), &out, &errOut)
	}()
	select {
	case ticks <- time.Now():
	case status := <-ended:
		t.Fatalf("the replay ended, status %d, before the tick; stderr %q", status, errOut.String())
	}
	if status := <-ended; status != 0 {
		t.Fatalf("status %d: %s", status, errOut.String())
	}
	if !regexp.MustCompile(`\rreplay: [01] of 1 events submitted, [01] finished, [0-9.]+m?s elapsed\x1b\[K\r\x1b\[K$`).MatchString(errOut.String()) {
		t.Errorf("stderr %q; want a progress line, then the line cleared", errOut.String())
	}
	first := strings.SplitN(out.String(), "\n", 2)[0]
	if first != "replay of <stdin>: 1 event, layout convoy, policy head-of-line, 4 consumers, one round 1ms" {
		t.Errorf("stdout begins %q", first)
	}
	isTerminal = oldTerm
	_, errText, status := runWithInput("key,step,duration\na,1,1\n", "replay", "-events", "-")
	if status != 0 || strings.Contains(errText, "\r") || strings.Contains(errText, "\x1b") {
		t.Errorf("status %d, stderr %q; want no progress line off a terminal", status, errText)
	}
}

// A trace without partitions under -layout recorded:N or recorded is
// refused where konvoy -events and konvoy plan refuse it, before anything
// runs: at line 1, a CSV trace's header, which has no partition column.
// (The replay once named the header only once it had read the whole
// trace; later it and konvoy named the first event, line 2, under
// recorded:N, and the header under recorded; found by two reviews.)
func TestReplayRefusesRecordedWithoutPartitionsWhereKonvoyDoes(t *testing.T) {
	for _, layout := range []string{"recorded:4", "recorded"} {
		_, want, _ := runCommand("-events", "testdata/arrivals.csv", "-layouts", layout)
		_, planned, _ := runCommand("plan", "-events", "testdata/arrivals.csv", "-layouts", layout)
		_, got, status := runCommand("replay", "-events", "testdata/arrivals.csv", "-layout", layout, "-unit", "100us")
		if status != 1 || got != want || !strings.HasPrefix(got, "testdata/arrivals.csv:1: ") {
			t.Errorf("replay -layout %s: status %d, stderr %q; want 1 and %q, as konvoy says it, at line 1", layout, status, got, want)
		}
		if planned != want {
			t.Errorf("plan -layouts %s: stderr %q; want %q, as konvoy says it", layout, planned, want)
		}
	}
}
