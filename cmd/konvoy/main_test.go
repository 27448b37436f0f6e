package main

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// long asks for the tests that take tens of seconds: go test ./cmd/konvoy
// -args -konvoy.long.
var long = flag.Bool("konvoy.long", false, "run the tests that take tens of seconds")

// golden compares got with testdata/name, or rewrites the file with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if d := cmp.Diff(string(want), got); d != "" {
		t.Errorf("%s differs (-want +got):\n%s", path, d)
	}
}

func runCommand(args ...string) (stdout, stderr string, status int) {
	return runWithInput("", args...)
}

// runWithInput runs the command with stdin as its standard input.
func runWithInput(stdin string, args ...string) (stdout, stderr string, status int) {
	var out, errOut bytes.Buffer
	status = run(args, strings.NewReader(stdin), &out, &errOut)
	return out.String(), errOut.String(), status
}

func TestLessonReport(t *testing.T) {
	for _, tt := range []struct {
		golden string
		args   []string
	}{
		{"lesson.golden", nil},
		{"lesson-consumers-2.golden", []string{"-consumers", "2"}},
		{"lesson-policy-all.golden", []string{"-policy", "all"}},
		{"lesson-json.golden", []string{"-format", "json", "-layouts", "free,convoy", "-consumers", "8,2", "-policy", "lane-aware"}},
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

func TestUsageErrors(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"-consumers", "0"}, "konvoy: -consumers is 0; want 1 to 2147483647"},
		{[]string{"-consumers", "x"}, `invalid value "x" for flag -consumers`},
		{[]string{"-consumers", "4,4"}, "konvoy: -consumers names 4 twice"},
		{[]string{"-events", "x.csv", "-consumers", "8,4,8"}, "konvoy: -consumers names 8 twice"}, // dropped, where -layouts and -policy refuse theirs (found by a review)
		{[]string{"-nope"}, "flag provided but not defined: -nope"},
		{[]string{"extra"}, `konvoy: unexpected argument "extra"`},
		{[]string{"plans"}, `konvoy: unexpected argument "plans"`},
		{[]string{"-plot-format", "svg"}, "konvoy: -plot-format needs -plot"},
		{[]string{"-plot", "d", "-plot-format", "pdf"}, `konvoy: -plot-format is "pdf"; want svg, png or both`},
		{[]string{"-plot", ""}, "konvoy: -plot is empty; want the directory to draw the pictures in"},
		{[]string{"-policy", "fifo"}, `konvoy: -policy: unknown policy "fifo"; want head-of-line, lane-aware, static, or all`},
		{[]string{"-policy", "all,static"}, "konvoy: -policy all stands alone; it names every policy"},
		{[]string{"-policy", "static,static"}, "konvoy: -policy names static twice"},
		{[]string{"-partitions", "0"}, "konvoy: -partitions is 0; want 1 to 2147483647"},
		{[]string{"-layouts", "all"}, "konvoy: -layouts needs -events, or -format json or csv for the lesson"},
		{[]string{"-gantt"}, "konvoy: -gantt needs -events"},
		{[]string{"-reject-old"}, "konvoy: -reject-old needs -events"},
		{[]string{"-events", "x", "-start", "first"}, `konvoy: -start is "first"; want zero or first-seen`},
		{[]string{"-events", "x", "-reseq-timeout", "-1"}, "konvoy: -reseq-timeout is -1; want 0 (wait forever) to 2147483647 rounds"},
		{[]string{"-events", "x", "-reseq-timeout", "2147483648"}, "konvoy: -reseq-timeout is 2147483648; want 0 (wait forever) to 2147483647 rounds"},
		{[]string{"-events", "x", "-reseq-capacity", "-2"}, "konvoy: -reseq-capacity is -2; want 0 (no bound) or more events"},
		{[]string{"plan", "-reseq-capacity", "-2"}, "konvoy plan: -reseq-capacity is -2; want 0 (no bound) or more events"},
		{[]string{"plan", "-start", "one"}, `konvoy plan: -start is "one"; want zero or first-seen`},
		{[]string{"-events", "x", "-reseq-timeout", "5"}, "konvoy: -reseq-timeout needs the resequencer in -layouts (resequencer, or all)"},
		{[]string{"-events", "x", "-layouts", "free,convoy", "-reseq-capacity", "5"}, "konvoy: -reseq-capacity needs the resequencer in -layouts"},
		{[]string{"-events", "x", "-reject-old"}, "konvoy: -reject-old needs the resequencer in -layouts"},
		{[]string{"-events", "x", "-start", "zero"}, "konvoy: -start needs the resequencer in -layouts"},
		{[]string{"-format", "json", "-start", "first-seen"}, "konvoy: -start needs the resequencer in -layouts"},
		{[]string{"-start", "zero"}, "konvoy: -start needs -events, or -format json or csv for the lesson"},
		{[]string{"plan", "-reseq-timeout", "3"}, "konvoy plan: -reseq-timeout needs the resequencer in -layouts"},
		{[]string{"plan", "-layouts", "free", "-reject-old"}, "konvoy plan: -reject-old needs the resequencer in -layouts"},
	} {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			out, errOut, status := runCommand(tt.args...)
			if status != 2 || out != "" || !strings.Contains(errOut, tt.want) {
				t.Fatalf("status %d, stdout %q, stderr %q; want 2, nothing, and %q", status, out, errOut, tt.want)
			}
		})
	}
}

