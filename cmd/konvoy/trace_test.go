package main

import (
	"bytes"
	"compress/gzip"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sirali-konvoy/konvoy/internal/runs"
)

// statuses are the sample traces' status flags.
var statuses = []string{"-steps", "accepted,transfer,out-for-delivery,delivered", "-history", "scanned,weighed"}

func withStatuses(args ...string) []string {
	return append(append([]string{}, statuses...), args...)
}

func TestTraceReports(t *testing.T) {
	for _, tt := range []struct {
		golden string
		args   []string
	}{
		{"shipments.golden", withStatuses("-events", "testdata/shipments.csv", "-capacity")},
		{"shipments-json.golden", withStatuses("-events", "testdata/shipments.csv", "-format", "json")},
		{"shipments-csv.golden", withStatuses("-events", "testdata/shipments.csv", "-format", "csv")},
		{"shipments-two-layouts.golden", withStatuses("-events", "testdata/shipments.jsonl", "-layouts", "convoy,free", "-consumers", "8,2")},
		// testdata/arrivals.csv is konvoy gen -events 60 -keys 10 -lines 3
		// -rate 1.8 -out-of-order 0.1 -in-flight 5 -seed 7.
		// Static dispatch deals partitions to consumers by Kafka's range
		// assignor by default (issue 14); assignor-*.golden set the three
		// assignors side by side.
		{"arrivals.golden", []string{"-events", "testdata/arrivals.csv", "-layouts", "all", "-policy", "all"}},
		{"arrivals-json.golden", []string{"-events", "testdata/arrivals.csv", "-layouts", "all", "-policy", "all", "-consumers", "4", "-format", "json"}},
		{"arrivals-csv.golden", []string{"-events", "testdata/arrivals.csv", "-layouts", "convoy,partitioned", "-partitions", "3", "-policy", "static,lane-aware", "-consumers", "4,2", "-format", "csv"}},
		// The README's worked example: a kcat export as it is.
		{"export.golden", []string{"-events", "../../testdata/export.jsonl", "-key", "key", "-status", "payload.status", "-steps", "new,paid,shipped,delivered", "-at", "ts", "-at-format", "unix-ms", "-unit", "1ms", "-reorder", "1s", "-duration-model", "lognormal:5,0.5", "-layouts", "recorded,convoy,partitioned:12", "-policy", "static"}},
		{"export-late-drop.golden", []string{"-events", "../../testdata/export.jsonl", "-key", "key", "-status", "payload.status", "-steps", "new,paid,shipped,delivered", "-at", "ts", "-at-format", "unix-ms", "-unit", "1ms", "-reorder", "200ms", "-late", "drop", "-duration-model", "exp:100", "-seed", "7", "-layouts", "recorded,convoy", "-policy", "static", "-assignor", "round-robin", "-consumers", "4"}},
		{"export-all.golden", []string{"-events", "../../testdata/export.jsonl", "-key", "key", "-status", "payload.status", "-steps", "new,paid,shipped,delivered", "-at", "ts", "-at-format", "unix-ms", "-unit", "1ms", "-reorder", "1s", "-duration-model", "fixed:100", "-layouts", "all", "-line", "payload.order", "-consumers", "4", "-partition", "partition"}},
		{"export-rounded.golden", []string{"-events", "../../testdata/export.jsonl", "-key", "key", "-status", "payload.status", "-steps", "new,paid,shipped,delivered", "-at", "ts", "-at-format", "unix-ms", "-unit", "7ms", "-round", "-reorder", "1s", "-duration-model", "uniform:10,30", "-layouts", "recorded:8,convoy", "-policy", "static", "-consumers", "3"}},
		{"assignor-range.golden", []string{"-events", "testdata/arrivals.csv", "-layouts", "convoy,partitioned", "-partitions", "3", "-policy", "static", "-consumers", "2"}},
		{"assignor-first-seen.golden", []string{"-events", "testdata/arrivals.csv", "-layouts", "convoy,partitioned", "-partitions", "3", "-policy", "static", "-consumers", "2", "-assignor", "first-seen"}},
		{"assignor-round-robin.golden", []string{"-events", "testdata/arrivals.csv", "-layouts", "convoy,partitioned", "-partitions", "3", "-policy", "static", "-consumers", "2", "-assignor", "round-robin"}},
		{"arrivals-gantt.golden", []string{"-events", "testdata/arrivals.csv", "-layouts", "free,convoy", "-consumers", "3", "-gantt"}},
		// The resequencer's knobs (issue 17): where keys start, and a
		// timeout, a capacity and old steps rejected, whose words say how
		// many gaps filled and how many were given up on.
		{"reseq-first-seen.golden", []string{"-events", "testdata/arrivals.csv", "-layouts", "resequencer", "-consumers", "4,8", "-start", "first-seen"}},
		{"reseq-timeout-capacity.golden", []string{"-events", "testdata/arrivals.csv", "-layouts", "resequencer", "-consumers", "8", "-reseq-timeout", "1", "-reseq-capacity", "1", "-reject-old"}},
	} {
		t.Run(tt.golden, func(t *testing.T) {
			out, errOut, status := runCommand(tt.args...)
			if status != 0 || errOut != "" {
				t.Fatalf("status %d, stderr %q; want 0 and nothing", status, errOut)
			}
			golden(t, tt.golden, out)
		})
	}
}

