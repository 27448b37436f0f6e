package main

import (
	"errors"
	"fmt"
	"io"
	"math"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/internal/memtest"
)

// hotTrace is a CSV trace of n events of one key, each taking 500 rounds.
func hotTrace(n int) string {
	var b strings.Builder
	b.WriteString("key,line,step,duration\n")
	for i := range n {
		fmt.Fprintf(&b, "HOT,L1,%d,500\n", i+1)
	}
	return b.String()
}

// The command lines that took gigabytes, or crashed, run in a few
// megabytes: consumers and partitions cost memory only when events use
// them, and a hot key's ever longer waits are counted in bounded memory.
func TestHugeCountsAndHotKeysRunInBoundedMemory(t *testing.T) {
	hot := hotTrace(50_000)
	for _, c := range []struct {
		args   []string
		stdin  string
		budget uint64
	}{
		{[]string{"-consumers", "10000000"}, "", 64 << 20},
		{[]string{"-consumers", "2147483647", "-policy", "all"}, "", 64 << 20},
		{[]string{"-partitions", "2147483647"}, "", 64 << 20},
		{[]string{"plan", "-consumers", "99999999"}, "", 64 << 20},
		{[]string{"plan", "-max-consumers", "2147483647", "-policy", "all", "-layouts", "all"}, "", 64 << 20},
		{[]string{"-events", "-"}, hot, 64 << 20},
		{[]string{"-events", "-", "-layouts", "all", "-policy", "head-of-line,static", "-consumers", "1,2,4,8,64"}, hot, 128 << 20},
	} {
		var status int
		var errOut string
		got := memtest.Allocated(func() { _, errOut, status = runWithInput(c.stdin, c.args...) })
		t.Logf("%q: %d bytes", c.args, got)
		if status != 0 || got > c.budget {
			t.Errorf("%q: status %d (stderr %q), %d bytes; want 0 and at most %d", c.args, status, errOut, got, c.budget)
		}
	}
}

// A count beyond its flag's range is a usage error naming the flag and the
// range, not a crash.
func TestCountsBeyondTheirRangeAreUsageErrors(t *testing.T) {
	if strconv.IntSize < 64 {
		t.Skip("these counts are beyond int here, which the flag package reports")
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-partitions", "99999999999999"}, "konvoy: -partitions is 99999999999999; want 1 to 2147483647"},
		{[]string{"-consumers", "2147483648"}, "konvoy: -consumers is 2147483648; want 1 to 2147483647"},
		{[]string{"-events", "x.csv", "-consumers", "4,2147483648"}, "konvoy: -consumers is 2147483648; want 1 to 2147483647"},
		{[]string{"-events", "x.csv", "-layouts", "partitioned:99999999999999"},
			`konvoy: -layouts: layout "partitioned:99999999999999": want partitioned:N with N a whole number from 1 to 2147483647, in decimal digits without a sign or leading zeros`},
		{[]string{"plan", "-consumers", "2147483648"}, "konvoy plan: -consumers is 2147483648; want 1 to 2147483647"},
		{[]string{"plan", "-max-consumers", "99999999999"}, "konvoy plan: -max-consumers is 99999999999; want 1 to 2147483647"},
		{[]string{"plan", "-partitions", "2147483648"}, "konvoy plan: -partitions is 2147483648; want 1 to 2147483647"},
		{[]string{"plan", "-max-partitions", "65537"}, "konvoy plan: -max-partitions is 65537; want 1 to 65536"},
		{[]string{"-events", "x.csv", "-consumers", manyCounts(1025)}, "konvoy: -layouts, -policy and -consumers ask for 4100 runs (4 × 1 × 1025); want at most 4096"},
		{[]string{"-events", "x.csv", "-consumers", manyCounts(1024)}, ""},
		{[]string{"-events", "x.csv", "-consumers", "1", "-plot", "p", "-layouts", "all", "-policy", "all", "-partitions", "8"}, ""},
		{[]string{"plan", "-layouts", "partitioned:2147483648"},
			`konvoy plan: -layouts: layout "partitioned:2147483648": want partitioned:N with N a whole number from 1 to 2147483647, in decimal digits without a sign or leading zeros`},
	} {
		if c.want == "" { // allowed: parse says nothing
			if _, err := parse(c.args, io.Discard); err != nil {
				t.Errorf("%q: %v", c.args, err)
			}
			continue
		}
		out, errOut, status := runCommand(c.args...)
		if status != 2 || out != "" || errOut != c.want+"\n" {
			t.Errorf("%q: status %d, stdout %q, stderr %q; want 2, nothing and %q", c.args, status, out, errOut, c.want)
		}
	}
}

