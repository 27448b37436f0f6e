package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/sirali-konvoy/konvoy/internal/seqtest"

	"github.com/google/go-cmp/cmp"
	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/eventlog"
	"github.com/sirali-konvoy/konvoy/internal/report"
	"github.com/sirali-konvoy/konvoy/synth"
)

// tinyGen is a trace small enough to read in a golden file, with every
// feature on: arrivals, disorder, history-only records and two lines.
var tinyGen = []string{"gen", "-events", "14", "-keys", "3", "-lines", "2", "-rate", "2", "-out-of-order", "0.3", "-duration", "exp:2", "-seed", "7"}

func TestGenGolden(t *testing.T) {
	for _, tt := range []struct {
		golden string
		args   []string
	}{
		{"gen-csv.golden", tinyGen},
		{"gen-jsonl.golden", append(slices.Clone(tinyGen), "-format", "jsonl")},
		{"gen-batch.golden", []string{"gen", "-events", "7", "-keys", "2", "-lines", "1", "-steps", "3", "-ordered", "2", "-duration", "fixed:2"}},
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

// roundTripArgs set every flag of konvoy gen, and roundTripConfig is the
// synth.Config they stand for, written out by hand.
var (
	roundTripArgs = []string{"gen", "-seed", "11", "-events", "5_000", "-keys", "300", "-key-skew", "0.8", "-lines", "9",
		"-line-skew", "0.5", "-steps", "6", "-ordered", "3", "-in-flight", "40", "-out-of-order", "0.05",
		"-duration", "lognormal:0.5,0.6", "-rate", "3", "-burst-every", "50", "-burst-len", "5", "-burst-factor", "4"}
	roundTripConfig = synth.Config{Seed: 11, Events: 5000, Keys: 300, KeySkew: 0.8, Lines: 9, LineSkew: 0.5,
		StepsPerKey: 6, OrderedSteps: 3, InFlight: 40, OutOfOrder: 0.05, Duration: synth.LogNormal(0.5, 0.6),
		Rate: 3, BurstEvery: 50, BurstLen: 5, BurstFactor: 4}
)

// TestGenRoundTrip writes a trace with every flag set, reads it back as
// synth's own events, and feeds it to konvoy -events - in both formats,
// wanting the measures Simulate gives on those events, under the
// command's defaults.
func TestGenRoundTrip(t *testing.T) {
	want := seqtest.Drain(synth.Events(roundTripConfig))
	for _, format := range []string{"csv", "jsonl"} {
		t.Run(format, func(t *testing.T) {
			trace, errOut, status := runCommand(append(slices.Clone(roundTripArgs), "-format", format)...)
			if status != 0 || errOut != "" {
				t.Fatalf("gen: status %d, stderr %q", status, errOut)
			}
			var got []konvoy.Event
			for e, err := range (eventlog.Reader{}).Events(strings.NewReader(trace)) {
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, e)
			}
			if d := cmp.Diff(want, got); d != "" {
				t.Fatalf("the trace read back differs from synth.Events (-want +got):\n%s", d)
			}

			out, errOut, status := runWithInput(trace, "-events", "-", "-format", "json", "-layouts", "all", "-partitions", "5", "-policy", "all", "-consumers", "3")
			if status != 0 || errOut != "" {
				t.Fatalf("-events -: status %d, stderr %q", status, errOut)
			}
			var recs []report.Record
			if err := json.Unmarshal([]byte(out), &recs); err != nil {
				t.Fatal(err)
			}
			if len(recs) != 7*3 {
				t.Fatalf("%d records; want 21, one per layout and policy", len(recs))
			}
			i := 0
			for _, l := range konvoy.AllLayouts(5) {
				for _, p := range konvoy.Policies() {
					// The command reads a trace's keys as starting where they are
					// first seen (-start first-seen, its default for traces).
					r, err := konvoy.Simulate(want, l, 3, konvoy.WithPolicy(p), konvoy.WithResequencer(konvoy.ResequencerConfig{Start: konvoy.StartFirstSeen}))
					if err != nil {
						t.Fatal(err)
					}
					rec := recs[i]
					i++
					if rec.Layout != l.String() || rec.Policy != p.String() || rec.Events != len(want) || rec.Rounds != r.Rounds ||
						rec.BackwardWrites != r.BackwardWrites || rec.WrongFinal != r.WrongFinal || rec.Buffered != r.Buffered ||
						rec.Collision != r.Collision() || rec.WaitP99 != r.Wait.P99 || rec.ResponseMax != r.Response.Max {
						t.Errorf("%s %s: record %+v; Simulate gives %+v", l, p, rec, r)
					}
				}
			}
		})
	}
}

func TestGenIsDeterministic(t *testing.T) {
	a, _, _ := runCommand(tinyGen...)
	b, _, _ := runCommand(tinyGen...)
	c, _, _ := runCommand(append(slices.Clone(tinyGen), "-seed", "8")...)
	if a != b {
		t.Error("the same flags gave two traces")
	}
	if a == c {
		t.Error("another seed gave the same trace")
	}
}

func TestGenFlagsSetConfig(t *testing.T) {
	cfg, f, err := parseGen(roundTripArgs[1:], &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	if f != eventlog.CSV {
		t.Errorf("format %v; want csv by default", f)
	}
	if d := cmp.Diff(roundTripConfig, cfg, cmp.Comparer(func(a, b synth.Dist) bool { return a.String() == b.String() })); d != "" {
		t.Errorf("config (-want +got):\n%s", d)
	}
	cfg, _, err = parseGen(nil, &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(synth.Default(), cfg, cmp.Comparer(func(a, b synth.Dist) bool { return a.String() == b.String() })); d != "" {
		t.Errorf("with no flags, config differs from synth.Default (-want +got):\n%s", d)
	}
}

func TestGenUsageErrors(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"-format", "xml"}, `konvoy gen: -format is "xml"; want csv or jsonl`},
		{[]string{"-duration", "normal:1"}, `konvoy gen: -duration "normal:1": unknown kind "normal"; want fixed, uniform, exp or lognormal`},
		{[]string{"-duration", "uniform:3,1"}, `konvoy gen: -duration "uniform:3,1": uniform bounds are 3 and 1`},
		{[]string{"-keys", "0"}, "konvoy gen: -keys is 0; want 1 to"},
		{[]string{"-events", "-1"}, "konvoy gen: -events is -1; want 1 to"},
		{[]string{"-events", "0"}, "konvoy gen: -events is 0; want 1 to"},
		{[]string{"-events", map[bool]string{true: "99999999999999", false: "2147483647"}[strconv.IntSize == 64]}, "konvoy gen: -events is "}, // past the most events, within an int
		{[]string{"-events", "1e6"}, `invalid value "1e6" for flag -events`},
		// Integers are decimal: the flag package would read 010 as 8 and 0x10 as 16.
		{[]string{"-events", "010"}, `invalid value "010" for flag -events: want a whole number in decimal digits, without a leading zero`},
		{[]string{"-keys", "0x10"}, `invalid value "0x10" for flag -keys: want a whole number in decimal digits`},
		{[]string{"-rate", "1e400"}, `invalid value "1e400" for flag -rate: too large for a float64; want at most 1.7976931348623157e+308 in size`},
		{[]string{"-key-skew", "many"}, `invalid value "many" for flag -key-skew: want a number, such as 0.5, 2 or 1e6`},
		{[]string{"-seed", "0b1"}, `invalid value "0b1" for flag -seed: want a whole number in decimal digits`},
		{[]string{"-seed", "-1"}, "invalid value \"-1\" for flag -seed: want a whole number in decimal digits, 0 or more\n"},
		{[]string{"-seed", "x"}, "invalid value \"x\" for flag -seed: want a whole number in decimal digits\n"},
		{[]string{"-events", "99999999999999999999"}, "-events is 99999999999999999999; want 1 to " + strconv.Itoa(synth.MaxEvents) + " events"},
		{[]string{"-steps", "3", "-ordered", "5"}, "konvoy gen: -ordered is 5; want 0 to 3 ordered steps (at most -steps)"},
		{[]string{"-in-flight", "0"}, "konvoy gen: -in-flight is 0"},
		{[]string{"-key-skew", "-1"}, "konvoy gen: -key-skew is -1; want a finite Zipf exponent ≥ 0"},
		{[]string{"-line-skew", "NaN"}, "konvoy gen: -line-skew is NaN"},
		{[]string{"-out-of-order", "2"}, "konvoy gen: -out-of-order is 2; want a probability from 0 to 1"},
		{[]string{"-rate", "-1"}, "konvoy gen: -rate is -1"},
		{[]string{"-rate", "1e-300"}, "raise -rate"},
		{[]string{"-rate", "1", "-burst-every", "10"}, "konvoy gen: -burst-len is 0; want 1 to 10 rounds (at most -burst-every)\nkonvoy gen: -burst-factor is 0"},
		{[]string{"-events", "1", "-burst-every", "10", "-burst-len", "2", "-burst-factor", "3"}, "konvoy gen: -burst-every needs -rate: bursts change the rate of arrivals"},
		{[]string{"-events", "1", "-rate", "0", "-burst-factor", "3"}, "konvoy gen: -burst-factor needs -rate"},
		{[]string{"-events", "1", "-rate", "2", "-burst-len", "2"}, "konvoy gen: -burst-len needs -burst-every, the period of the bursts"},
		{[]string{"-events", "1", "-rate", "2", "-burst-every", "0", "-burst-factor", "2"}, "konvoy gen: -burst-factor needs -burst-every"},
		// A duration drawn past MaxDuration is refused before any output: the
		// events before it, written, read as a whole trace (found by a review).
		{[]string{"-events", "1000000", "-keys", "1000", "-duration", "lognormal:10,3"},
			"konvoy gen: -duration is lognormal:10,3: event 7165 of -seed 1 draws more than 1073741824 rounds (MaxDuration)"},
		{[]string{"extra"}, `konvoy gen: unexpected argument "extra"`},
		{[]string{"-nope"}, "flag provided but not defined: -nope"},
	} {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			out, errOut, status := runCommand(append([]string{"gen"}, tt.args...)...)
			if status != 2 || out != "" || !strings.Contains(errOut, tt.want) {
				t.Fatalf("status %d, stdout %q, stderr %q; want 2, nothing, and %q", status, out, errOut, tt.want)
			}
		})
	}
	out, errOut, status := runCommand("gen", "-h")
	if status != 0 || out != "" || !strings.Contains(errOut, "usage: konvoy gen") {
		t.Errorf("-h: status %d, stdout %q, stderr %q", status, out, errOut)
	}
}