// TestFormsOfOneTrace reads the same trace as CSV, JSON Lines, gzip and
// standard input, and wants the same report from each.
func TestFormsOfOneTrace(t *testing.T) {
	want, _, status := runCommand(withStatuses("-events", "testdata/shipments.csv")...)
	if status != 0 {
		t.Fatal("the CSV trace failed")
	}
	csvData, err := os.ReadFile("testdata/shipments.csv")
	if err != nil {
		t.Fatal(err)
	}
	gz := filepath.Join(t.TempDir(), "shipments.csv.gz")
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(csvData)
	zw.Close()
	if err := os.WriteFile(gz, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name, stdin string
		args        []string
	}{
		{"testdata/shipments.jsonl", "", withStatuses("-events", "testdata/shipments.jsonl")},
		{gz, "", withStatuses("-events", gz)},
		{"<stdin>", string(csvData), withStatuses("-events", "-")},
		{"<stdin>", buf.String(), withStatuses("-events", "-", "-input", "csv")},
	} {
		out, errOut, status := runWithInput(tt.stdin, tt.args...)
		if status != 0 || errOut != "" {
			t.Fatalf("%s: status %d, stderr %q", tt.name, status, errOut)
		}
		if w := strings.Replace(want, "testdata/shipments.csv", tt.name, 1); out != w {
			t.Errorf("%s: report differs from the CSV trace's:\n%s\nwant\n%s", tt.name, out, w)
		}
	}
}

// TestBadTrace checks each class of bad input: the message on standard
// error, exit status 1 and nothing on standard output.
func TestBadTrace(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct {
		name, file, content string
		args                []string
		want                string
	}{
		{"malformed csv row", "bad.csv", "key,line,status,duration\nA,H1,accepted,1\nB,H1,\"accepted\"x,1\n", nil,
			`bad.csv:3: want a well-formed CSV row: extraneous or missing " in quoted-field (line 3, column 15)`},
		{"csv row with too few fields", "bad.csv", "key,line,status,duration\nA,H1,accepted,1\nB,accepted\n", nil,
			`bad.csv:3: want 4 fields, as in the header; the row has 2`},
		{"missing required column", "bad.csv", "key,status,took\nA,accepted,1\n", nil,
			`bad.csv:1: want a column "duration" (the duration of each event) in the header; it has "key", "status", "took"`},
		{"bad duration", "bad.csv", "key,line,status,duration\nA,H1,accepted,1\nA,H1,transfer,2.5\n", nil,
			`bad.csv:3: field "duration": value "2.5": want a whole number of rounds ≥ 0`},
		{"negative duration", "bad.jsonl", `{"key":"A","line":"H1","status":"accepted","duration":-3}`, nil,
			`bad.jsonl:1: field "duration": value "-3": want a whole number of rounds ≥ 0`},
		{"empty key", "bad.csv", "key,line,status,duration\n\"a\nb\",H1,accepted,1\n,H1,accepted,1\n", nil,
			`bad.csv:4: field "key": value "": want a non-empty key`},
		{"unknown status", "bad.csv", "key,line,status,duration\nA,H1,accepted,1\nA,H1,lost,1\n", nil,
			`bad.csv:3: field "status": value "lost": want an ordered status (-steps: accepted,transfer,out-for-delivery,delivered) or a history status (-history: scanned,weighed)`},
		{"invalid json line", "bad.jsonl", `{"key":"A","line":"H1","status":"accepted","duration":1}` + "\n" + `{"key":"A","status":"transfer","duration":1` + "\n", nil,
			`bad.jsonl:2: want a JSON object on each line: unexpected end of JSON input (column 43)`},
		{"renamed column", "bad.csv", "tracking_no,route,status,duration\nA,H1,accepted,1\nB,H1,accepted,x\n", []string{"-key", "tracking_no", "-line", "route"},
			`bad.csv:3: field "duration": value "x": want a whole number of rounds ≥ 0`},
		{"inexact duration", "bad.csv", "key,line,status,duration\nA,H1,accepted,150ms\n", []string{"-unit", "100ms"},
			`bad.csv:2: field "duration": value "150ms": want a whole multiple of one round, 100ms; it does not divide exactly, and rounding is off (-round rounds to the nearest)`},
		{"no line for line-convoy", "bad.csv", "key,route,status,duration\nA,H1,accepted,1\nB,,accepted,1\n", []string{"-line", "route"},
			`bad.csv:3: field "route": value "": want a line for layout line-convoy; leave line-convoy out of -layouts for a trace without lines`},
		{"no line column", "bad.csv", "key,route,status,duration\nA,H1,accepted,1\n", nil,
			`bad.csv:2: field "line": value "": want a line for layout line-convoy; -line COLUMN reads the lines from another column, or leave line-convoy out of -layouts for a trace without lines`},
		{"arrivals going back", "bad.csv", "key,line,status,duration,at\nA,H1,accepted,1,5\nB,H1,accepted,1,4\n", nil,
			`bad.csv:3: event 1 (key "B"): Arrival is 4; want 5 or later: the previous event arrived then, and events come in arrival order`},
		{"bad gzip", "bad.csv.gz", "\x1f\x8b not really", nil, `bad.csv.gz: the gzip header: the gzip stream is damaged: gzip: invalid header`},
		{"no events", "empty.csv", "key,line,status,duration\n", nil, `empty.csv: the trace holds no events; want at least one`},
		{"nothing at all", "empty.jsonl", "", nil, `empty.jsonl: the trace holds no events; want at least one`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(dir, tt.file)
			if err := os.WriteFile(path, []byte(tt.content), 0o644); err != nil {
				t.Fatal(err)
			}
			for _, format := range []string{"text", "json", "csv"} {
				out, errOut, status := runCommand(withStatuses(append([]string{"-events", path, "-format", format}, tt.args...)...)...)
				want := filepath.Join(dir, tt.want) + "\n"
				if status != 1 || out != "" || errOut != want {
					t.Fatalf("-format %s: status %d, stdout %q, stderr\n%q\nwant 1, nothing, and\n%q", format, status, out, errOut, want)
				}
			}
		})
	}
	_, errOut, status := runCommand("-events", filepath.Join(dir, "none.csv"))
	if status != 1 || !strings.Contains(errOut, "no such file") {
		t.Errorf("missing file: status %d, stderr %q; want 1 and no such file", status, errOut)
	}
}

