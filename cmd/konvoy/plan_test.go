package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sirali-konvoy/konvoy/synth"
)

func TestPlanGolden(t *testing.T) {
	for _, tt := range []struct {
		golden string
		args   []string
	}{
		{"plan-lesson.golden", []string{"plan"}},
		{"plan-lesson-json.golden", []string{"plan", "-format", "json"}},
		{"plan-lesson-policy-all.golden", []string{"plan", "-policy", "all", "-consumers", "4", "-round-time", "20ms"}},
		{"plan-shipments.golden", append([]string{"plan"}, withStatuses("-events", "testdata/shipments.csv", "-policy", "head-of-line,lane-aware")...)},
		// arrivals.csv has arrivals and out-of-order keys, which the
		// keep-up plans take as work at hand; at 100 events/s a topic of 8
		// partitions needs 5 consumers, and none of up to 8 partitions
		// keeps collisions within 5%; at 200 events/s, above the trace's
		// own rate, line-convoy and that topic cannot keep up: lane L3 holds
		// 51 rounds, partition 7 46, over 30.
		{"plan-arrivals.golden", []string{"plan", "-events", "testdata/arrivals.csv", "-peak", "100", "-max-partitions", "8", "-layouts", "all"}},
		{"plan-reseq.golden", []string{"plan", "-events", "testdata/arrivals.csv", "-peak", "100", "-layouts", "resequencer", "-start", "first-seen", "-reseq-capacity", "1", "-reject-old"}},
		{"plan-arrivals-json.golden", []string{"plan", "-events", "testdata/arrivals.csv", "-peak", "200", "-max-partitions", "8", "-format", "json"}},
		// slo.csv is konvoy gen -events 2000 -keys 200 -key-skew 0.7
		// -lines 8 -duration uniform:1,9 -rate 0.8 -seed 3: at its own
		// arrivals, sixteen partitions miss p99=200ms however many
		// consumers, their hottest partition's own load too long; the
		// convoy needs a consumer more under head-of-line than lane-aware.
		{"plan-slo.golden", []string{"plan", "-events", "testdata/slo.csv", "-slo", "p99=200ms", "-layouts", "free,convoy,partitioned:16,partitioned:64",
			"-policy", "head-of-line,lane-aware"}},
		{"plan-slo-json.golden", []string{"plan", "-events", "testdata/slo.csv", "-slo", "max=305ms", "-slo-on", "wait", "-peak", "100",
			"-layouts", "convoy,partitioned:16", "-max-consumers", "64", "-format", "json"}},
		{"plan-slo-poisson.golden", []string{"plan", "-slo", "p90=100ms", "-arrivals", "poisson", "-peak", "300", "-seed", "7", "-layouts", "free,convoy,line-convoy"}},
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

// TestPlanLessonAnswer wants konvoy's ExamplePlanConsumers answer for the
// lesson at its peak with a round of 10ms: free 2, convoy 2 and line-convoy
// 4 consumers, and the partitions the lesson report's PartitionsFor finds.
func TestPlanLessonAnswer(t *testing.T) {
	out, errOut, status := runCommand("plan", "-format", "json")
	if status != 0 || errOut != "" {
		t.Fatalf("status %d, stderr %q", status, errOut)
	}
	var doc struct {
		Plans []struct {
			Layout    string
			Consumers int
		}
		Peak         float64
		RoundSeconds float64 `json:"round_seconds"`
		Partitions   struct {
			Partitions int
			Found      bool
		}
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	got := map[string]int{}
	for _, p := range doc.Plans {
		got[p.Layout] = p.Consumers
	}
	for layout, want := range map[string]int{"free": 2, "convoy": 2, "line-convoy": 4, "selective-convoy": 2, "partitioned:5": 2} {
		if got[layout] != want {
			t.Errorf("%s: %d consumers; want %d", layout, got[layout], want)
		}
	}
	if doc.RoundSeconds != 0.01 || doc.Peak != 97.22 || doc.Partitions.Partitions != 5 || !doc.Partitions.Found {
		t.Errorf("round %v s, peak %v, partitions %+v", doc.RoundSeconds, doc.Peak, doc.Partitions)
	}
	// At the lesson's 4 consumers, the figures of the lesson report.
	out, _, _ = runCommand("plan", "-consumers", "4")
	if !strings.Contains(out, "multiplier: simulated x1.071; the formula s·cost + (1 − s) gives x1.357\n") {
		t.Errorf("-consumers 4: want the lesson report's multipliers:\n%s", out)
	}
}

// TestPlanConsumerLimit wants a layout that needs more consumers than
// -max-consumers to say so, and the costs then measured at the limit.
func TestPlanConsumerLimit(t *testing.T) {
	out, errOut, status := runCommand("plan", "-max-consumers", "1", "-layouts", "free,convoy")
	for _, want := range []string{
		"free    head-of-line          -       -     -  500.00       4  no lane\n",
		"free under head-of-line does not keep up with up to 1 consumer (-max-consumers)\n",
		"convoy under head-of-line does not keep up with up to 1 consumer (-max-consumers)\n",
		"- the costs are measured at 1 consumer, the most tried (-max-consumers), as free consumption does",
	} {
		if status != 0 || errOut != "" || !strings.Contains(out, want) {
			t.Errorf("status %d, stderr %q; the plan lacks %q:\n%s", status, errOut, want, out)
		}
	}
}

// TestPlanReadsEveryForm wants the same plan from a trace held in memory, a
// trace read again for every pass, and standard input, which is copied to a
// temporary file that is gone afterwards.
func TestPlanReadsEveryForm(t *testing.T) {
	args := append([]string{"plan"}, withStatuses("-policy", "all")...)
	want, errOut, status := runCommand(append(args, "-events", "testdata/shipments.csv")...)
	if status != 0 || errOut != "" {
		t.Fatalf("status %d, stderr %q", status, errOut)
	}
	data, err := os.ReadFile("testdata/shipments.csv")
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	old := planHeldBytes
	defer func() { planHeldBytes = old }()
	for _, held := range []int{old, 1000} {
		planHeldBytes = held
		got, errOut, status := runCommand(append(args, "-events", "testdata/shipments.csv")...)
		if status != 0 || errOut != "" || got != want {
			t.Errorf("%d events held: status %d, stderr %q, plan:\n%s", held, status, errOut, got)
		}
		got, errOut, status = runWithInput(string(data), append(args, "-events", "-")...)
		if w := strings.Replace(want, "testdata/shipments.csv", "<stdin>", 1); status != 0 || errOut != "" || got != w {
			t.Errorf("%d events held, standard input: status %d, stderr %q, plan:\n%s", held, status, errOut, got)
		}
	}
	if left, _ := os.ReadDir(tmp); len(left) > 0 {
		t.Errorf("konvoy plan left %d files in the temporary directory", len(left))
	}
}

// TestPlanUnit wants a trace read with -unit planned with that round,
// named as -unit's, and -round-time that disagrees with it rejected.
func TestPlanUnit(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.csv")
	os.WriteFile(path, []byte("key,line,step,duration\nA,H1,1,100ms\nA,H1,2,200ms\nB,H1,1,100ms\n"), 0o644)
	out, errOut, status := runCommand("plan", "-events", path, "-unit", "100ms")
	if status != 0 || errOut != "" || !strings.Contains(out, "one round lasts 100ms (-unit)") {
		t.Errorf("status %d, stderr %q, plan:\n%s", status, errOut, out)
	}
	out, errOut, status = runCommand("plan", "-events", path, "-unit", "100ms", "-slo", "p99=1s", "-arrivals", "poisson", "-peak", "5")
	if status != 0 || errOut != "" || !strings.Contains(out, "the target 1s is 10 rounds of 100ms (-unit)") {
		t.Errorf("-slo: status %d, stderr %q, plan:\n%s", status, errOut, out)
	}
	out, errOut, status = runCommand("plan", "-events", path, "-unit", "100ms", "-round-time", "10ms")
	if want := "konvoy plan: -round-time is 10ms, but -unit makes one round 100ms; leave -round-time out\n"; status != 2 || out != "" || errOut != want {
		t.Errorf("status %d, stdout %q, stderr %q; want 2, nothing, %q", status, out, errOut, want)
	}
}

func TestPlanUsageErrors(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"extra"}, `konvoy plan: unexpected argument "extra"`},
		{[]string{"-nope"}, "flag provided but not defined: -nope"},
		{[]string{"-peak", "0"}, "konvoy plan: -peak is 0; want a positive rate in events/s"},
		{[]string{"-peak", "+Inf"}, "konvoy plan: -peak is +Inf; want a positive rate in events/s"},
		{[]string{"-round-time", "0s"}, "konvoy plan: -round-time is 0s; want how long one round lasts, such as 10ms"},
		{[]string{"-round-time", "10"}, `invalid value "10" for flag -round-time`},
		{[]string{"-max-consumers", "0"}, "konvoy plan: -max-consumers is 0; want 1 to 2147483647"},
		{[]string{"-consumers", "0"}, "konvoy plan: -consumers is 0; want 1 to 2147483647"},
		{[]string{"-collision", "1.5"}, "konvoy plan: -collision is 1.5; want a share from 0 to 1"},
		{[]string{"-max-partitions", "0"}, "konvoy plan: -max-partitions is 0; want 1 to 65536"},
		{[]string{"-partitions", "0"}, "konvoy plan: -partitions is 0; want 1 to 2147483647"},
		{[]string{"-partitions", "3", "-layouts", "free"}, "konvoy plan: -partitions sets the layout partitioned; add partitioned or all to -layouts"},
		{[]string{"-format", "csv"}, `konvoy plan: -format is "csv"; want text or json`},
		{[]string{"-policy", "fifo"}, `konvoy plan: -policy: unknown policy "fifo"`},
		{[]string{"-layouts", "all,recorded"}, "konvoy plan: -layouts all stands alone; it names every layout but recorded: to plan for recorded beside others, name each"},
		{[]string{"-layouts", "free,fast"}, `konvoy plan: -layouts: unknown layout "fast"`},
		{[]string{"-layouts", "partitioned,partitioned:5"}, "konvoy plan: -layouts names partitioned:5 twice"},
		{[]string{"-steps", "a"}, "konvoy plan: -steps needs -events"},
		{[]string{"-unit", "1s"}, "konvoy plan: -unit needs -events"},
		{[]string{"-events", "x.csv", "-input", "xml"}, `konvoy plan: -input is "xml"; want csv, jsonl or auto`},
		{[]string{"-events", "x.csv", "-round"}, "konvoy plan: -round needs -unit: whole rounds are never rounded"},
		{[]string{"-slo", "p99.95=2s"}, `invalid value "p99.95=2s" for flag -slo: p99.95=2s: want p50 to p99.9 or max`},
		{[]string{"-slo", "p49=2s"}, "p49=2s: want p50 to p99.9 or max"},
		{[]string{"-slo", "p99.125=2s"}, "p99.125=2s: want p50 to p99.9 or max, in steps of 0.01"},
		{[]string{"-slo", "p099=2s"}, "p099=2s: want p50 to p99.9 or max, with no leading zero (p099 could mean p99 or p0.99)"},
		{[]string{"-slo", "p0=2s"}, "p0=2s: want p50 to p99.9 or max"},
		{[]string{"-slo", "p100=2s"}, "p100=2s: want p50 to p99.9 or max"},
		{[]string{"-slo", "p1" + strings.Repeat("0", 400) + "=2s"}, "=2s: want p50 to p99.9 or max"},
		{[]string{"-slo", "p.5=2s"}, `"p.5=2s": want pNN=DURATION or max=DURATION, such as p99=2s`},
		{[]string{"-slo", "p99"}, `"p99": want pNN=DURATION or max=DURATION, such as p99=2s`},
		{[]string{"-slo", "p99=2"}, "p99=2: want a positive duration after =, such as 2s or 250ms"},
		{[]string{"-slo", "max=0s"}, "max=0s: want a positive duration after =, such as 2s or 250ms"},
		{[]string{"-slo", "p99=2562048h"}, "p99=2562048h: want a duration after = of at most 2562047h47m16.854775807s, the longest a time.Duration holds"},
		{[]string{"-slo", "p99=1s", "-slo-on", "finish"}, `invalid value "finish" for flag -slo-on: want response or wait`},
		{[]string{"-slo", "p99=1s", "-arrivals", "uniform"}, `invalid value "uniform" for flag -arrivals: want trace or poisson`},
		{[]string{"-slo-on", "wait"}, "konvoy plan: -slo-on needs -slo"},
		{[]string{"-arrivals", "poisson"}, "konvoy plan: -arrivals needs -slo"},
		{[]string{"-plot", "dir"}, "konvoy plan: -plot needs -slo"},
		{[]string{"-layouts", "recorded"}, "konvoy plan: -layouts recorded runs each event in the partition its trace recorded, and the lesson's events record none"},
		{[]string{"-layouts", "recorded:3"}, "konvoy plan: -layouts recorded:3 runs each event in the partition its trace recorded"},
		{[]string{"-slo", "p99=1s", "-seed", "3"}, "konvoy plan: -seed needs -duration-model or -arrivals poisson"},
	} {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			out, errOut, status := runCommand(append([]string{"plan"}, tt.args...)...)
			if status != 2 || out != "" || !strings.Contains(errOut, tt.want) {
				t.Fatalf("status %d, stdout %q, stderr %q; want 2, nothing, and %q", status, out, errOut, tt.want)
			}
		})
	}
	out, errOut, status := runCommand("plan", "-h")
	if status != 0 || out != "" || !strings.Contains(errOut, "usage: konvoy plan") {
		t.Errorf("-h: status %d, stdout %q, stderr %q", status, out, errOut)
	}
	// -plot draws the latency picture, not the report's pictures.
	if !strings.Contains(errOut, "with -slo, also draw the percentile against the consumers tried") || strings.Contains(errOut, "schedules") {
		t.Errorf("-h describes -plot as the report's:\n%s", errOut)
	}
}

