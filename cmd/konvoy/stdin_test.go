package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// runFromPipe runs the command with args, its standard input the read end
// of a pipe into which it writes input and which it leaves open until the
// command returns, or until a minute has passed, when it fails the test: a
// command that waits for the end of its input never returns.
func runFromPipe(t *testing.T, input string, args ...string) (stdout, stderr string, status int) {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	if _, err := w.WriteString(input); err != nil {
		t.Fatal(err)
	}
	type result struct {
		out, errOut string
		status      int
	}
	done := make(chan result, 1)
	go func() {
		var out, errOut strings.Builder
		status := run(args, r, &out, &errOut)
		done <- result{out.String(), errOut.String(), status}
	}()
	select {
	case res := <-done:
		return res.out, res.errOut, res.status
	case <-time.After(time.Minute):
		w.Close() // let the command end
		<-done
		t.Fatalf("%q waited for the end of its input", args)
	}
	return "", "", 0
}

// A bad line in standard input is reported as it arrives, while the
// writer still holds the pipe open, whether the runs take one pass or may
// take more (then standard input is copied as it is read, and the copy
// removed on the way out), and by konvoy plan too.
func TestStandardInputIsReadAsItArrives(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	input := "key,line,step,duration\nA,H1,1,1\nB,H1,x,1\n"
	for _, args := range [][]string{
		{"-events", "-", "-layouts", "convoy", "-consumers", "2"},
		{"-events", "-"},
		{"-events", "-", "-layouts", "all", "-policy", "all", "-format", "json"},
		{"plan", "-events", "-"},
	} {
		out, errOut, status := runFromPipe(t, input, args...)
		want := `<stdin>:3: field "step": value "x": want a whole number ≥ 0 (0 for a history-only record); if this column is not the step, -step - (NoColumn) reads none` + "\n"
		if status != 1 || out != "" || errOut != want {
			t.Errorf("%q: status %d, stdout %q, stderr %q; want 1, nothing, and %q", args, status, out, errOut, want)
		}
		if left, _ := os.ReadDir(tmp); len(left) > 0 {
			t.Errorf("%q left %v in $TMPDIR", args, left[0].Name())
		}
	}
}

// Standard input needs no temporary file when the runs take one pass, as a
// layout's few consumer counts do: TMPDIR that cannot be written changes
// nothing. A report over several passes leaves nothing in $TMPDIR.
func TestStandardInputWithoutATemporaryDirectory(t *testing.T) {
	data, err := os.ReadFile("testdata/arrivals.csv")
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"-layouts", "convoy"},
		{"-layouts", "free,convoy,line-convoy", "-consumers", "1,2,4,8,16"},
		{"-format", "json", "-policy", "all", "-layouts", "free,convoy,resequencer"},
	} {
		want, errWant, status := runCommand(append([]string{"-events", "testdata/arrivals.csv"}, args...)...)
		if status != 0 {
			t.Fatalf("%q: status %d, %s", args, status, errWant)
		}
		want = strings.ReplaceAll(want, "testdata/arrivals.csv", "<stdin>")
		for _, tmp := range []string{filepath.Join(t.TempDir(), "nonexistent"), t.TempDir()} {
			t.Setenv("TMPDIR", tmp)
			got, errOut, status := runWithInput(string(data), append([]string{"-events", "-"}, args...)...)
			if status != 0 || errOut != "" || got != want {
				t.Errorf("TMPDIR=%s %q: status %d, stderr %q, the file's report: %v", tmp, args, status, errOut, got == want)
			}
			if left, _ := os.ReadDir(tmp); len(left) > 0 {
				t.Errorf("%q left %v in $TMPDIR", args, left[0].Name())
			}
		}
	}
}

// konvoy plan reads standard input once, however many times it plans over
// it, holding its events or reading its copy again; the copy is removed.
func TestPlanReadsStandardInputAgain(t *testing.T) {
	data, err := os.ReadFile("testdata/arrivals.csv")
	if err != nil {
		t.Fatal(err)
	}
	args := []string{"plan", "-layouts", "free,convoy", "-max-partitions", "8"}
	want, _, _ := runCommand(append(args, "-events", "testdata/arrivals.csv")...)
	want = strings.ReplaceAll(want, "testdata/arrivals.csv", "<stdin>")
	for _, held := range []int{planHeldBytes, 0} {
		defer func(h int) { planHeldBytes = h }(planHeldBytes)
		planHeldBytes = held
		tmp := t.TempDir()
		t.Setenv("TMPDIR", tmp)
		got, errOut, status := runWithInput(string(data), append(args, "-events", "-")...)
		if status != 0 || errOut != "" || got != want {
			t.Errorf("held %d: status %d, stderr %q, the file's plan: %v\n%s", held, status, errOut, got == want, got)
		}
		if left, _ := os.ReadDir(tmp); len(left) > 0 {
			t.Errorf("held %d: left %v in $TMPDIR", held, left[0].Name())
		}
	}
}

// Without a temporary directory konvoy plan still plans for standard input
// whose events it holds; one too large to hold, which it must read again,
// is an error that says why, not a plan of part of it.
func TestPlanStandardInputWithoutATemporaryDirectory(t *testing.T) {
	data, err := os.ReadFile("testdata/arrivals.csv")
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("TMPDIR", filepath.Join(t.TempDir(), "nonexistent"))
	args := []string{"plan", "-layouts", "free,convoy", "-max-partitions", "8", "-events", "-"}
	if _, errOut, status := runWithInput(string(data), args...); status != 0 {
		t.Errorf("held: status %d, stderr %q; want 0", status, errOut)
	}
	defer func(h int) { planHeldBytes = h }(planHeldBytes)
	planHeldBytes = 0
	out, errOut, status := runWithInput(string(data), args...)
	want := "konvoy plan: standard input cannot be read twice, and no copy of it could be made: open "
	if status != 1 || out != "" || !strings.HasPrefix(errOut, want) {
		t.Errorf("not held: status %d, stdout %q, stderr %q; want 1, nothing, and %q", status, out, errOut, want)
	}
}
