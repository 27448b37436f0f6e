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
		{[]string{"-consumers", "0"}, "konvoy: -consumers is 0; want at least 1"},
		{[]string{"-consumers", "x"}, `invalid value "x" for flag -consumers`},
		{[]string{"-nope"}, "flag provided but not defined: -nope"},
		{[]string{"extra"}, `konvoy: unexpected argument "extra"`},
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