// TestPlanBadTrace wants each class of bad input reported as FILE:LINE and
// what was wrong, exit status 1, and no plan.
func TestPlanBadTrace(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct {
		name, file, content string
		args                []string
		want                string
	}{
		{"bad duration", "bad.csv", "key,line,status,duration\nA,H1,accepted,1\nA,H1,transfer,2.5\n", nil,
			`bad.csv:3: field "duration": value "2.5": want a whole number of rounds ≥ 0`},
		{"unknown status", "bad.csv", "key,line,status,duration\nA,H1,accepted,1\nA,H1,lost,1\n", nil,
			`bad.csv:3: field "status": value "lost": want an ordered status (-steps: accepted,transfer,out-for-delivery,delivered) or a history status (-history: scanned,weighed)`},
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
			for _, format := range []string{"text", "json"} {
				out, errOut, status := runCommand(append([]string{"plan"}, withStatuses(append([]string{"-events", path, "-format", format}, tt.args...)...)...)...)
				want := strings.Replace(tt.want, tt.file, path, 1) + "\n"
				if status != 1 || out != "" || errOut != want {
					t.Fatalf("-format %s: status %d, stdout %q, stderr\n%q\nwant 1, nothing, and\n%q", format, status, out, errOut, want)
				}
			}
		})
	}
	_, errOut, status := runCommand("plan", "-events", filepath.Join(dir, "none.csv"))
	if status != 1 || !strings.Contains(errOut, "no such file") {
		t.Errorf("missing file: status %d, stderr %q; want 1 and no such file", status, errOut)
	}
}

