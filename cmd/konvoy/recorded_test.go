package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// -layouts names no layout twice, recorded included once the trace gives
// its partition count: on a trace whose highest partition is 7,
// recorded:8,recorded names recorded:8 twice, in konvoy's report and in
// konvoy plan's, whose JSON keys costs by layout name.
func TestRecordedNamedTwiceIsAnError(t *testing.T) {
	trace := filepath.Join(t.TempDir(), "partitions.csv")
	if err := os.WriteFile(trace, []byte("key,step,duration,partition\nA,1,1,0\nA,2,1,5\nB,1,2,7\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"-events", trace, "-layouts", "recorded:8,recorded"},
		{"plan", "-events", trace, "-layouts", "recorded:8,recorded"},
	} {
		out, errOut, status := runCommand(args...)
		if status == 0 || !strings.Contains(errOut, "twice") {
			t.Errorf("%q: status %d, stderr %q; want an error naming recorded:8 twice, not:\n%.700s", args, status, errOut, out)
		}
	}
}

// The layout recorded runs each event in the partition its trace recorded,
// so every command refuses it, of any partition count, on events that
// record none: a trace without a partition column, and the lesson.
func TestRecordedNeedsAPartitionColumnEverywhere(t *testing.T) {
	trace := filepath.Join(t.TempDir(), "t.csv")
	if err := os.WriteFile(trace, []byte("key,step,duration\nA,1,1\nA,2,3\nB,1,2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"plan", "-events", trace, "-layouts", "recorded:3"},
		{"plan", "-layouts", "recorded:3"},
		{"-format", "csv", "-layouts", "recorded:3", "-consumers", "2"},
		{"-format", "json", "-layouts", "recorded", "-consumers", "2"},
		{"-format", "csv", "-layouts", "recorded", "-consumers", "2"},
	} {
		out, errOut, status := runCommand(args...)
		if status == 0 || strings.Contains(out, "recorded:") {
			t.Errorf("%q: status %d, stderr %q; want an error naming the missing partition column, not:\n%.400s", args, status, errOut, out)
		}
	}
}

// -layouts all includes recorded for a trace with a partition column
// read from a file; from standard input, whose partition count is known
// only once it is read whole, it leaves recorded out and says so.
func TestLayoutsAllOnStandardInputSaysItLeftRecordedOut(t *testing.T) {
	const trace = "key,line,step,duration,partition\nA,x,1,1,0\nA,x,2,1,5\nB,y,1,2,7\n"
	file := filepath.Join(t.TempDir(), "partitions.csv")
	if err := os.WriteFile(file, []byte(trace), 0o644); err != nil {
		t.Fatal(err)
	}
	fromFile, errOut, status := runCommand("-events", file, "-layouts", "all", "-format", "csv", "-consumers", "2")
	if status != 0 || !strings.Contains(fromFile, "\nrecorded:8,") {
		t.Fatalf("from a file: status %d, stderr %q; want recorded:8 among the records:\n%s", status, errOut, fromFile)
	}
	fromStdin, errOut, status := runWithInput(trace, "-events", "-", "-layouts", "all", "-format", "csv", "-consumers", "2")
	want := "konvoy: note: -layouts all left out recorded, whose partition count a trace read as it streams (standard input, a pipe) gives only once read whole; read the trace from a file, or name recorded:N\n"
	if status != 0 || strings.Contains(fromStdin, "\nrecorded:") || errOut != want {
		t.Errorf("from standard input: status %d, stderr %q; want 0 and %q:\n%s", status, errOut, want, fromStdin)
	}
	if _, errOut, _ := runWithInput("key,line,step,duration\nA,x,1,1\nB,y,1,2\n", "-events", "-", "-layouts", "all", "-format", "csv"); errOut != "" {
		t.Errorf("a trace without partitions: stderr %q; want nothing said", errOut)
	}
}
