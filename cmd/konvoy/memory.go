package main

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/eventlog"
	"github.com/sirali-konvoy/konvoy/internal/runs"
)

// memory defines -max-memory, which needs -events, setting *n to the
// bytes konvoy.Sweep may plan for (konvoy.DefaultMaxMemory by default);
// use says what the command does with them.
func (c *command) memory(n *int, use string) {
	*n = konvoy.DefaultMaxMemory
	c.needs("events", "max-memory")
	c.Func("max-memory", "the memory `SIZE` the runs may take together (bytes, or with KiB, MiB, GiB or TiB), "+use+
		" (default 1GiB, or less when 1GiB is more than "+addressShareText+" of the memory the process's cgroup leaves, "+
		"or of the address space ulimit -v leaves less "+formatSize(addressReserve)+" for the runtime; a SIZE above that share is refused)",
		func(v string) error {
			m, err := parseSize(v)
			if err != nil {
				return err
			}
			*n = m
			return nil
		})
	c.rule(func() error {
		l, ok := memoryLeft()
		if !ok {
			return nil
		}
		return c.fitMemory(n, l)
	})
}

// memoryLimit is a limit on what the process may take, as the command
// finds it at start: the address space that ulimit -v leaves it
// (addressSpaceLeft), or the memory that its cgroup leaves it
// (cgroupMemoryLeft), whose excess the kernel answers by killing the
// process without a word.
type memoryLimit struct {
	left   int64 // the bytes it leaves
	cgroup bool  // the cgroup's memory limit, not ulimit -v
}

// memoryLeft returns the tighter of the limits the process runs under,
// and false when it runs under neither.
func memoryLeft() (memoryLimit, bool) {
	as, asKnown := addressSpaceLeft()
	cg, cgKnown := cgroupLeft()
	switch {
	case cgKnown && (!asKnown || cg < as):
		return memoryLimit{left: cg, cgroup: true}, true
	case asKnown:
		return memoryLimit{left: as}, true
	}
	return memoryLimit{}, false
}

// leaves returns how a message names what l leaves the process, given
// as an amount, and what to raise.
func (l memoryLimit) leaves(amount string) (says, raise string) {
	if l.cgroup {
		return "its cgroup's memory limit leaves this process " + amount + " of memory", "raise the cgroup's memory limit"
	}
	return "ulimit -v leaves this process " + amount + " of address space", "raise ulimit -v"
}

// addressShare is the share of what a limit leaves (memoryLimit) that
// -max-memory may take, in hundredths, as addressShareText says it: the
// runs' heap, held to -max-memory by the garbage collector
// (runs.LimitMemory), takes more address space than memory, in 64 MiB
// arenas, and more memory than -max-memory by the runtime's own. Measured
// on 2,000,000 keys under every layout and policy: under ulimit -v
// 4000000 (2.24 GiB left at start), 2200MiB (0.96 of it) ran, 2560MiB
// (1.12) ended in a fatal out-of-memory error; in a cgroup of 600 MB,
// 540MiB (0.94 of it) ran with 564 MB resident, the default 1GiB was
// killed by the kernel. Under ulimit -v, addressReserve comes off first:
// the runtime takes address space in steps, threads and arenas, that do
// not shrink with what is left. Under ulimit -v 2200000 (0.52 GiB left at
// start), the same keys with 0.85 of it, 454MiB, ended in the fatal
// error, with 400MiB stopped at -max-memory, naming it (found by a
// review); 0.85 of what 128 MiB leaves is 343MiB. Those figures are from
// before arenas_cgo.go, which takes glibc's 64 MiB a thread out of the
// address space used (some 340 MiB at start): the same run now gets 368MiB
// under ulimit -v 1900000.
const (
	addressShare     = 85
	addressShareText = "0.85"
	addressReserve   = 128 << 20
)

// fitMemory sets *n, -max-memory's bytes, to fit in what the limit l
// leaves: a default above addressShare of it becomes that share, rounded
// down to MiB; a -max-memory given above it is a usage error that says
// what fits.
func (c *command) fitMemory(n *int, l memoryLimit) error {
	most := l.share()
	if int64(*n) <= most {
		return nil
	}
	if !c.given["max-memory"] {
		*n = int(max(most, 1<<20))
		return nil
	}
	if most < 1<<20 {
		says, raise := l.leaves(fmt.Sprintf("%.1f MiB", float64(l.left)/(1<<20)))
		return c.usagef("-max-memory %s: %s, less than it needs: %s", formatSize(*n), says, raise)
	}
	says, raise := l.leaves(fmt.Sprintf("%.2f GiB", float64(l.left)/(1<<30)))
	share := addressShareText
	if !l.cgroup {
		share += " of what " + formatSize(addressReserve) + " for the runtime leaves"
	}
	return c.usagef("-max-memory %s: %s, of which the runs may take %s, %s: give at most that, or %s",
		formatSize(*n), says, share, formatSize(int(most)), raise)
}

// replayMemory returns the garbage collector's limit for konvoy replay,
// which takes no -max-memory: the share of what ulimit -v or the cgroup
// leaves that -max-memory's default comes down to (see fitMemory), and
// false under neither. Without it the collector lets the heap grow to
// twice what it held, and a replay of 200,000 keys of 4,007 bytes under
// ulimit -v 2600000 ended in the fatal out-of-memory error after the
// trace's check (found by a review).
func replayMemory() (int, bool) {
	l, ok := memoryLeft()
	if !ok {
		return 0, false
	}
	return int(min(max(l.share(), 1<<20), math.MaxInt)), true // as fitMemory's default; where int has 32 bits, up to its largest
}