// TestPlanSLOWithoutArrivals wants a trace whose events all arrive in one
// round, the lesson's too, refused for -arrivals trace, with what to do;
// at round 5 it has arrival times, all alike, and the error says so (it
// said the trace had none: found by a review).
func TestPlanSLOWithoutArrivals(t *testing.T) {
	for _, args := range [][]string{{"plan", "-slo", "p99=1s"}, append([]string{"plan", "-slo", "p99=1s", "-peak", "5"}, withStatuses("-events", "testdata/shipments.csv")...)} {
		out, errOut, status := runCommand(args...)
		if status != 1 || out != "" || !strings.Contains(errOut, "arrives at round 0, one burst with no arrival times to plan a steady state at: plan with -arrivals poisson, which draws arrivals at -peak\n") {
			t.Errorf("%q: status %d, stdout %q, stderr %q", args, status, out, errOut)
		}
	}
	out, errOut, status := runWithInput("key,line,step,duration,at\na,L,1,1,5\nb,L,1,1,5\n", "plan", "-events", "-", "-slo", "p99=1s")
	if want := "konvoy plan: -slo: every event of <stdin> arrives at round 5, one burst"; status != 1 || out != "" || !strings.Contains(errOut, want) {
		t.Errorf("a trace arriving at round 5: status %d, stdout %q, stderr %q; want 1 and %q", status, out, errOut, want)
	}
}

