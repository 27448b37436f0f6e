package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// underUlimit runs the command with args under ulimit -v kb, as a process
// of its own, and returns its standard error and exit status.
func underUlimit(t *testing.T, kb int, args ...string) (string, int) {
	t.Helper()
	cmd := exec.Command("/bin/sh", append([]string{"-c", fmt.Sprintf(`ulimit -v %d && exec "$0" "$@"`, kb), os.Args[0]}, args...)...)
	cmd.Env = append(os.Environ(), "KONVOY_RUN_MAIN=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	cmd.Run()
	return stderr.String(), cmd.ProcessState.ExitCode()
}

// writeTrace writes n lines that line(i) makes under header to a file of
// the test's, and returns its path.
func writeTrace(t *testing.T, header string, n int, line func(w *bufio.Writer, i int)) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "t.csv")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w := bufio.NewWriterSize(f, 1<<20)
	w.WriteString(header + "\n")
	for i := range n {
		line(w, i)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	return path
}

// Under a tight ulimit -v, many keys, or long ones, stop konvoy, konvoy
// plan and konvoy replay at the error that names the memory they may take
// (status 1), never in the Go runtime's fatal out-of-memory error (status
// 2), which each of these commands ended in (found by a review): 200,000
// keys of 4,007 bytes under ulimit -v 2600000, and 2,000,000 short keys
// under every layout under 2200000 (1 run in 9 even after that review's
// fixes, while glibc reserved 64 MiB of address space for each thread:
// see arenas_cgo.go; they now run to the report there, and stop at the
// error under 1800000). They write 800 MB and 44 MB traces and take some
// 30 s: with -konvoy.long only.
func TestTightUlimitsStopAtTheMemoryError(t *testing.T) {
	if !*long {
		t.Skip("writes 850 MB of traces and takes some 20 s: -konvoy.long runs it")
	}
	pad := strings.Repeat("k", 4000)
	longKeys := writeTrace(t, "key,step,duration", 200_000, func(w *bufio.Writer, i int) { fmt.Fprintf(w, "%s%07d,1,1\n", pad, i) })
	manyKeys := writeTrace(t, "key,line,step,duration", 2_000_000, func(w *bufio.Writer, i int) { fmt.Fprintf(w, "K%07d,L%04d,1,%d\n", i, i%1000, 1+i%3) })
	for _, c := range []struct {
		kb   int
		args []string
		want int // the status: 1, the memory error, or 0, the report
	}{
		{2600000, []string{"-events", longKeys, "-layouts", "free"}, 1},
		{2600000, []string{"plan", "-events", longKeys, "-layouts", "free"}, 1},
		{2600000, []string{"replay", "-events", longKeys, "-layout", "free", "-unit", "1us"}, 1},
		{2200000, []string{"-events", manyKeys, "-layouts", "all", "-format", "csv"}, 0},
		{1800000, []string{"-events", manyKeys, "-layouts", "all", "-format", "csv"}, 1},
	} {
		stderr, status := underUlimit(t, c.kb, c.args...)
		if status != c.want || strings.Contains(stderr, "fatal error") || strings.Contains(stderr, "panic") {
			t.Errorf("%q under ulimit -v %d: status %d; want %d: %.300s", c.args[0], c.kb, status, c.want, stderr)
		}
	}
}

// Under ulimit -v 4000000, 13,056 events whose durations span 51 powers of
// two, under every layout and policy on 1 to 170 consumers (3,570 runs),
// run to the report (status 0): each run's latency histograms grow to some
// 800 KiB within its first batch of events, and the sweep's plan, which
// counts what runs grow a few thousand events late, took 2.7 GB for them
// and ended in the Go runtime's fatal out-of-memory error there; the runs
// whose histograms grow faster than the plan now give way (konvoy.Sweep).
// It takes some 10 s: with -konvoy.long only.
func TestHistogramsOfManyRunsFitUnderATightUlimit(t *testing.T) {
	if !*long {
		t.Skip("takes some 10 s: -konvoy.long runs it")
	}
	trace := writeTrace(t, "key,line,step,duration", 13_056, func(w *bufio.Writer, i int) {
		fmt.Fprintf(w, "K%d,L%d,1,%d\n", i, i%256, 1<<(i/256))
	})
	consumers := make([]string, 170)
	for i := range consumers {
		consumers[i] = fmt.Sprint(i + 1)
	}
	stderr, status := underUlimit(t, 4000000, "-events", trace, "-layouts", "all", "-policy", "all", "-consumers", strings.Join(consumers, ","))
	if status != 0 {
		t.Errorf("status %d; want 0, the report: %.300s", status, stderr)
	}
}
