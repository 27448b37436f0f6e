package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// -partition names the column the layout recorded reads: beside layouts
// that read no partitions it would mean nothing, and is a usage error
// naming it, for konvoy and konvoy plan alike; with recorded, or all, the
// column is read, and must be there.
func TestPartitionNeedsTheLayoutRecorded(t *testing.T) {
	applied := filepath.Join(t.TempDir(), "applied.jsonl") // never written: the command line is refused
	for _, args := range [][]string{
		{"-events", "testdata/arrivals.csv", "-layouts", "free,convoy", "-partition", "partition"},
		{"plan", "-events", "testdata/arrivals.csv", "-layouts", "convoy", "-partition", "partition"},
		// replay's -layout, and no -applied to write the partitions: it
		// was read for nothing (found by a review).
		{"replay", "-events", "testdata/arrivals.csv", "-layout", "convoy", "-partition", "partition"},
		{"replay", "-brokers", "127.0.0.1:1", "-topic", "t", "-group", "g", "-duration-model", "fixed:1", "-layout", "convoy", "-partition", "partition", "-applied", applied},
	} {
		status, _, errOut := runUsage(t, args...)
		if status != 2 || !strings.Contains(errOut, "-partition names the column the layout recorded reads") {
			t.Errorf("%q: status %d, stderr %q; want a usage error naming -partition", args, status, errOut)
		}
	}
	// With all, the column is read: arrivals.csv has none by that name.
	if _, errOut, status := runCommand("-events", "testdata/arrivals.csv", "-layouts", "all", "-partition", "part"); status != 1 || !strings.Contains(errOut, `want a column "part", as -partition names it`) {
		t.Errorf("-layouts all -partition part: status %d, stderr %q; want the missing column named", status, errOut)
	}
}

// A trace's column may be named like a role and mean something else: a
// partition column of regions fails every run that reads it, and -partition
// - reads none, beside any layouts but one named recorded, which needs the
// partitions it would not read; -status step reads a step column of
// statuses as statuses.
func TestAColumnThatMeansSomethingElseCanBeLeftUnread(t *testing.T) {
	dir := t.TempDir()
	regions := filepath.Join(dir, "regions.csv")
	if err := os.WriteFile(regions, []byte("key,step,duration,partition\nA,1,2,eu\nA,2,1,us\nB,1,1,eu\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	statuses := filepath.Join(dir, "statuses.csv")
	if err := os.WriteFile(statuses, []byte("key,step,duration\nA,created,2\nA,paid,1\nB,created,1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, errOut, status := runCommand("-events", regions, "-layouts", "free,convoy"); status != 1 ||
		!strings.Contains(errOut, `value "eu": want a partition number, a whole number from 0 to 2147483646; if this column is not the partition, -partition - (NoColumn) reads none`) {
		t.Errorf("regions as partitions: status %d, stderr %q; want the value refused, and how to read none", status, errOut)
	}
	want, errOut, status := runCommand("-events", statuses, "-status", "step", "-steps", "created,paid", "-layouts", "free,convoy")
	if status != 0 {
		t.Fatalf("-status step: status %d, stderr %q", status, errOut)
	}
	// The same events, keys and steps as the statuses' trace: the reports
	// differ only in the trace's name.
	if out, errOut, status := runCommand("-events", regions, "-layouts", "free,convoy", "-partition", "-"); status != 0 || strings.ReplaceAll(out, regions, statuses) != want {
		t.Errorf("-partition -: status %d, stderr %q, stdout\n%s\nwant\n%s", status, errOut, out, want)
	}
	for _, args := range [][]string{
		{"-events", regions, "-layouts", "recorded", "-partition", "-"},
		{"plan", "-events", regions, "-layouts", "convoy,recorded:2", "-partition", "-"},
		{"replay", "-events", regions, "-layout", "recorded:2", "-partition", "-"},
	} {
		status, _, errOut := runUsage(t, args...)
		if status != 2 || !strings.Contains(errOut, "-partition - reads no partitions, and the layout recorded runs each event in its recorded partition") {
			t.Errorf("%q: status %d, stderr %q; want a usage error naming -partition -", args, status, errOut)
		}
	}
}

// -line - reads no lines, which the line convoy needs: the error says so,
// for konvoy and konvoy plan alike, and not that a column "-" is empty.
func TestNoLinesBesideTheLineConvoySaysWhy(t *testing.T) {
	name := filepath.Join(t.TempDir(), "lines.csv")
	if err := os.WriteFile(name, []byte("key,line,step,duration\nA,L,1,1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	want := name + ":2: want a line for layout line-convoy; -line - reads none, so leave line-convoy out of -layouts\n"
	for _, args := range [][]string{
		{"-events", name, "-line", "-", "-layouts", "convoy,line-convoy"},
		{"plan", "-events", name, "-line", "-", "-layouts", "line-convoy"},
	} {
		if out, errOut, status := runCommand(args...); status != 1 || out != "" || errOut != want {
			t.Errorf("%q: status %d, stdout %q, stderr %q; want 1, nothing, and %q", args, status, out, errOut, want)
		}
	}
}