// TestPlanSLOPlot wants -plot to draw the latency percentile against
// consumers, SVG and PNG, whatever the format of the report; and a plan
// that needs no picture to draw none.
func TestPlanSLOPlot(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "pictures")
	args := []string{"plan", "-events", "testdata/slo.csv", "-slo", "p99=200ms", "-layouts", "free,convoy", "-max-consumers", "40", "-plot", dir}
	for _, format := range []string{"text", "json"} {
		_, errOut, status := runCommand(append(args, "-format", format)...)
		if status != 0 || errOut != "" {
			t.Fatalf("status %d, stderr %q", status, errOut)
		}
		for _, name := range []string{"slo.svg", "slo.png"} {
			if b, err := os.ReadFile(filepath.Join(dir, name)); err != nil || len(b) < 1000 {
				t.Errorf("-format %s: %s: %d bytes, %v", format, name, len(b), err)
			}
		}
	}
	svg, _ := os.ReadFile(filepath.Join(dir, "slo.svg"))
	for _, want := range []string{"p99 of the response against consumers", "target: 20 rounds (200ms)", "convoy"} {
		if !strings.Contains(string(svg), want) {
			t.Errorf("slo.svg lacks %q", want)
		}
	}
}

// TestPlanSLOArrivalsOutOfRange wants arrivals that a peak far too low
// would put beyond any round refused, at the first such event: scaled
// from the trace's first arrival, round 1, the first that moves is event 1.
func TestPlanSLOArrivalsOutOfRange(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"-arrivals", "poisson", "-peak", "1e-300"}, "konvoy plan: -slo: event 0 would arrive at round 1.862e+302 at 1e-302 events per round"},
		{[]string{"-peak", "1e-300"}, fmt.Sprintf("konvoy plan: -slo: event 1, arriving at round 2, would arrive at round 1+8.207e+301 scaled by 8.207e+301; want at most round 1+%d", synth.MaxSpan)},
	} {
		out, errOut, status := runCommand(append([]string{"plan", "-events", "testdata/slo.csv", "-slo", "p99=1s", "-layouts", "free"}, tt.args...)...)
		if status != 1 || out != "" || !strings.HasPrefix(errOut, tt.want) {
			t.Errorf("%q: status %d, stdout %q, stderr %q; want 1 and %q", tt.args, status, out, errOut, tt.want)
		}
	}
}