func TestTraceUsageErrors(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"-consumers", "1,2"}, "konvoy: -consumers takes one count without -events"},
		{[]string{"-format", "json", "-capacity"}, "konvoy: -capacity needs -events"},
		{[]string{"-steps", "a"}, "konvoy: -steps needs -events"},
		{[]string{"-events", "x.csv", "-consumers", "2,0"}, "konvoy: -consumers is 0; want 1 to 2147483647"},
		{[]string{"-events", "x.csv", "-consumers", "2,,3"}, `invalid value "2,,3" for flag -consumers: want whole numbers separated by commas`},
		// A count in a list, -max-backlog and -max-memory are read as every
		// other count is: 010 is no number the user meant.
		{[]string{"-consumers", "010"}, `invalid value "010" for flag -consumers: want a whole number in decimal digits, without a leading zero`},
		{[]string{"-events", "x.csv", "-consumers", "2, 010"}, `invalid value "2, 010" for flag -consumers: "010": want a whole number in decimal digits, without a leading zero`},
		{[]string{"-events", "x.csv", "-consumers", "2,0x10"}, `invalid value "2,0x10" for flag -consumers: "0x10": want a whole number in decimal digits, without a leading zero`},
		{[]string{"-events", "x.csv", "-max-backlog", "010"}, `invalid value "010" for flag -max-backlog: want a whole number in decimal digits, without a leading zero`},
		{[]string{"-events", "x.csv", "-max-memory", "010MiB"}, `invalid value "010MiB" for flag -max-memory: want a whole number of bytes`},
		// A size too large says so (found by a review: it said "want a whole number").
		// Where int has 32 bits no TiB fits, and the most is said in bytes (it said 0TiB, 0 bytes).
		{[]string{"-events", "x.csv", "-max-memory", "99999999999TiB"}, `invalid value "99999999999TiB" for flag -max-memory: want at most ` + map[bool]string{true: "8388607TiB, 9223370937343148032 bytes", false: "2147483647 bytes"}[strconv.IntSize == 64]},
		{[]string{"-events", "x.csv", "-max-memory", "99999999999999999999"}, `invalid value "99999999999999999999" for flag -max-memory: want at most ` + strconv.Itoa(math.MaxInt) + " bytes"},
		{[]string{"-events", "x.csv", "-max-memory", "-99999999999999999999KiB"}, `invalid value "-99999999999999999999KiB" for flag -max-memory: want a whole number of bytes of at least 1`},
		{[]string{"-events", "x.csv", "-layouts", "free,fast"}, `konvoy: -layouts: unknown layout "fast"; want free, convoy, line-convoy, version-stamp`},
		{[]string{"-events", "x.csv", "-layouts", "free,free"}, "konvoy: -layouts names free twice"},
		{[]string{"-events", "x.csv", "-format", "xml"}, `konvoy: -format is "xml"; want text, json or csv`},
		{[]string{"-events", "x.csv", "-capacity", "-layouts", "convoy"}, "konvoy: -capacity measures costs relative to free: add free to -layouts"},
		{[]string{"-events", "x.csv", "-capacity", "-format", "csv"}, "konvoy: -capacity is part of the text report; -format csv has no capacity table"},
		{[]string{"-events", "x.csv", "-peak", "10"}, "konvoy: -peak needs -capacity"},
		{[]string{"-events", "x.csv", "-capacity", "-peak", "-1"}, "konvoy: -peak is -1; want a rate from 0 to 1e300 events/s"},
		{[]string{"-events", "x.csv", "-capacity", "-peak", "1e308"}, "konvoy: -peak is 1e+308; want a rate from 0 to 1e300 events/s"},
		{[]string{"-events", "x.csv", "-input", "xml"}, `konvoy: -input is "xml"; want csv, jsonl or auto`},
		{[]string{"-events", "x.csv", "-round"}, "konvoy: -round needs -unit: whole rounds are never rounded"},
		{[]string{"-events", "x.csv", "-unit", "-1s"}, "konvoy: -unit is -1s; want the length of one round, or 0 for whole rounds"},
		{[]string{"-events", "x.csv", "-key", ""}, "konvoy: -key is empty; want a column name"},
		{[]string{"-events", ""}, "konvoy: -events is empty; want a trace FILE, or - for standard input (leave -events out for the lesson)"},
		{[]string{"-events=", "-format", "json"}, "konvoy: -events is empty; want a trace FILE"},
		{[]string{"plan", "-events", ""}, "konvoy plan: -events is empty; want a trace FILE"},
		{[]string{"serve", "-addr", "192.0.2.1:1", "-events", ""}, "konvoy serve: -events is empty; want a trace FILE"},
		{[]string{"serve", "-max-upload", "2TiB"}, `invalid value "2TiB" for flag -max-upload: want at most ` + map[bool]string{true: "1TiB", false: "2147483647 bytes"}[strconv.IntSize == 64]},
		// Past the largest int, the limit said is still 1TiB (found by a review).
		{[]string{"serve", "-max-upload", "9223372036854775808"}, `invalid value "9223372036854775808" for flag -max-upload: want at most ` + map[bool]string{true: "1TiB", false: "2147483647 bytes"}[strconv.IntSize == 64]},
		{[]string{"serve", "-max-upload", "9007199254740992KiB"}, `invalid value "9007199254740992KiB" for flag -max-upload: want at most ` + map[bool]string{true: "1TiB", false: "2097151KiB"}[strconv.IntSize == 64]},
		{[]string{"-events", "x.csv", "-steps", "a,b", "-history", "b"}, `konvoy: status "b" is in both -steps and -history: a status is ordered or history, not both`},
		{[]string{"-events", "x.csv", "-steps", "a,b,a"}, `konvoy: -steps names status "a" twice`},
		// "-" reads no column: refused for a role every event needs.
		{[]string{"-events", "x.csv", "-key", "-"}, "konvoy: -key - reads no key; every event needs one, from a column"},
		{[]string{"-events", "x.csv", "-duration", "-"}, "konvoy: -duration - reads no duration; every event needs one, from a column or drawn by -duration-model"},
		{[]string{"-events", "x.csv", "-key", "step", "-status", "-"}, `konvoy: -status - reads no status, and the column "step" is named for another role, not read as the step; every event needs a step, from a step or a status column`},
		{[]string{"-events", "x.csv", "-step", "-", "-status", "-"}, "konvoy: -step - and -status - read no step; every event needs one, from a step or a status column"},
		{[]string{"-events", "x.csv", "-at", "-", "-at-format", "unix-ms", "-unit", "1ms"}, "konvoy: -at - reads no arrivals, and -at-format unix-ms reads them from a column; leave one out"},
		{[]string{"-events", "x.csv", "-at", "-", "-reorder", "1s", "-unit", "1ms"}, "konvoy: -at - reads no arrivals, and -reorder sorts them; leave one out"},
		{[]string{"-events", "x.csv", "-steps", "a", "-history", "h,h"}, `konvoy: -history names status "h" twice`},
		{[]string{"-events", "x.csv", "-steps", "a,,b"}, "konvoy: -steps, -history: an empty status in the ordered statuses"},
		{[]string{"-events", "x.csv", "-layouts", "all,free"}, "konvoy: -layouts all stands alone; it names every layout"},
		{[]string{"-events", "x.csv", "-layouts", "partitioned:0"}, `konvoy: -layouts: layout "partitioned:0": want partitioned:N with N a whole number from 1 to 2147483647, in decimal digits without a sign or leading zeros`},
		{[]string{"-events", "x.csv", "-layouts", "partitioned,partitioned:4", "-partitions", "4"}, "konvoy: -layouts names partitioned:4 twice"},
		{[]string{"-events", "x.csv", "-partitions", "3"}, "konvoy: -partitions sets the layout partitioned; add partitioned or all to -layouts"},
		{[]string{"-events", "x.csv", "-partitions", "-2", "-layouts", "all"}, "konvoy: -partitions is -2; want 1 to 2147483647"},
		{[]string{"-events", "x.csv", "-policy", "lifo"}, `konvoy: -policy: unknown policy "lifo"`},
		{[]string{"-events", "x.csv", "-gantt", "-format", "json"}, "konvoy: -gantt is part of the text report; -format json has no schedule view"},
	} {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			out, errOut, status := runCommand(tt.args...)
			if status != 2 || out != "" || !strings.Contains(errOut, tt.want) {
				t.Fatalf("status %d, stdout %q, stderr %q; want 2, nothing, and %q", status, out, errOut, tt.want)
			}
		})
	}
}