// failingWriter accepts n bytes, then fails.
type failingWriter struct{ n int }

func (w *failingWriter) Write(p []byte) (int, error) {
	if len(p) > w.n {
		k := w.n
		w.n = 0
		return k, errors.New("disk full")
	}
	w.n -= len(p)
	return len(p), nil
}

func TestGenWriteError(t *testing.T) {
	var errOut bytes.Buffer
	status := run([]string{"gen", "-events", "100000", "-keys", "1000"}, strings.NewReader(""), &failingWriter{n: 1 << 20}, &errOut)
	if status != 1 || errOut.String() != "konvoy gen: disk full\n" {
		t.Errorf("status %d, stderr %q; want 1 and the write error", status, errOut.String())
	}
}

// An integer flag reads Go's decimal literals, with underscores between
// digits and a sign, as the flag package does, and gives back what it
// read.
func TestDecimalFlagsReadDecimalLiterals(t *testing.T) {
	for s, want := range map[string]int64{"0": 0, "7": 7, "-0": 0, "+12": 12, "-12": -12, "10_000": 10000, "9223372036854775807": 1<<63 - 1} {
		var v int64
		if err := (decimal[int64]{p: &v}).Set(s); err != nil || v != want {
			t.Errorf("Set(%q): %d, %v; want %d", s, v, err, want)
		}
		if got := (decimal[int64]{p: &v}).String(); got != strconv.FormatInt(want, 10) {
			t.Errorf("String after Set(%q) = %q", s, got)
		}
	}
	for _, s := range []string{"", "_1", "1_", "1__0", "00", "-07", "0o7", "1.0", " 1", "9223372036854775808"} {
		var v int64
		if err := (decimal[int64]{p: &v}).Set(s); err == nil {
			t.Errorf("Set(%q) = %d; want an error", s, v)
		}
	}
	var u uint64
	if err := (decimal[uint64]{p: &u}).Set("18446744073709551615"); err != nil || u != 1<<64-1 {
		t.Errorf("uint64 Set: %d, %v", u, err)
	}
}