// TestPlanSLONeverBelowTheLoad runs the plans that answered fewer
// consumers than carry the load: slo.csv scaled to 200 events/s (7 for
// free, where its 10021 rounds of work over 1000 rounds need 11), and
// arrivals.csv at Poisson arrivals (1 at 97.22 events/s, where 124 rounds
// over the 61.72 rounds its 60 events take at 0.9722 a round need 3;
// without -peak now at the trace's own 146.34 events/s, where 124 rounds
// over 41 need 4). The Poisson plans' load is the rate's, not the rounds
// one draw of arrivals falls in (63 and 44, which gave 2 and 3).
func TestPlanSLONeverBelowTheLoad(t *testing.T) {
	for _, c := range []struct {
		args []string
		want map[string]int // consumers by layout
	}{
		{[]string{"-events", "testdata/slo.csv", "-slo", "p99=5s", "-peak", "200"}, map[string]int{"free": 11, "convoy": 11}},
		{[]string{"-events", "testdata/arrivals.csv", "-slo", "p99=1s", "-arrivals", "poisson", "-peak", "97.22"}, map[string]int{"free": 3, "convoy": 3}},
		{[]string{"-events", "testdata/arrivals.csv", "-slo", "p99=1s", "-arrivals", "poisson"}, map[string]int{"free": 4, "convoy": 4}},
	} {
		out, errOut, status := runCommand(append([]string{"plan", "-layouts", "free,convoy", "-format", "json"}, c.args...)...)
		if status != 0 || errOut != "" {
			t.Fatalf("%v: status %d, stderr %q", c.args, status, errOut)
		}
		var doc struct {
			Plans []struct {
				Layout string
				SLO    struct {
					Consumers int
					LoadFloor int `json:"load_floor"`
				}
			}
		}
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatal(err)
		}
		for _, p := range doc.Plans {
			if p.SLO.Consumers != c.want[p.Layout] || p.SLO.LoadFloor != c.want[p.Layout] {
				t.Errorf("%v: %s: %d consumers, load floor %d; want %d, the load", c.args, p.Layout, p.SLO.Consumers, p.SLO.LoadFloor, c.want[p.Layout])
			}
		}
	}
}