// reorderShare gives a -reorder window that r asks for, without a bound
// of its own (Reader.MaxReorderBytes), half of share bytes, as konvoy's
// runs.Memory does, split among the readings of the trace that hold one
// at once, passes, and no more than eventlog's default, and returns what
// it leaves of share, and whether it gave the window any: all of it, and
// false, when r asks for no such window.
func reorderShare(r *eventlog.Reader, share, passes int) (int, bool) {
	if r.Reorder <= 0 || r.MaxReorderBytes != 0 {
		return share, false
	}
	left, window := runs.HalveForWindow(share)
	r.MaxReorderBytes = max(1, min(window/max(1, passes), eventlog.DefaultMaxReorderBytes))
	return left, true
}

// windowHint adds to err, when a -reorder window bounded by the memory
// (runs.Memory, reorderShare) outgrew its bound (eventlog.WindowFull), the
// other way out, raise, and how the bound was made, from what; it returns
// any other error as it is.
func windowHint(err error, raise, from string) error {
	if !eventlog.WindowFull(err) {
		return err
	}
	return fmt.Errorf("%w, or raise %s: the window may take half of %s", err, raise, from)
}

// share returns the most bytes -max-memory may take under l: addressShare
// of what it leaves, less addressReserve under ulimit -v, rounded down to
// MiB.
func (l memoryLimit) share() int64 {
	left := l.left
	if !l.cgroup {
		left = max(0, left-addressReserve)
	}
	return left / 100 * addressShare &^ (1<<20 - 1)
}

// The uses of -max-memory, as its help says them.
var (
	memoryRuns = "three quarters for their state and a quarter for the garbage collector: runs that would not fit at once " +
		"run in further passes over the trace, standard input copied to a temporary file as it is read"
	memoryPlan = fmt.Sprintf("a quarter for the garbage collector and the trace's events, held when they fit in an eighth of it "+
		"and %dMiB (else read again for every pass), and, without -max-backlog, three quarters shared by the runs' backlogs "+
		"at 128 bytes an event; the trace's keys and lines, their names and some 60 bytes each plus 128 for each pass held at once, may take three quarters too (half of them with a -reorder window, which takes the other half, split among the passes at once)", planHeldBytes>>20)
)

// sizeUnits are the suffixes -max-memory takes, by the bytes they mean.
var sizeUnits = []struct {
	suffix string
	bytes  int64
}{{"TiB", 1 << 40}, {"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}, {"B", 1}, {"", 1}}

// errSize is -max-memory's complaint about a size it cannot read.
var errSize = errors.New("want a whole number of bytes of at least 1, alone or with KiB, MiB, GiB or TiB, such as 512MiB or 2GiB")

// parseSize returns the bytes that v, a whole number with an optional
// binary unit, means.
func parseSize(v string) (int, error) {
	for _, u := range sizeUnits {
		n, ok := strings.CutSuffix(v, u.suffix)
		if !ok {
			continue
		}
		m, err := decimalInt(n)
		if err == nil && int64(m) > math.MaxInt/u.bytes || errors.Is(err, errOutOfRange) && !strings.HasPrefix(n, "-") {
			if most := math.MaxInt / u.bytes; most > 0 && u.bytes > 1 { // where int has 32 bits, no TiB fits
				return 0, fmt.Errorf("want at most %d%s, %d bytes", most, u.suffix, most*u.bytes)
			}
			return 0, fmt.Errorf("want at most %d bytes", int64(math.MaxInt))
		}
		if err != nil || m < 1 {
			return 0, errSize
		}
		return m * int(u.bytes), nil
	}
	return 0, errSize
}

// formatSize writes n bytes as parseSize reads them back, in the largest
// unit that divides n: 1GiB, 3MiB, 1536 (not 1.5KiB).
func formatSize(n int) string {
	for _, u := range sizeUnits {
		if u.bytes > 1 && int64(n)%u.bytes == 0 {
			return fmt.Sprintf("%d%s", int64(n)/u.bytes, u.suffix)
		}
	}
	return strconv.Itoa(n)
}

// memoryHint adds to err, when a run alone, or its result beside those
// of the runs before it, outgrew the runs' memory (konvoy.ErrMemory), the
// flag that sets it, -max-memory, as maxMemory bytes, the runs' share of
// it: three quarters, or three eighths when a -reorder window took as
// much (runs.WindowShared), and the flags that make fewer runs; it
// returns any other error as it is. The command alone adds it: konvoy serve's page and API
// take no -max-memory.
//
// A -reorder window that outgrew its bound (eventlog.WindowFull), which
// runs.Trace sets from -max-memory, gets the same flag as its other way
// out.
func memoryHint(err error, maxMemory int) error {
	switch {
	case eventlog.WindowFull(err):
		return windowHint(err, "-max-memory", "the runs' three quarters of it")
	case !errors.Is(err, konvoy.ErrMemory):
		return err
	}
	share := "three quarters of it for the runs"
	if runs.WindowShared(err) {
		share = "three eighths of it for the runs and as much for the -reorder window"
	}
	return fmt.Errorf("%w; -max-memory %s, %s, is too little for this run alone, its keys, lanes and backlog, or beside the results of the runs before it: raise it, or ask for fewer runs (-layouts, -policy, -consumers)",
		err, formatSize(maxMemory), share)
}
