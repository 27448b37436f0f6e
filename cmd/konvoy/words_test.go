package main

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/sirali-konvoy/konvoy/internal/report"
)

// libraryName matches what only a library user can read: an option, a
// package-qualified field, a function of konvoy or eventlog.
var libraryName = regexp.MustCompile(`\bWith[A-Z][A-Za-z]*|\bReader\.|\bDecoder\b|\bOpen and Decompress\b|\bSweep:|\bPartitionsFor\b|\bsynth[.:]|raise the rate`)

// The command's errors name its flags, not the libraries' options and
// fields: a run over -max-memory, a backlog over -max-backlog, a trace
// compressed twice, a key or a record over the reader's limits.
func TestErrorsSpeakTheCommandsLanguage(t *testing.T) {
	data, err := os.ReadFile("testdata/arrivals.csv")
	if err != nil {
		t.Fatal(err)
	}
	var twice bytes.Buffer
	inner := gzip.NewWriter(&twice)
	outer := gzip.NewWriter(inner)
	outer.Write(data)
	outer.Close()
	inner.Close()
	dir := t.TempDir()
	gz := filepath.Join(dir, "t.csv.gz")
	if err := os.WriteFile(gz, twice.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, stdin string
		args        []string
		want        string
	}{
		{"memory", "", []string{"-events", "testdata/arrivals.csv", "-max-memory", "1MiB"}, "(three quarters of -max-memory)"},
		{"backlog", "", []string{"-events", "testdata/arrivals.csv", "-max-backlog", "28", "-layouts", "all", "-policy", "lane-aware"}, "(its share of -max-backlog)"},
		{"gzip twice", "", []string{"-events", gz}, "decompress it first (konvoy undoes one layer of gzip, no more)"},
		{"long key", "key,step,duration\n" + strings.Repeat("k", 5000) + ",1,1\n", []string{"-events", "-"}, "want at most 4096 bytes; it has 5000"},
		{"long record", "key,step,duration\nk,1," + strings.Repeat("1", 17<<20) + "\n", []string{"-events", "-"}, "want a record of at most 16777216 bytes; this one is longer"},
		{"poisson arrivals too sparse", "", []string{"plan", "-events", "testdata/arrivals.csv", "-slo", "p99=1s", "-arrivals", "poisson", "-peak", "1e-300"}, "events per round; want at most round "},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, errOut, status := runWithInput(c.stdin, c.args...)
			if status != 1 || !strings.Contains(errOut, c.want) || libraryName.MatchString(errOut) {
				t.Errorf("status %d, stderr %q; want 1 and %q, with no library name", status, errOut, c.want)
			}
		})
	}
}

// Every library phrase that CommandWords rewrites is in a library message:
// a message reworded in the library, with CommandWords left behind, would
// reach the command in the library's words.
func TestCommandWordsRewritesPhrasesTheLibrariesSay(t *testing.T) {
	var source strings.Builder
	for _, pattern := range []string{"../../*.go", "../../eventlog/*.go", "../../synth/*.go"} {
		files, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			source.Write(b)
		}
	}
	for _, phrase := range []string{" (WithMaxMemory)", " (WithMaxBacklog)", "konvoy: Sweep: ", " (Reader.MaxRecordBytes)",
		" (Reader.MaxNameBytes)", " (Reader.MaxReorderBytes)", " (Open and Decompress undo one layer of gzip)", ": raise the rate"} {
		if !strings.Contains(source.String(), phrase) {
			t.Errorf("no library message says %q any more; update report.CommandWords", phrase)
		}
		if got := report.CommandWords("x" + phrase + "y"); strings.Contains(got, phrase) || libraryName.MatchString(got) {
			t.Errorf("CommandWords keeps a library name: %q", got)
		}
		if got := report.PageWords("x" + phrase + "y"); strings.Contains(got, phrase) || libraryName.MatchString(got) {
			t.Errorf("PageWords keeps a library name: %q", got)
		}
	}
}

// onePlural matches a count of one with a plural noun.
var onePlural = regexp.MustCompile(`(^|[^0-9.,])1 (consumers|rounds|events|keys|lines|lanes|partitions|consumer-rounds)\b|\b1 (are|get)\b`)

// The reports write a count of one in the singular: "1 consumer", "1
// round", in the lesson's report at one consumer and in a trace's of one
// event at one consumer, with every section the text report has.
func TestReportsWriteOneInTheSingular(t *testing.T) {
	lesson, errOut, status := runCommand("-consumers", "1", "-policy", "head-of-line,static")
	if status != 0 {
		t.Fatalf("the lesson: status %d, stderr %q", status, errOut)
	}
	trace, errOut, status := runWithInput("key,line,step,duration\nk,L,1,1\n", "-events", "-", "-consumers", "1", "-layouts", "free,convoy,partitioned:1",
		"-policy", "head-of-line,static", "-gantt", "-capacity")
	if status != 0 {
		t.Fatalf("the trace: status %d, stderr %q", status, errOut)
	}
	one := "key,line,step,duration,at\nk,L,1,1,0\n"
	plan, errOut, status := runWithInput(one, "plan", "-events", "-", "-max-consumers", "1", "-layouts", "free,convoy,partitioned:1", "-policy", "head-of-line,static")
	if status != 0 {
		t.Fatalf("the plan: status %d, stderr %q", status, errOut)
	}
	slo, errOut, status := runWithInput(one, "plan", "-events", "-", "-max-consumers", "1", "-layouts", "free,convoy", "-slo", "p99=10ms", "-arrivals", "poisson")
	if status != 0 {
		t.Fatalf("the latency plan: status %d, stderr %q", status, errOut)
	}
	for name, out := range map[string]string{"the lesson": lesson, "the trace": trace, "the plan": plan, "the latency plan": slo} {
		for _, line := range strings.Split(out, "\n") {
			if onePlural.MatchString(line) {
				t.Errorf("%s's report writes one in the plural: %q", name, line)
			}
		}
	}
	for _, want := range []string{"1 event, 1 key (0 out of order), 1 line, 1 consumer, work 1 round", "at 1 consumer, head-of-line dispatch", "of 1 consumer-round (1 × 1)"} {
		if !strings.Contains(trace, want) {
			t.Errorf("the trace's report lacks %q:\n%s", want, trace)
		}
	}
	if _, errOut, _ := runCommand("gen", "-events", "1", "-rate", "1e-300"); !strings.Contains(errOut, "spreads 1 event over") {
		t.Errorf("konvoy gen of one event at too low a rate: %q; want spreads 1 event", errOut)
	}
	_, errOut, _ = runCommand("-events", "testdata/arrivals.csv", "-max-memory", "1MiB")
	if !strings.Contains(errOut, "on 1 consumer needs") {
		t.Errorf("a run over -max-memory: %q; want on 1 consumer", errOut)
	}
}