// TestPlanSLOShowsTheFloorAsTheFloor: with at most 4 consumers, fewer than
// slo.csv's load needs, no count is tried, and the table marks the p99 it
// shows as the floor's, not a count's.
func TestPlanSLOShowsTheFloorAsTheFloor(t *testing.T) {
	out, errOut, status := runCommand("plan", "-events", "testdata/slo.csv", "-slo", "p99=200ms", "-max-consumers", "4", "-layouts", "free")
	if status != 0 || errOut != "" {
		t.Fatalf("status %d, stderr %q", status, errOut)
	}
	for _, want := range []string{
		"free    head-of-line          -     floor 9  floor 90ms            -  -\n",
		"free under head-of-line tries no count: the offered load needs at least 5 consumers, more than the 4",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the plan lacks %q:\n%s", want, out)
		}
	}
}

// TestPlanSpeaksItsOwnLanguage: -plot's errors name konvoy plan, and a
// target shorter than a round is said as given, with its whole rounds, not
// as "at most 0s".
func TestPlanSpeaksItsOwnLanguage(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	_, errOut, status := runCommand("plan", "-events", "testdata/slo.csv", "-slo", "p99=200ms", "-layouts", "free", "-plot", filepath.Join(file, "dir"))
	if status != 1 || !strings.HasPrefix(errOut, "konvoy plan: -plot: ") {
		t.Errorf("-plot under a file: status %d, stderr %q; want 1 and konvoy plan: -plot: …", status, errOut)
	}
	out, errOut, status := runCommand("plan", "-events", "testdata/slo.csv", "-slo", "p99=5ms", "-layouts", "free")
	if status != 0 || errOut != "" || !strings.Contains(out, "the fewest whose p99 is at most 5ms (0 rounds)") || strings.Contains(out, "at most 0s") {
		t.Errorf("-slo p99=5ms: status %d, stderr %q:\n%s", status, errOut, out)
	}
}

