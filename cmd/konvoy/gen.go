package main

import (
	"bufio"
	"cmp"
	"errors"
	"fmt"
	"io"
	"math"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/sirali-konvoy/konvoy/eventlog"
	"github.com/sirali-konvoy/konvoy/synth"
)

// genBufferSize is the output buffer of konvoy gen: large enough that a
// long trace costs few system calls.
const genBufferSize = 256 << 10

// genFlags maps synth.Config's field names, as synth's errors name them, to
// the flags of konvoy gen that set them (synth.ConfigError.Rename).
var genFlags = map[string]string{
	"Seed":         "-seed",
	"Events":       "-events",
	"Keys":         "-keys",
	"KeySkew":      "-key-skew",
	"Lines":        "-lines",
	"LineSkew":     "-line-skew",
	"StepsPerKey":  "-steps",
	"OrderedSteps": "-ordered",
	"InFlight":     "-in-flight",
	"OutOfOrder":   "-out-of-order",
	"Duration":     "-duration",
	"Rate":         "-rate",
	"BurstEvery":   "-burst-every",
	"BurstLen":     "-burst-len",
	"BurstFactor":  "-burst-factor",
}

// runGen is konvoy gen: it writes the synthetic trace its flags describe to
// stdout, one event at a time, and returns the exit status.
func runGen(args []string, stdout, stderr io.Writer) int {
	cfg, format, err := parseGen(args, stderr)
	if err != nil {
		return exitStatus(err, stderr)
	}
	room, err := genFits(cfg, memoryLeft)
	if err != nil {
		fmt.Fprintln(stderr, "konvoy gen:", err)
		return 1
	}
	if room > 0 {
		// The collector keeps the heap within the room, which the trace's
		// garbage would otherwise pass: without it, a trace of 668 MiB
		// with 732 to 834 MiB left ended in the fatal error.
		defer debug.SetMemoryLimit(debug.SetMemoryLimit(room))
	}
	for _, note := range genNotes(cfg) {
		fmt.Fprintln(stderr, "konvoy gen: note:", note)
	}
	bw := bufio.NewWriterSize(stdout, genBufferSize)
	if err := eventlog.WriteAll(bw, format, synth.Events(cfg)); err != nil {
		fmt.Fprintln(stderr, "konvoy gen:", err)
		return 1
	}
	if err := bw.Flush(); err != nil {
		fmt.Fprintln(stderr, "konvoy gen:", err)
		return 1
	}
	return 0
}

// genFits returns an error when what a run of cfg holds
// (synth.Config.Memory) passes what ulimit -v or the cgroup leaves, as
// left finds it, and otherwise the room the heap may take, which the
// caller gives the garbage collector as its limit (0 when no limit is
// known): the Go runtime would end the process at the allocation that
// failed, with no word of the flags (a review saw gen -keys 16777216
// -key-skew 1 end so under ulimit -v 2000000). Under ulimit -v a heap
// arena, 64 MiB, of what is left goes to the runtime; a trace that holds
// at most genSmall always runs, in the arena the runtime holds from its
// start.
func genFits(cfg synth.Config, left func() (memoryLimit, bool)) (int64, error) {
	l, ok := left()
	if !ok {
		return 0, nil
	}
	need, room, arena := cfg.Memory(), l.left, ""
	if !l.cgroup {
		room, arena = l.left-genArena, ", of which the runtime's heap keeps 64 MiB"
		if l.left < genArena {
			arena = ", less than the 64 MiB the runtime's heap keeps"
		}
	}
	if need <= room || need <= genSmall {
		return max(room, genSmall), nil
	}
	amount := fmt.Sprintf("%.2f GiB", float64(l.left)/(1<<30))
	if l.left < 1<<30 {
		amount = fmt.Sprintf("%.0f MiB", math.Floor(float64(l.left)/(1<<20)))
	}
	says, raise := l.leaves(amount)
	return 0, fmt.Errorf("the trace holds about %.0f MiB as it is written (-keys, -lines, their skews and -in-flight set it), "+
		"more than fits, as %s%s: lower them, or %s", math.Ceil(float64(need)/(1<<20)), says, arena, raise)
}