// -max-backlog bounds what the runs hold together: shared by the runs, a
// share too small for a hot key's batch stops the report with the run, the
// event and what to do, exit status 1; 0 lifts the limit; a negative one,
// or one without a trace, is a usage error.
func TestMaxBacklog(t *testing.T) {
	hot := hotTrace(1000)
	// Lane-aware and static dispatch of the convoy and the line convoy, at
	// 4 and 8 consumers: 8 runs share 3000 events, 375 each, and the first
	// to need more is static dispatch of the line at 4 consumers, which
	// holds one for its consumer and every event taken, the running one
	// too. A share of 1001 is enough for every run.
	args := []string{"-events", "-", "-layouts", "convoy,line-convoy", "-policy", "lane-aware,static", "-consumers", "4,8", "-max-backlog", "3000"}
	out, errOut, status := runWithInput(hot, args...)
	want := `<stdin>:376: event 374 (key "HOT"): backlog over its limit: static dispatch of line-convoy at 4 consumers holds 376 events, more than the 375 it may (its share of -max-backlog): 1 for the consumers that have taken one, 375 taken but not yet applied; -max-backlog 3000 is shared by 8 runs: raise it, or run fewer layouts, policies or consumer counts` + "\n"
	if status != 1 || out != "" || errOut != want {
		t.Errorf("status %d, stdout %q, stderr\n%s\nwant 1, nothing and\n%s", status, out, errOut, want)
	}
	for _, limit := range []string{"8008", "0"} {
		if _, errOut, status := runWithInput(hot, append(args[:len(args)-1], limit)...); status != 0 {
			t.Errorf("-max-backlog %s: status %d, stderr %q", limit, status, errOut)
		}
	}
	_, errOut, status = runWithInput(hot, "plan", "-events", "-", "-policy", "lane-aware", "-layouts", "convoy", "-max-backlog", "100")
	// The plan names the event's line, as the report does: it reads the
	// copy of standard input again up to the event.
	if !strings.HasPrefix(errOut, `<stdin>:18: event 16 (key "HOT")`) || !strings.Contains(errOut, "backlog over its limit: lane-aware dispatch of ") ||
		!strings.HasSuffix(errOut, "-max-backlog 100 is shared by 6 runs: raise it, or run fewer layouts, policies or consumer counts\n") || status != 1 {
		t.Errorf("plan: status %d, stderr %q", status, errOut)
	}
	for _, c := range []struct {
		args []string
		want string
	}{

		{[]string{"-max-backlog", "10"}, "konvoy: -max-backlog needs -events"},
		{[]string{"plan", "-max-backlog", "10"}, "konvoy plan: -max-backlog needs -events"},
	} {
		if out, errOut, status := runCommand(c.args...); status != 2 || out != "" || errOut != c.want+"\n" {
			t.Errorf("%q: status %d, stdout %q, stderr %q; want 2 and %q", c.args, status, out, errOut, c.want)
		}
	}
	for _, args := range [][]string{{"-events", "x.csv", "-max-backlog", "-1"}, {"plan", "-events", "x.csv", "-max-backlog", "x"}} {
		want := `invalid value "` + args[len(args)-1] + `" for flag -max-backlog: want 0 (no limit) or more events`
		if out, errOut, status := runCommand(args...); status != 2 || out != "" || !strings.HasPrefix(errOut, want) {
			t.Errorf("%q: status %d, stdout %q, stderr %q; want 2 and %q", args, status, out, errOut, want)
		}
	}
}