func TestRoundingIsReported(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.csv")
	os.WriteFile(path, []byte("key,line,step,duration\nA,H1,1,150ms\nA,H1,2,200ms\n"), 0o644)
	out, errOut, status := runCommand("-events", path, "-unit", "100ms", "-round")
	if status != 0 || errOut != "" || !strings.Contains(out, "work 4 rounds of 100ms\n1 duration or arrival rounded to whole rounds of 100ms\n") {
		t.Errorf("status %d, stderr %q, report:\n%s", status, errOut, out)
	}
	out, errOut, status = runCommand("-events", path, "-unit", "100ms", "-round", "-format", "csv")
	if status != 0 || errOut != "konvoy: note: 1 duration or arrival rounded to whole rounds of 100ms\n" || !strings.HasPrefix(out, "layout,") {
		t.Errorf("csv: status %d, stderr %q, report:\n%s", status, errOut, out)
	}
}

// A trace with no events, a header alone, gets one answer from every
// command in every format: there is nothing to measure or plan for, said on
// standard error with exit status 1, and no report of zeros that would pass
// for a measurement.
func TestEveryCommandRefusesAnEmptyTrace(t *testing.T) {
	for _, args := range [][]string{
		{"-events", "-"},
		{"-events", "-", "-format", "json", "-layouts", "free", "-consumers", "1"},
		{"-events", "-", "-format", "csv"},
		{"-events", "-", "-plot", t.TempDir()},
		{"plan", "-events", "-"},
		{"plan", "-events", "-", "-format", "json"},
	} {
		out, errOut, status := runWithInput("key,line,step,duration\r\n", args...)
		if want := "<stdin>: the trace holds no events; want at least one\n"; status != 1 || out != "" || errOut != want {
			t.Errorf("%q: status %d, stdout %q, stderr %q; want 1, nothing and %q", args, status, out, errOut, want)
		}
	}
}