// genArena is the address space a heap arena takes, which genFits leaves
// the runtime, and genSmall what a trace may hold within the arena the
// runtime holds from its start, whatever is left: under ulimit -v
// 1350000, 18 MiB left, gen -events 1 (540 bytes) ran where the default
// trace (11 MiB) ended in the fatal error; with 116 MiB left the
// default ran.
const (
	genArena = 64 << 20
	genSmall = 4 << 20
)

// genNotes are what the flags of cfg ask that the trace cannot show: a
// swap of ordered steps where a lifecycle has fewer than two, a skew of
// one key's or one line's share.
func genNotes(cfg synth.Config) []string {
	var notes []string
	if cfg.OutOfOrder > 0 && min(cfg.OrderedSteps, cfg.StepsPerKey) < 2 {
		notes = append(notes, "-out-of-order swaps nothing: a lifecycle has fewer than two ordered steps (-ordered, -steps)")
	}
	if cfg.KeySkew > 0 && cfg.Keys == 1 {
		notes = append(notes, "-key-skew shapes nothing: -keys 1 gives every lifecycle to the one key")
	}
	if cfg.LineSkew > 0 && cfg.Lines == 1 {
		notes = append(notes, "-line-skew shapes nothing: -lines 1 puts every key on the one line")
	}
	return notes
}

// parseGen reads konvoy gen's command line into a valid synth.Config and an
// output format. Its errors are usageError or flag.ErrHelp.
func parseGen(args []string, stderr io.Writer) (synth.Config, eventlog.Format, error) {
	cfg := synth.Default()
	fs := newCommand("konvoy gen", stderr,
		"usage: konvoy gen [-format csv|jsonl] [-seed N] [-events N] [-keys N] [flags]",
		"Writes a synthetic trace to standard output, event by event, for konvoy -events -.",
		"The defaults are konvoy's benchmark set.")
	format := "csv"
	fs.choice(&format, "format", format, "the output `format`: csv or jsonl", "csv or jsonl", "csv", "jsonl")
	fs.Uint64Var(&cfg.Seed, "seed", cfg.Seed, "the `seed` that selects the trace; the same flags and seed give the same trace")
	fs.IntVar(&cfg.Events, "events", cfg.Events, "the number of events, `N` (10_000_000 style underscores allowed)")
	fs.IntVar(&cfg.Keys, "keys", cfg.Keys, "the number of key names, `N`, from K1 (the hottest with -key-skew) on, padded to the width of N (K01 for 20)")
	fs.Float64Var(&cfg.KeySkew, "key-skew", cfg.KeySkew, "the Zipf `exponent` of the keys' shares of the lifecycles (0: even)")
	fs.IntVar(&cfg.Lines, "lines", cfg.Lines, "the number of lines, `N`; each key belongs to one")
	fs.Float64Var(&cfg.LineSkew, "line-skew", cfg.LineSkew, "the Zipf `exponent` of the lines' shares of the keys (0: even)")
	fs.IntVar(&cfg.StepsPerKey, "steps", cfg.StepsPerKey, "the events of one key's lifecycle, `N`")
	fs.IntVar(&cfg.OrderedSteps, "ordered", cfg.OrderedSteps, "how many, `N`, of a lifecycle's events are ordered steps; the rest are history-only (step 0)")
	fs.IntVar(&cfg.InFlight, "in-flight", cfg.InFlight, "the lifecycles in flight at once, `N`: how far keys interleave")
	fs.Float64Var(&cfg.OutOfOrder, "out-of-order", cfg.OutOfOrder, "the `probability` that the producer swaps an ordered step with the next")
	duration := fs.String("duration", cfg.Duration.String(), "the durations' `distribution`: fixed:N, uniform:LO,HI, exp:MEAN or lognormal:MU,SIGMA, in rounds")
	fs.Float64Var(&cfg.Rate, "rate", cfg.Rate, "the mean arrivals per round, `R`; 0 makes a batch, all arriving at round 0")
	genRanges(fs, &cfg)
	fs.IntVar(&cfg.BurstEvery, "burst-every", cfg.BurstEvery, "a burst starts every `N` rounds (0: no bursts; needs -rate)")
	fs.IntVar(&cfg.BurstLen, "burst-len", cfg.BurstLen, "a burst lasts `N` rounds, 1 to -burst-every (needs -burst-every)")
	fs.Float64Var(&cfg.BurstFactor, "burst-factor", cfg.BurstFactor, "the rate multiplier `F` during a burst, > 0; below 1 makes a lull (needs -burst-every)")
	fs.rule(func() error {
		burst := []string{"burst-every", "burst-len", "burst-factor"}
		if i := slices.IndexFunc(burst, fs.isSet); i >= 0 && cfg.Rate == 0 {
			return fs.usagef("-%s needs -rate: bursts change the rate of arrivals, and without one every event arrives at round 0", burst[i])
		}
		if i := slices.IndexFunc(burst[1:], fs.isSet); i >= 0 && cfg.BurstEvery == 0 {
			return fs.usagef("-%s needs -burst-every, the period of the bursts", burst[1+i])
		}
		return nil
	})
	if err := fs.parse(args); err != nil {
		return cfg, 0, err
	}
	f, _ := eventlog.ParseFormat(format)
	d, err := synth.ParseDist(*duration)
	if de := (*synth.DistError)(nil); errors.As(err, &de) {
		return cfg, 0, fs.usagef("-duration %q: %v", de.Text, de.Err)
	}
	cfg.Duration = d
	if cfg.Events < 1 || cfg.Events > synth.MaxEvents { // synth takes 0, a trace that no command reads
		return cfg, 0, fs.usagef("-events is %d; want 1 to %d events", cfg.Events, synth.MaxEvents)
	}
	if err := cfg.Check(); err != nil {
		return cfg, 0, usageError{configProblems(err)}
	}
	if err := cfg.CheckDurations(); err != nil { // before any output: the events before would read as a whole trace
		return cfg, 0, usageError{configProblems(errors.Join(err))}
	}
	return cfg, f, nil
}