// konvoy gen says, on standard error, what its flags ask that the trace
// cannot show, rather than ignore it: a swap of ordered steps where a
// lifecycle has one, a skew of one key's or one line's share. The trace
// is written all the same.
func TestGenNotesWhatItsFlagsCannotShape(t *testing.T) {
	out, errOut, status := runCommand("gen", "-events", "3", "-ordered", "1", "-out-of-order", "0.9", "-keys", "1", "-key-skew", "1", "-lines", "1", "-line-skew", "2")
	want := "konvoy gen: note: -out-of-order swaps nothing: a lifecycle has fewer than two ordered steps (-ordered, -steps)\n" +
		"konvoy gen: note: -key-skew shapes nothing: -keys 1 gives every lifecycle to the one key\n" +
		"konvoy gen: note: -line-skew shapes nothing: -lines 1 puts every key on the one line\n"
	if status != 0 || errOut != want || strings.Count(out, "\n") != 4 {
		t.Errorf("status %d, stderr %q, stdout %q; want 0, the three notes, and the trace's header and 3 events", status, errOut, out)
	}
	if _, errOut, _ := runCommand("gen", "-events", "3"); errOut != "" {
		t.Errorf("gen at its defaults: stderr %q; want none", errOut)
	}
}

// konvoy gen refuses a trace that holds (synth.Config.Memory) more than
// what is left, less a heap arena (64 MiB) under ulimit -v, before it
// takes any, and says what sets it and what limits it: the Go runtime
// would end the process at the allocation that failed. A trace within
// that, one of at most 4 MiB, or no limit known, runs. (A review found
// that a first version, which took the -max-memory share, refused every
// trace with under 128 MiB left, naming a share of 0TiB, and refused 668
// MiB with 0.83 GiB left, which ran.)
func TestGenRefusesATracePastTheMemoryLeft(t *testing.T) {
	parse := func(args ...string) synth.Config {
		cfg, _, err := parseGen(args, io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		return cfg
	}
	skewed, lone, dflt := parse("-events", "100000000", "-keys", "16777216", "-key-skew", "1"), parse("-events", "1"), parse()
	limit := func(l memoryLimit, ok bool) func() (memoryLimit, bool) {
		return func() (memoryLimit, bool) { return l, ok }
	}
	const mib = 1 << 20
	// The traces' sizes in MiB, rounded up as the error writes them: 668
	// and 11 where int has 64 bits, less where it has 32.
	big, small := (skewed.Memory()+mib-1)/mib, (dflt.Memory()+mib-1)/mib
	if strconv.IntSize == 64 && (big != 668 || small != 11) {
		t.Errorf("the traces hold %d and %d MiB; want 668 and 11, as where int has 64 bits they did", big, small)
	}
	for _, c := range []struct {
		cfg  synth.Config
		l    memoryLimit
		want string
	}{
		{skewed, memoryLimit{left: int64(big-13) * mib}, fmt.Sprintf("the trace holds about %d MiB as it is written (-keys, -lines, their skews and -in-flight set it), "+
			"more than fits, as ulimit -v leaves this process %d MiB of address space, of which the runtime's heap keeps 64 MiB: lower them, or raise ulimit -v", big, big-13)},
		{skewed, memoryLimit{left: 1 << 29, cgroup: true}, fmt.Sprintf("the trace holds about %d MiB as it is written (-keys, -lines, their skews and -in-flight set it), "+
			"more than fits, as its cgroup's memory limit leaves this process 512 MiB of memory: lower them, or raise the cgroup's memory limit", big)},
		{dflt, memoryLimit{left: 18 * mib}, fmt.Sprintf("the trace holds about %d MiB as it is written (-keys, -lines, their skews and -in-flight set it), "+
			"more than fits, as ulimit -v leaves this process 18 MiB of address space, less than the 64 MiB the runtime's heap keeps: lower them, or raise ulimit -v", small)},
		{skewed, memoryLimit{left: 850 * mib}, ""},
		{skewed, memoryLimit{left: 4 << 30}, ""},
		{skewed, memoryLimit{left: 2 << 30, cgroup: true}, ""},
		{dflt, memoryLimit{left: 116 * mib}, ""},
		{lone, memoryLimit{left: 18 * mib}, ""},
		{lone, memoryLimit{}, ""},
		{lone, memoryLimit{left: 1 << 30, cgroup: true}, ""},
	} {
		room, err := genFits(c.cfg, limit(c.l, true))
		if got := fmt.Sprint(err); (c.want == "") != (err == nil) || err != nil && got != c.want {
			t.Errorf("genFits of %d bytes under %+v: %v; want %q", c.cfg.Memory(), c.l, err, c.want)
		}
		// The collector's limit: what is left, less the arena under
		// ulimit -v, and at least the 4 MiB a small trace always gets.
		want := c.l.left
		if !c.l.cgroup {
			want = max(c.l.left-64*mib, 4*mib)
		}
		if err == nil && room != want {
			t.Errorf("genFits under %+v: room %d; want %d", c.l, room, want)
		}
	}
	if room, err := genFits(skewed, limit(memoryLimit{}, false)); room != 0 || err != nil {
		t.Errorf("genFits with no limit known: %d, %v; want 0, nil", room, err)
	}
}