// fakeClock advances by step on every reading.
type fakeClock struct {
	t    time.Time
	step time.Duration
}

func (c *fakeClock) now() time.Time {
	c.t = c.t.Add(c.step)
	return c.t
}

func TestProgressBar(t *testing.T) {
	oldTerm, oldClock := isTerminal, clock
	defer func() { isTerminal, clock = oldTerm, oldClock }()
	isTerminal = func(io.Writer) bool { return true }
	c := &fakeClock{t: time.Unix(0, 0), step: 300 * time.Millisecond}
	clock = c.now

	var out, errOut bytes.Buffer
	status := run(withStatuses("-events", "testdata/shipments.csv"), strings.NewReader(""), &out, &errOut)
	if status != 0 {
		t.Fatalf("status %d, stderr %q", status, errOut.String())
	}
	want, _, _ := runCommand(withStatuses("-events", "testdata/shipments.csv")...)
	if out.String() != want {
		t.Errorf("the report changed with a progress bar:\n%s", out.String())
	}
	bar := errOut.String()
	if !strings.HasPrefix(bar, "\rreading testdata/shipments.csv: 0.0 MB of 0.0 MB (100%), 0.0 MB/s, 0 events\x1b[K") || !strings.HasSuffix(bar, "\r\x1b[K") {
		t.Errorf("progress on stderr %q; want a bar, then the line cleared", bar)
	}
}

func TestProgressThrottlesAndClears(t *testing.T) {
	var w bytes.Buffer
	c := &fakeClock{t: time.Unix(0, 0), step: 0}
	p := &progress{w: &w, name: "t.csv", size: 4_000_000, now: c.now, start: c.t, last: c.t}
	r := p.reader(strings.NewReader(strings.Repeat("x", 4_000_000)))
	buf := make([]byte, 1_000_000)
	r.Read(buf) // at 0s: not yet due
	if w.Len() != 0 {
		t.Fatalf("drew %q before %v", w.String(), progressEvery)
	}
	c.step = 500 * time.Millisecond
	p.events = 1234
	r.Read(buf) // at 0.5s
	if got, want := w.String(), "\rreading t.csv: 2.0 MB of 4.0 MB (50%), 4.0 MB/s, 1234 events\x1b[K"; got != want {
		t.Errorf("bar %q; want %q", got, want)
	}
	c.step = 500 * time.Millisecond
	w.Reset()
	p.events = 1
	r.Read(buf) // at 1s
	if got, want := w.String(), "\rreading t.csv: 3.0 MB of 4.0 MB (75%), 3.0 MB/s, 1 event\x1b[K"; got != want {
		t.Errorf("bar %q; want %q", got, want)
	}
	c.step = 100 * time.Millisecond
	w.Reset()
	r.Read(buf) // at 1.1s: too soon to redraw
	if w.Len() != 0 {
		t.Errorf("redrew %q within %v", w.String(), progressEvery)
	}
	p.done()
	p.done()
	if w.String() != "\r\x1b[K" {
		t.Errorf("done wrote %q; want the line cleared once", w.String())
	}
	var quiet bytes.Buffer
	if newProgress(&quiet, "t.csv", 1) != nil {
		t.Error("a progress bar on a bytes.Buffer, which is no terminal")
	}
}