// TestPlanTakesRecordedFromTheTrace: -layouts recorded plans the topic of
// as many partitions as the trace's highest plus one, as the report does
// (recorded:6 for the kcat export), and a trace without a partition column
// is an error that says so.
func TestPlanTakesRecordedFromTheTrace(t *testing.T) {
	out, errOut, status := runCommand("plan", "-events", "../../testdata/export.jsonl", "-key", "key", "-status", "payload.status", "-steps", "new,paid,shipped,delivered",
		"-at", "ts", "-at-format", "unix-ms", "-unit", "1ms", "-reorder", "1s", "-duration-model", "lognormal:5,0.5", "-layouts", "recorded", "-policy", "static", "-peak", "1")
	// The text plan's header says what reading the trace changed, as the
	// report's does, and standard error says nothing.
	modelled := "\ndurations modelled: each drawn from lognormal:5,0.5 rounds, not read from the trace\n"
	if status != 0 || errOut != "" || !strings.Contains(out, modelled) || !strings.Contains(out, "\nrecorded:6  static ") {
		t.Errorf("status %d, stderr %q:\n%s", status, errOut, out)
	}
	_, errOut, status = runCommand("plan", "-events", "testdata/slo.csv", "-layouts", "recorded")
	if want := `testdata/slo.csv:1: want a column "partition"`; status != 1 || !strings.HasPrefix(errOut, want) {
		t.Errorf("a trace without partitions: status %d, stderr %q; want 1 and %q", status, errOut, want)
	}
}

