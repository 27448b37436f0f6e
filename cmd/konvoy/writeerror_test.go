package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A report that cannot be written is an error that names the command, as
// konvoy gen's is (TestGenWriteError): konvoy replay's said only the
// write's words (found by a review).
func TestAReportThatCannotBeWrittenNamesItsCommand(t *testing.T) {
	trace := filepath.Join(t.TempDir(), "t.csv")
	if err := os.WriteFile(trace, []byte("key,step,duration\na,1,1\nb,1,2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"-events", trace, "-layouts", "convoy"},
		{"plan", "-events", trace, "-layouts", "convoy"},
		{"replay", "-events", trace, "-unit", "1us"},
	} {
		var errOut bytes.Buffer
		status := run(args, strings.NewReader(""), &failingWriter{}, &errOut)
		name := "konvoy"
		if args[0] != "-events" {
			name += " " + args[0]
		}
		if last := lastLine(errOut.String()); status != 1 || last != name+": disk full" {
			t.Errorf("%s: status %d, stderr's last line %q; want 1 and %q", name, status, last, name+": disk full")
		}
	}
}

// lastLine returns the last line of s, without its line end.
func lastLine(s string) string {
	s = strings.TrimSuffix(s, "\n")
	return s[strings.LastIndexByte(s, '\n')+1:]
}

// An -applied file that cannot be written is an error that names the
// command, as one that cannot be made does (found by a review: it said
// "replay: -applied: write /dev/full: ...").
func TestAnAppliedFileThatCannotBeWrittenNamesTheCommand(t *testing.T) {
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("no /dev/full here")
	}
	trace := filepath.Join(t.TempDir(), "t.csv")
	if err := os.WriteFile(trace, []byte("key,step,duration\na,1,1\nb,1,2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	status := run([]string{"replay", "-events", trace, "-unit", "1us", "-applied", "/dev/full"}, strings.NewReader(""), &out, &errOut)
	if last := lastLine(errOut.String()); status != 1 || !strings.HasPrefix(last, "konvoy replay: -applied: ") {
		t.Errorf("status %d, stderr's last line %q; want 1 and konvoy replay: -applied: ...", status, last)
	}
}