// TestGanttLimit wants a usage error, and no report, for a schedule view of
// more than maxGanttEvents events, and a view for exactly that many.
func TestGanttLimit(t *testing.T) {
	var b strings.Builder
	b.WriteString("key,line,step,duration\n")
	for i := range maxGanttEvents {
		fmt.Fprintf(&b, "K%d,L1,1,1\n", i%7)
	}
	out, errOut, status := runWithInput(b.String(), "-events", "-", "-gantt", "-layouts", "convoy")
	if status != 0 || errOut != "" || !strings.Contains(out, "the schedule of convoy at 4 consumers") {
		t.Fatalf("%d events: status %d, stderr %q, report:\n%s", maxGanttEvents, status, errOut, out)
	}
	b.WriteString("K1,L1,2,1\n")
	out, errOut, status = runWithInput(b.String(), "-events", "-", "-gantt", "-layouts", "convoy")
	want := fmt.Sprintf("konvoy: -gantt draws runs of at most %d events; <stdin> has more\n", maxGanttEvents)
	if status != 2 || out != "" || errOut != want {
		t.Errorf("%d events: status %d, stdout %q, stderr %q; want 2, nothing, %q", maxGanttEvents+1, status, out, errOut, want)
	}
}

// TestLayoutsAll wants -layouts all to run konvoy.AllLayouts with the
// largest consumer count as partitions, unless -partitions says otherwise.
func TestLayoutsAll(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want []string
	}{
		{[]string{"-consumers", "2,6"}, []string{"free", "convoy", "line-convoy", "version-stamp", "selective-convoy", "partitioned:6", "resequencer"}},
		{[]string{"-partitions", "3"}, []string{"free", "convoy", "line-convoy", "version-stamp", "selective-convoy", "partitioned:3", "resequencer"}},
	} {
		opt, err := parse(append([]string{"-events", "x.csv", "-layouts", "all"}, tt.args...), io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, l := range opt.layouts {
			got = append(got, l.String())
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%v: layouts %v; want %v", tt.args, got, tt.want)
		}
	}
}

// TestSimulatorErrorDeepInTrace wants the line of the first event a run
// rejects, however many events konvoy.Sweep reads before and after it.
func TestSimulatorErrorDeepInTrace(t *testing.T) {
	const n = runs.LinesKept
	var b strings.Builder
	b.WriteString("key,line,step,duration,at\n")
	for i := range 2 * n {
		at := 10
		if i == n/3+5 {
			at = 3
		}
		fmt.Fprintf(&b, "K%d,H1,1,1,%d\n", i, at)
	}
	b.WriteString("K,H1,x,1,10\n") // a bad row after the runs' error
	path := filepath.Join(t.TempDir(), "t.csv")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("%s:%d: event %d (key \"K%d\"): Arrival is 3; want 10 or later: the previous event arrived then, and events come in arrival order\n", path, n/3+7, n/3+5, n/3+5)
	for range 3 {
		out, errOut, status := runCommand("-events", path)
		if status != 1 || out != "" || errOut != want {
			t.Fatalf("status %d, stdout %q, stderr %q; want 1, nothing, %q", status, out, errOut, want)
		}
	}
}