// genRanges states the ranges of gen's counts, of cfg, to fs: a count too
// large for an int is told the range synth gives one past it, under the
// other flags as given, as main.go's doc promises.
func genRanges(fs *command, cfg *synth.Config) {
	fs.wantRange("events", fmt.Sprintf("1 to %d events", synth.MaxEvents))
	fs.wantRangeOf("keys", func() string {
		if cfg.KeySkew > 0 {
			return fmt.Sprintf("1 to %d key names when -key-skew > 0", synth.MaxSkewedKeys)
		}
		return fmt.Sprintf("1 to %d key names", synth.MaxCount)
	})
	fs.wantRangeOf("lines", func() string {
		if cfg.LineSkew > 0 {
			return fmt.Sprintf("1 to %d lines when -line-skew > 0", synth.MaxSkewedLines)
		}
		return fmt.Sprintf("1 to %d lines", synth.MaxCount)
	})
	fs.wantRange("steps", fmt.Sprintf("1 to %d events per lifecycle", synth.MaxSteps))
	fs.wantRange("in-flight", fmt.Sprintf("1 to %d lifecycles in flight", synth.MaxInFlight))
	fs.wantRangeOf("ordered", func() string {
		if cfg.StepsPerKey < 1 || cfg.StepsPerKey > synth.MaxSteps {
			return fmt.Sprintf("0 to -steps ordered steps, -steps being 1 to %d", synth.MaxSteps)
		}
		return fmt.Sprintf("0 to %d ordered steps (at most -steps)", cfg.StepsPerKey)
	})
	fs.wantRange("burst-every", fmt.Sprintf("0 (no bursts) to %d rounds", math.MaxInt))
	fs.wantRangeOf("burst-len", func() string {
		if cfg.BurstEvery < 1 {
			return "1 to -burst-every rounds, -burst-every being 1 or more"
		}
		return fmt.Sprintf("1 to %d rounds (at most -burst-every)", cfg.BurstEvery)
	})
}

// configProblems are the problems err, synth.Config.Check's, lists, one a
// line, each naming the flags of konvoy gen that set the fields it names.
func configProblems(err error) string {
	var lines []string
	for _, e := range err.(interface{ Unwrap() []error }).Unwrap() {
		if ce := (*synth.ConfigError)(nil); errors.As(e, &ce) {
			lines = append(lines, "konvoy gen: "+ce.Rename(func(field string) string { return cmp.Or(genFlags[field], field) }))
		}
	}
	return strings.Join(lines, "\n")
}