// TestPlanKeepUpAndLatencyAgreeOnTheRate: a trace that arrives at 20
// events a round, 2,000 a second, planned at -peak 2000, kept up with no
// count at all before, from its own arrival times, while 40 consumers met
// p99 at that rate: the keep-up plans now take the events as work at hand,
// at the same rate as the latency objective, and need about the consumers
// the latency objective's load does.
func TestPlanKeepUpAndLatencyAgreeOnTheRate(t *testing.T) {
	var b strings.Builder
	b.WriteString("key,step,duration,at\n")
	for i := range 2000 {
		fmt.Fprintf(&b, "K%d,1,%d,%d\n", i%300, 1+i%3, i/20)
	}
	file := filepath.Join(t.TempDir(), "rate20.csv")
	if err := os.WriteFile(file, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, status := runCommand("plan", "-events", file, "-peak", "2000", "-slo", "p99=500ms", "-layouts", "free", "-format", "json")
	if status != 0 || errOut != "" {
		t.Fatalf("status %d, stderr %q", status, errOut)
	}
	var doc struct {
		KeepUpAtHand bool `json:"keep_up_at_hand"`
		Plans        []struct {
			KeepsUp   bool `json:"keeps_up"`
			Consumers int
			SLO       struct{ Consumers int }
		}
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	// 4,000 rounds of work at 2,000 events/s over the 100 rounds the 2,000
	// events take: 40 consumers' worth, which meet p99; at hand, events of
	// 1 to 3 rounds do not pack into 100 rounds on 40, and take 41.
	if p := doc.Plans[0]; !doc.KeepUpAtHand || !p.KeepsUp || p.Consumers != 41 || p.SLO.Consumers != 40 {
		t.Errorf("%+v; want 41 consumers to keep up, 40 to meet p99", doc)
	}
}

// The events konvoy plan holds follow -max-memory: at most an eighth of
// it, within the quarter left to the garbage collector, and never more
// than planHeldBytes; the plan itself does not change.
func TestPlanHoldsEventsWithinMaxMemory(t *testing.T) {
	for maxMemory, want := range map[int]int{1 << 30: planHeldBytes, 8 * planHeldBytes: planHeldBytes, 16 << 20: 2 << 20, 1000: 125} {
		if got := planHeld(maxMemory); got != want {
			t.Errorf("planHeld(%d) = %d; want %d", maxMemory, got, want)
		}
	}
	args := append(append([]string{"plan"}, withStatuses()...), "-events", "testdata/shipments.csv")
	want, errOut, status := runCommand(args...)
	if status != 0 || errOut != "" {
		t.Fatalf("status %d, stderr %q", status, errOut)
	}
	if got, errOut, status := runCommand(append(args, "-max-memory", "2MiB")...); status != 0 || got != want {
		t.Errorf("-max-memory 2MiB: status %d, stderr %q, plan:\n%s\nwant:\n%s", status, errOut, got, want)
	}
}

// A trace scaled to a peak of several events a round falls in a few whole
// rounds, or one: the latency plan's load is the peak's all the same, and
// a higher peak never needs fewer consumers. A hundred events of one round
// at -peak P (10ms rounds) bring P/100 consumers' worth. (Before, -peak
// 6666 answered 50 consumers, the rounds 0 and 1 its arrivals fell in,
// and -peak 9999 and 50000, every arrival in round 0, a burst of 20;
// found by a review.)
func TestPlanSLOAtAScaledPeakCarriesThePeaksLoad(t *testing.T) {
	var b strings.Builder
	b.WriteString("key,step,duration,at\n")
	for i := range 100 {
		fmt.Fprintf(&b, "K%d,1,1,%d\n", i, i)
	}
	path := filepath.Join(t.TempDir(), "even.csv")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	last := 0
	for _, c := range []struct {
		peak string
		load int
	}{{"5000", 50}, {"6666", 67}, {"9999", 100}, {"50000", 500}} {
		out, errOut, status := runCommand("plan", "-events", path, "-layouts", "free", "-slo", "p99=50ms", "-peak", c.peak, "-format", "json")
		if status != 0 || errOut != "" {
			t.Fatalf("-peak %s: status %d, stderr %q", c.peak, status, errOut)
		}
		var doc struct {
			Plans []struct {
				SLO struct {
					Meets     bool
					Consumers int
					LoadFloor int `json:"load_floor"`
				}
			}
		}
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatal(err)
		}
		s := doc.Plans[0].SLO
		if !s.Meets || s.LoadFloor != c.load || s.Consumers < c.load || s.Consumers < last {
			t.Errorf("-peak %s: meets %v on %d consumers, load floor %d; want at least %d, the load, and %d, the lower peak's", c.peak, s.Meets, s.Consumers, s.LoadFloor, c.load, last)
		}
		last = s.Consumers
	}
}

// A plan says how many events -late drop dropped, as the report does: the
// text plan's header says it (and standard error nothing), and the JSON
// plan counts them in late_dropped, a partial trace never read as a whole
// one (found by a review).
func TestAPlanSaysTheEventsDroppedAsLate(t *testing.T) {
	path := filepath.Join(t.TempDir(), "late.jsonl")
	trace := `{"key":"A","step":1,"duration":"1ms","ts":1000}` + "\n" + `{"key":"B","step":1,"duration":"1ms","ts":3000}` + "\n" +
		`{"key":"C","step":1,"duration":"1ms","ts":500}` + "\n" + `{"key":"D","step":1,"duration":"1ms","ts":5000}` + "\n"
	if err := os.WriteFile(path, []byte(trace), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"plan", "-events", path, "-at", "ts", "-at-format", "unix-ms", "-unit", "1ms", "-reorder", "1s", "-late", "drop", "-layouts", "free"}
	note := "1 event dropped: each arrived earlier than an event the -reorder window had released (-late drop)\n"
	out, errOut, status := runCommand(args...)
	if status != 0 || errOut != "" || !strings.Contains(out, "work 3 rounds\n"+note) {
		t.Errorf("text: status %d, stderr %q; want the header to say %q:\n%s", status, errOut, note, out)
	}
	out, errOut, status = runCommand(append(args, "-format", "json")...)
	var doc struct {
		Events      int `json:"events"`
		LateDropped int `json:"late_dropped"`
	}
	if err := json.Unmarshal([]byte(out), &doc); status != 0 || err != nil || doc.Events != 3 || doc.LateDropped != 1 || errOut != "konvoy plan: note: "+note {
		t.Errorf("json: status %d, %v, %+v, stderr %q; want 3 events, late_dropped 1, and the note", status, err, doc, errOut)
	}
}