// A -max-memory too small for the runs at once runs them in passes, from a
// file or from standard input (copied to a temporary file as it is read), and
// reports the same; a size konvoy cannot read is a usage error, and a run
// that alone outgrows it fails at the event where it does.
func TestMaxMemoryRunsInPasses(t *testing.T) {
	args := []string{"-events", "testdata/arrivals.csv", "-layouts", "all", "-policy", "all"}
	want, _, status := runCommand(args...)
	if status != 0 {
		t.Fatal("the trace failed")
	}
	data, err := os.ReadFile("testdata/arrivals.csv")
	if err != nil {
		t.Fatal(err)
	}
	for _, size := range []string{"1GiB", "5MiB", "3000KiB"} {
		for _, stdin := range []bool{false, true} {
			a := append(slices.Clone(args), "-max-memory", size)
			in := ""
			if stdin {
				a[1], in = "-", string(data)
			}
			out, errOut, status := runWithInput(in, a...)
			if stdin {
				out = strings.Replace(out, "<stdin>", "testdata/arrivals.csv", 1)
			}
			if status != 0 || errOut != "" || out != want {
				t.Errorf("-max-memory %s, stdin %v: status %d, stderr %q, report the same: %v", size, stdin, status, errOut, out == want)
			}
		}
	}
	for _, bad := range []string{"0", "-1", "1GB", "x"} {
		_, errOut, status := runCommand(append(slices.Clone(args), "-max-memory", bad)...)
		if status != 2 || !strings.Contains(errOut, "want a whole number of bytes of at least 1") {
			t.Errorf("-max-memory %s: status %d, stderr %q; want a usage error", bad, status, errOut)
		}
	}
	_, errOut, status := runCommand(append(slices.Clone(args), "-max-memory", "1MiB")...)
	if status != 1 || !strings.Contains(errOut, "testdata/arrivals.csv:61: event 59") || !strings.Contains(errOut, "(three quarters of -max-memory)") || !strings.Contains(errOut, "-max-memory 1MiB, three quarters") {
		t.Errorf("-max-memory 1MiB: status %d, stderr %q; want the first run too big at the last event", status, errOut)
	}
}

// The JSON and CSV reports say what the text report's notes say: the
// events dropped as late (-late drop) in every record, and the
// resequencer's forced events, gaps skipped and old steps rejected.
func TestRecordsSayWhatTheNotesSay(t *testing.T) {
	args := []string{"-events", "../../testdata/export.jsonl", "-key", "key", "-status", "payload.status", "-steps", "new,paid,shipped,delivered",
		"-at", "ts", "-at-format", "unix-ms", "-unit", "1ms", "-reorder", "200ms", "-late", "drop", "-duration-model", "exp:100", "-seed", "7",
		"-layouts", "resequencer,convoy", "-reseq-timeout", "50", "-reject-old", "-consumers", "4"}
	text, errOut, status := runCommand(args...)
	if status != 0 {
		t.Fatalf("status %d, stderr %q", status, errOut)
	}
	var dropped, forced, gaps, rejected int
	if _, err := fmt.Sscanf(text[strings.Index(text, "\n")+1:], "durations modelled: each drawn from exp:100 rounds, not read from the trace\n%d events dropped", &dropped); err != nil {
		t.Fatalf("%v in the text report:\n%s", err, text)
	}
	at := strings.Index(text, "applied by timeout or capacity")
	if at < 0 {
		t.Fatalf("the text report has no resequencer note of forced events:\n%s", text)
	}
	line := text[strings.LastIndex(text[:at], "\n")+1:]
	if _, err := fmt.Sscanf(line, "  %d released when their gaps filled, %d applied by timeout or capacity (%d missing", new(int), &forced, &gaps); err != nil {
		t.Fatalf("%v in %q", err, line)
	}
	line = line[strings.Index(line, "\n")+1:]
	if _, err := fmt.Sscanf(line[strings.Index(line, "discarded, ")+len("discarded, "):], "%d old step", &rejected); err != nil {
		t.Fatalf("%v in %q", err, line)
	}
	if dropped == 0 || forced == 0 || gaps == 0 || rejected == 0 {
		t.Fatalf("dropped %d, forced %d, gaps %d, rejected %d: the test wants each above 0", dropped, forced, gaps, rejected)
	}
	out, errOut, status := runCommand(append(args, "-format", "json")...)
	var records []map[string]any
	if err := json.Unmarshal([]byte(out), &records); status != 0 || err != nil || len(records) != 2 {
		t.Fatalf("status %d, stderr %q, %v, %d records", status, errOut, err, len(records))
	}
	want := map[string]int{"late_dropped": dropped, "forced": forced, "gaps_skipped": gaps, "rejected_old": rejected}
	for name, n := range want {
		if got := records[0][name]; got != float64(n) {
			t.Errorf("the resequencer's JSON record: %s is %v; want %d, as the text says", name, got, n)
		}
	}
	if got := records[1]["late_dropped"]; got != float64(dropped) {
		t.Errorf("the convoy's JSON record: late_dropped is %v; want %d", got, dropped)
	}
	out, _, _ = runCommand(append(args, "-format", "csv")...)
	rows, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil || len(rows) != 3 {
		t.Fatalf("CSV: %v, %d rows", err, len(rows))
	}
	for name, n := range want {
		if col := slices.Index(rows[0], name); col < 0 || rows[1][col] != fmt.Sprint(n) {
			t.Errorf("the resequencer's CSV record: %s in column %d of %q; want %d", name, col, rows[1], n)
		}
	}
}

