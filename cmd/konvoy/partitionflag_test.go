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

// -line - reads no lines, which the line convoy needs: beside it, named,
// by all or among the default layouts, it is a usage error, for konvoy,
// konvoy plan and konvoy replay alike, where the first event's error
// named a field "-" (found reading ede1aae's change, and by a review).
// "-" for the arrival under -at-format rounds, or for the duration beside
// -duration-model, reads no column it needs.
func TestNoLinesBesideTheLineConvoySaysWhy(t *testing.T) {
	name := filepath.Join(t.TempDir(), "lines.csv")
	if err := os.WriteFile(name, []byte("key,line,step,duration,at\nA,L,1,1,depot\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"-events", name, "-line", "-", "-layouts", "convoy,line-convoy"},
		{"-events", name, "-line", "-", "-layouts", "all"},
		{"-events", name, "-line", "-"},
		{"plan", "-events", name, "-line", "-"},
		{"replay", "-events", name, "-line", "-", "-layout", "line-convoy"},
	} {
		status, _, errOut := runUsage(t, args...)
		if status != 2 || !strings.Contains(errOut, "-line - reads no lines, and the layout line-convoy runs a lane per line; leave line-convoy out of -layout") {
			t.Errorf("%q: status %d, stderr %q; want a usage error naming -line -", args, status, errOut)
		}
	}
	for _, args := range [][]string{
		{"-events", name, "-line", "-", "-layouts", "free,convoy", "-at", "-", "-at-format", "rounds"},
		{"-events", name, "-line", "-", "-layouts", "free,convoy", "-at", "-", "-duration", "-", "-duration-model", "fixed:1"},
		// all names recorded only for a trace with partitions, which
		// -partition - reads none of: it is no usage error beside all.
		{"-events", name, "-partition", "-", "-at", "-", "-layouts", "all"},
	} {
		if _, errOut, status := runCommand(args...); status != 0 {
			t.Errorf("%q: status %d, stderr %q; want the report", args, status, errOut)
		}
	}
}

// A partition column named for another role is not read as the partition
// by default: the layout recorded then says so, and how to read it as
// both, where it said the trace had no partition column (found by a
// review).
func TestRecordedSaysThePartitionColumnIsAnotherRoles(t *testing.T) {
	name := filepath.Join(t.TempDir(), "kp.csv")
	if err := os.WriteFile(name, []byte("partition,status,duration\n3,new,1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	want := name + `:1: want each event's recorded partition, for layout recorded; the column "partition" is named for another role, and so not read as the partition: -partition partition reads it as both` + "\n"
	if _, errOut, status := runCommand("-events", name, "-key", "partition", "-steps", "new", "-layouts", "free,recorded"); status != 1 || errOut != want {
		t.Errorf("status %d, stderr %q; want 1 and %q", status, errOut, want)
	}
	if _, errOut, status := runCommand("-events", name, "-key", "partition", "-partition", "partition", "-steps", "new", "-layouts", "free,recorded"); status != 0 {
		t.Errorf("-partition partition: status %d, stderr %q; want the report", status, errOut)
	}
}