func TestHelpIsNotAnError(t *testing.T) {
	out, errOut, status := runCommand("-h")
	if status != 0 || out != "" || !strings.Contains(errOut, "usage: konvoy") {
		t.Fatalf("status %d, stdout %q, stderr %q", status, out, errOut)
	}
}

// TestLessonKeepsItsReport wants the lesson report's first sections, the
// lesson's own, unchanged under -policy all and -partitions: they only add
// sections after them.
func TestLessonKeepsItsReport(t *testing.T) {
	plain, _, _ := runCommand()
	for _, args := range [][]string{{"-policy", "all"}, {"-policy", "head-of-line"}, {"-partitions", "5"}} {
		out, errOut, status := runCommand(args...)
		if status != 0 || errOut != "" {
			t.Fatalf("%v: status %d, stderr %q", args, status, errOut)
		}
		head := plain[:strings.Index(plain, "\nevery layout on the same events")]
		if !strings.HasPrefix(out, head) {
			t.Errorf("%v: the lesson's sections changed:\n%s", args, out)
		}
	}
}

// TestLessonSelectiveConvoy wants the figures of konvoy's
// ExampleSelectiveConvoy in the report.
func TestLessonSelectiveConvoy(t *testing.T) {
	out, _, _ := runCommand()
	for _, want := range []string{
		"rounds at 4 consumers: free 14, selective-convoy 15, convoy 24\n",
		"multiplier: simulated x1.071; the lesson's formula s·cost + (1 − s) gives x1.357\n",
		"whole stream in the convoy: x1.714\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the report lacks %q", want)
		}
	}
}

// TestLessonPolicy runs the whole lesson report under another policy: the
// lane-aware convoy finishes in 10 rounds where head-of-line needs 13.
func TestLessonPolicy(t *testing.T) {
	out, errOut, status := runCommand("-policy", "lane-aware")
	if status != 0 || errOut != "" {
		t.Fatalf("status %d, stderr %q", status, errOut)
	}
	for _, want := range []string{
		"4 consumers, work 32 rounds, policy lane-aware\n",
		"rounds                 8      10           14              8\n",
		"the convoy's schedule at 4 consumers, lane-aware dispatch",
		"latency by layout and dispatch policy at 4 consumers",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the report lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "head-of-line blocking") {
		t.Error("a lane-aware schedule shows head-of-line blocking")
	}
}

// TestReportsFitTheScreen wants every line of the lesson's new sections at
// most 104 bytes wide, the schedule at most 100.
func TestReportsFitTheScreen(t *testing.T) {
	out, _, _ := runCommand("-policy", "all")
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "lane-load ceiling") { // the lesson's own line
			continue
		}
		if n := len([]rune(line)); n > 104 {
			t.Errorf("%d runes: %q", n, line)
		}
	}
}

// The resequencer's flags need the resequencer among the layouts, which
// -layouts all and a list naming it both have.
func TestResequencerFlagsWithTheResequencer(t *testing.T) {
	for _, args := range [][]string{
		{"-events", "testdata/arrivals.csv", "-layouts", "all", "-reject-old", "-consumers", "2"},
		{"-events", "testdata/arrivals.csv", "-layouts", "free, resequencer", "-reseq-timeout", "3", "-consumers", "2"},
		{"-format", "json", "-layouts", "resequencer", "-start", "zero"},
		{"plan", "-layouts", "all", "-reseq-capacity", "2", "-max-partitions", "8"},
	} {
		if _, errOut, status := runCommand(args...); status != 0 {
			t.Errorf("%q: status %d, stderr %q; want 0", args, status, errOut)
		}
	}
}