// -line key reads the key as the line, in JSON Lines as in CSV: the two
// forms of one trace give one report.
func TestTheKeyAsTheLine(t *testing.T) {
	dir := t.TempDir()
	csvPath, jsonPath := filepath.Join(dir, "t.csv"), filepath.Join(dir, "t.jsonl")
	os.WriteFile(csvPath, []byte("key,step,duration\nA,1,2\nB,1,1\nA,2,1\n"), 0o644)
	os.WriteFile(jsonPath, []byte(`{"key":"A","step":1,"duration":2}`+"\n"+`{"key":"B","step":1,"duration":1}`+"\n"+`{"key":"A","step":2,"duration":1}`+"\n"), 0o644)
	args := []string{"-line", "key", "-layouts", "convoy,line-convoy", "-format", "csv"}
	fromCSV, errCSV, status1 := runCommand(append([]string{"-events", csvPath}, args...)...)
	fromJSON, errJSON, status2 := runCommand(append([]string{"-events", jsonPath}, args...)...)
	if status1 != 0 || status2 != 0 || fromCSV != fromJSON {
		t.Errorf("csv: status %d, %q, %s\njsonl: status %d, %q, %s", status1, errCSV, fromCSV, status2, errJSON, fromJSON)
	}
}

// A column named by a flag must be in the trace, even one whose default is
// optional (-line, -at, -partition): a trace without it is an error naming
// the flag and the column, in CSV and JSON Lines alike, never a run
// without it. The defaults stay optional.
func TestNamedColumnsMustBeThere(t *testing.T) {
	dir := t.TempDir()
	csvPath, jsonPath := filepath.Join(dir, "t.csv"), filepath.Join(dir, "t.jsonl")
	os.WriteFile(csvPath, []byte("key,status,step,duration\nA,accepted,1,2\nB,accepted,1,1\n"), 0o644)
	os.WriteFile(jsonPath, []byte(`{"key":"A","status":"accepted","step":1,"duration":2}`+"\n"+`{"key":"B","status":"accepted","step":1,"duration":1}`+"\n"), 0o644)
	for _, path := range []string{csvPath, jsonPath} {
		if _, errOut, status := runCommand("-events", path, "-layouts", "free,convoy"); status != 0 {
			t.Errorf("%s with the default columns: status %d, %q; want 0", path, status, errOut)
		}
		for _, flag := range []string{"key", "line", "status", "step", "duration", "at", "partition"} {
			want := path + `:1: want a field "nosuch", as -` + flag + " names it\n"
			if path == csvPath {
				want = path + `:1: want a column "nosuch", as -` + flag + ` names it, in the header; it has "key", "status", "step", "duration"` + "\n"
			}
			layouts := "free,convoy"
			if flag == "partition" { // which recorded alone reads
				layouts += ",recorded"
			}
			out, errOut, status := runCommand("-events", path, "-layouts", layouts, "-steps", "accepted", "-"+flag, "nosuch")
			if status != 1 || out != "" || errOut != want {
				t.Errorf("-%s nosuch on %s: status %d, stdout %q, stderr\n%q\nwant 1, nothing, and\n%q", flag, path, status, out, errOut, want)
			}
		}
	}
	// A JSON Lines record is checked on its own: the second lacks the line.
	os.WriteFile(jsonPath, []byte(`{"key":"A","step":1,"duration":2,"route":"r"}`+"\n"+`{"key":"B","step":1,"duration":1}`+"\n"), 0o644)
	_, errOut, status := runCommand("-events", jsonPath, "-layouts", "free", "-line", "route")
	if want := jsonPath + `:2: want a field "route", as -line names it` + "\n"; status != 1 || errOut != want {
		t.Errorf("a record without the line: status %d, stderr %q; want 1 and %q", status, errOut, want)
	}
	// The case: -at arrival on a trace without it ran a batch; plan too.
	_, errOut, status = runCommand("plan", "-events", csvPath, "-layouts", "free", "-at", "arrival")
	if want := `want a column "arrival", as -at names it`; status != 1 || !strings.Contains(errOut, want) {
		t.Errorf("plan -at arrival: status %d, stderr %q; want 1 and %q", status, errOut, want)
	}
}

// A parallelism above 0 never reads as 0.00: two events of one round, a
// trillion rounds apart, run with parallelism 2e-12, and the report, its
// CSV and its JSON say so.
func TestTinyParallelismIsNotWrittenAsZero(t *testing.T) {
	if strconv.IntSize < 64 {
		t.Skip("an arrival of 10^12 rounds does not fit a 32-bit int")
	}
	trace := "key,step,duration,at\nA,1,1,0\nB,1,1,1000000000000\n"
	text, _, status := runWithInput(trace, "-events", "-", "-layouts", "free", "-consumers", "1")
	if status != 0 || !strings.Contains(text, "effective parallelism (work / rounds): free 2e-12") {
		t.Errorf("text: status %d:\n%s", status, text)
	}
	csv, _, _ := runWithInput(trace, "-events", "-", "-layouts", "free", "-consumers", "1", "-format", "csv")
	json, _, _ := runWithInput(trace, "-events", "-", "-layouts", "free", "-consumers", "1", "-format", "json")
	if !strings.Contains(csv, ",1000000000001,0.000000000002,") || !strings.Contains(json, `"parallelism":2e-12`) {
		t.Errorf("csv or json write it as 0:\n%s\n%s", csv, json)
	}
}