// Without -max-backlog, -max-memory counts what the runs hold: a report
// whose runs hold a backlog beyond any old default's share runs to the
// end, in passes when it must; konvoy plan takes -max-memory too, and a
// run whose backlog cannot fit its share of it fails naming -max-memory.
func TestMaxMemoryCountsTheBacklog(t *testing.T) {
	hot := hotTrace(3000)
	args := []string{"-events", "-", "-layouts", "convoy,line-convoy", "-policy", "lane-aware,static", "-consumers", "4,8"}
	want, errOut, status := runWithInput(hot, append(slices.Clone(args), "-max-backlog", "0")...)
	if status != 0 {
		t.Fatalf("-max-backlog 0: status %d, stderr %q", status, errOut)
	}
	for _, size := range []string{"1GiB", "3000KiB"} {
		out, errOut, status := runWithInput(hot, append(slices.Clone(args), "-max-memory", size)...)
		if status != 0 || out != want {
			t.Errorf("-max-memory %s: status %d, stderr %q, the report of -max-backlog 0: %v", size, status, errOut, out == want)
		}
	}
	_, errOut, status = runWithInput(hot, "plan", "-events", "-", "-policy", "lane-aware", "-layouts", "convoy", "-max-memory", "100KiB")
	if status != 1 || !strings.Contains(errOut, "backlog over its limit: lane-aware dispatch of ") ||
		!strings.HasSuffix(errOut, "; -max-memory 102400 bytes leaves each of 6 runs room for 100 events held: raise it, or plan fewer layouts or policies\n") {
		t.Errorf("plan -max-memory 100KiB: status %d, stderr %q", status, errOut)
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2)) // two passes at once: the trace's key and line take 893 bytes
	_, errOut, status = runWithInput(hot, "plan", "-events", "-", "-policy", "lane-aware", "-layouts", "convoy", "-max-memory", "1200")
	if !strings.HasSuffix(errOut, "; -max-memory 1200 bytes leaves each of 6 runs room for 1 event held: raise it, or plan fewer layouts or policies\n") {
		t.Errorf("plan -max-memory 1200: status %d, stderr %q; want counts in the singular", status, errOut)
	}
	// The trace's one key and one line take twice planKeyBytes and their
	// names as konvoy plan counts them, more than three quarters of what
	// -max-memory gives.
	took := 2*planKeyBytes(runtime.GOMAXPROCS(0)) + len("HOT") + len("L1")
	most := strconv.Itoa(took * 4 / 3)
	_, errOut, status = runWithInput(hot, "plan", "-events", "-", "-policy", "lane-aware", "-layouts", "convoy", "-max-memory", most)
	if want := fmt.Sprintf("<stdin>:2: the keys and lines so far take some %d bytes with their names, more than the three quarters of -max-memory %s that konvoy plan gives them: raise -max-memory\n", took, most); status != 1 || errOut != want {
		t.Errorf("plan -max-memory %s: status %d, stderr %q; want 1 and %q", most, status, errOut, want)
	}
	if _, errOut, status := runWithInput(hot, "plan", "-events", "-", "-policy", "lane-aware", "-layouts", "convoy", "-max-memory", "4MiB"); status != 0 {
		t.Errorf("plan -max-memory 4MiB: status %d, stderr %q", status, errOut)
	}
	if _, errOut, status := runCommand("plan", "-max-memory", "1MiB"); status != 2 || errOut != "konvoy plan: -max-memory needs -events\n" {
		t.Errorf("plan -max-memory without -events: status %d, stderr %q", status, errOut)
	}
}

// The -reorder window counts in -max-memory: a window that holds more than
// its share, half the runs' memory, stops the report at the line where it
// does, naming -reorder and -max-memory; with room, the report is that of
// the trace in order.
func TestTheReorderWindowCountsInMaxMemory(t *testing.T) {
	var b strings.Builder
	b.WriteString("key,step,duration,at\n")
	for i := range 5000 {
		fmt.Fprintf(&b, "K%d,%d,1ms,%dms\n", i%50, 1+i/50, i)
	}
	args := []string{"-events", "-", "-unit", "1ms", "-reorder", "1h", "-layouts", "convoy"}
	_, errOut, status := runWithInput(b.String(), append(slices.Clone(args), "-max-memory", "1MiB")...)
	var line int
	if _, err := fmt.Sscanf(errOut, "<stdin>:%d:", &line); err != nil || status != 1 || line < 2000 || line > 4000 ||
		!strings.Contains(errOut, "-reorder window, 1h0m0s, to take at most 393216 bytes;") || !strings.Contains(errOut, "narrow -reorder, or raise -max-memory") {
		t.Errorf("-max-memory 1MiB: status %d, stderr %q; want the window's overflow at its line, some 2,300 events in (3,500 on 32-bit platforms)", status, errOut)
	}
	in, _, _ := runWithInput(b.String(), "-events", "-", "-unit", "1ms", "-layouts", "convoy")
	out, errOut, status := runWithInput(b.String(), append(slices.Clone(args), "-max-memory", "64MiB")...)
	if status != 0 || out != in {
		t.Errorf("-max-memory 64MiB: status %d, stderr %q, the report of the trace in order: %v", status, errOut, out == in)
	}
}

// manyCounts is the consumer counts 1 to n, as -consumers takes them.
func manyCounts(n int) string {
	counts := make([]string, n)
	for i := range counts {
		counts[i] = strconv.Itoa(i + 1)
	}
	return strings.Join(counts, ",")
}

// memoryHint names -max-memory in the largest unit that divides it, as
// -max-memory reads it back, and leaves other errors as they are.
func TestMemoryHintNamesTheSizeInItsUnit(t *testing.T) {
	sizes := map[int]string{3 << 20: "3MiB", 1 << 30: "1GiB", 1536: "1536", 2048: "2KiB", 1000: "1000"}
	if tib := int64(1) << 40; math.MaxInt >= tib*2 {
		sizes[int(tib)] = "1TiB"
		sizes[int(tib/2*3)] = "1536GiB"
	}
	for size, want := range sizes {
		err := memoryHint(konvoy.ErrMemory, size)
		if !errors.Is(err, konvoy.ErrMemory) || !strings.Contains(err.Error(), "-max-memory "+want+",") {
			t.Errorf("memoryHint(%d) = %v; want -max-memory %s", size, err, want)
		}
		if n, err := parseSize(want); err != nil || n != size {
			t.Errorf("parseSize(%q) = %d, %v; want %d", want, n, err, size)
		}
	}
	other := errors.New("other")
	if err := memoryHint(other, 1<<30); err != other {
		t.Errorf("memoryHint of another error: %v", err)
	}
}
