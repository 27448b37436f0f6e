package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/eventlog"
	"github.com/sirali-konvoy/konvoy/internal/replay"
	"github.com/sirali-konvoy/konvoy/internal/report"
	"github.com/sirali-konvoy/konvoy/internal/runs"
	"github.com/sirali-konvoy/konvoy/live"
)

// replayOptions are konvoy replay's parsed command line.
type replayOptions struct {
	replay.Config
	events, format, applied string
	reader                  eventlog.Reader
	topic                   topicOptions // when -brokers is given
}

// runReplay is konvoy replay: it runs a trace live (package live) and
// prints the simulator's prediction beside the measured run
// (internal/replay). SIGINT or SIGTERM stops submitting; what was
// submitted runs to its end and is reported as a part of the trace, and
// the status is then 130 or 143.
func runReplay(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	opt, err := parseReplay(args, stderr)
	if err != nil {
		return exitStatus(err, stderr)
	}
	if opt.events == "-" && stdinIs(stdin, opt.applied) {
		return exitStatus(usageIn("konvoy replay", "-applied names %s, the trace -events - reads on standard input; want another file, as -applied rewrites it", opt.applied), stderr)
	}
	opt.Text = opt.applied != "" // JSON Lines
	var windowed bool            // a -reorder window bounded by the memory left (see reorderShare)
	if most, ok := replayMemory(); ok {
		defer runs.LimitMemory(most)()
		opt.MaxNameBytes, windowed = reorderShare(&opt.reader, most/4*3, 1)
	}
	if len(opt.topic.brokers) > 0 {
		return runTopic(opt, stdout, stderr)
	}
	trace, err := replay.Load(opt.reader, stdin, opt.Config)
	if windowed {
		err = windowHint(err, "the memory ulimit -v or the cgroup leaves", "the three quarters of its share that the trace's keys and lines may take")
	}
	if pe := (*fs.PathError)(nil); errors.As(err, &pe) {
		err = fmt.Errorf("konvoy replay: %w", err) // as konvoy and konvoy plan name themselves when a file will not open
	}
	if err != nil {
		return exitStatus(err, stderr)
	}
	defer trace.Close()
	opt.Layout = trace.Layout // recorded's count, under -layout recorded
	sigs := notifySignals()
	defer signal.Stop(sigs)
	var run *replay.Run
	var sig os.Signal
	err = withApplied(opt.applied, func(applied *os.File) (err error) {
		run, sig, err = runLive(trace, opt, applied, sigs, stderr)
		return err
	})
	if err != nil {
		return exitStatus(err, stderr)
	}
	defer run.Close()
	sig, err = writeReport(trace, run, opt, sig, sigs, stdout, stderr)
	if status := exitStatus(err, stderr); status != 0 || sig == nil {
		return status
	}
	return interruptStatus(sig)
}

// notifySignals returns a channel that SIGINT and SIGTERM are sent to,
// instead of ending the process, until signal.Stop is called with it.
func notifySignals() chan os.Signal {
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	return sigs
}

// watchSignals calls first with the first signal sigs (notifySignals's)
// gets before end is called, and then stops sigs, so that a second signal
// stops the command at once. end returns that signal, nil when none came.
func watchSignals(sigs chan os.Signal, first func(os.Signal)) (end func() os.Signal) {
	done, watched := make(chan struct{}), make(chan struct{})
	var sig os.Signal
	go func() {
		defer close(watched)
		select {
		case sig = <-sigs:
		case <-done:
			select {
			case sig = <-sigs: // it came before end: it counts
			default:
				return
			}
		}
		signal.Stop(sigs)
		first(sig)
	}()
	return func() os.Signal {
		close(done)
		<-watched
		return sig
	}
}

// writeReport writes the comparison of run with its predictions (see
// writeComparison). When no signal stopped the run (sig is nil), a first
// SIGINT or SIGTERM while the predictions are made is noted on stderr and
// returned, and the report is written all the same, the run being whole:
// a replay reports what ran. A second signal stops the command at once.
func writeReport(trace *replay.Trace, run *replay.Run, opt replayOptions, sig os.Signal, sigs chan os.Signal, stdout, stderr io.Writer) (os.Signal, error) {
	if sig != nil { // the first signal stopped sigs: a second one stops the command
		return sig, writeComparison(trace, run, opt, stdout)
	}
	end := watchSignals(sigs, func(sig os.Signal) {
		fmt.Fprintf(stderr, "konvoy replay: %v: the run has ended; writing its report (a second signal stops at once)\n", sig)
	})
	if beforeReport != nil {
		beforeReport()
	}
	err := writeComparison(trace, run, opt, stdout)
	return end(), err
}

// beforeReport, when not nil, is called as writeReport begins: a test's
// hook.
var beforeReport func()

// writeComparison writes to stdout the report of run beside the
// simulator's prediction for trace, in opt's format.
func writeComparison(trace *replay.Trace, run *replay.Run, opt replayOptions, stdout io.Writer) error {
	cmp, err := replay.Compare(trace, opt.Config, run)
	if err != nil {
		return err
	}
	out, err := cmp.Render(opt.format)
	if err != nil {
		return err
	}
	if _, err = io.WriteString(stdout, out); err != nil {
		return fmt.Errorf("konvoy replay: %w", err) // as konvoy and konvoy plan name themselves
	}
	return nil
}

// withApplied calls f with the -applied file at path, created, and closes
// it after; with nil when path is "" (no -applied). An error creating or
// closing the file is f's error when f has none.
func withApplied(path string, f func(applied *os.File) error) error {
	if path == "" {
		return f(nil)
	}
	applied, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("konvoy replay: -applied: %w", err)
	}
	err = f(applied)
	if cerr := applied.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("konvoy replay: -applied: %w", cerr)
	}
	return err
}

// runLive runs trace live, with a progress line on stderr when it is a
// terminal, until it ends or a signal on sigs (notifySignals's) stops its
// submitting, and returns the run and the signal, if one came.
func runLive(trace *replay.Trace, opt replayOptions, applied *os.File, sigs chan os.Signal, stderr io.Writer) (*replay.Run, os.Signal, error) {
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	progress := new(replay.Progress)
	end := watchSignals(sigs, func(sig os.Signal) {
		wipe := map[bool]string{true: "\r\x1b[K"}[isTerminal(stderr)] // the progress line
		fmt.Fprintf(stderr, "%skonvoy replay: %v: no more events submitted; running those submitted, %s yet to finish (a second signal stops at once, without a report)\n",
			wipe, sig, report.Plural(max(progress.Submitted()-progress.Finished(), 0), "event", "events"))
		stop()
	})
	printNotes(stderr, readingNotes(trace.Rounded, report.StatusesUnused(opt.reader, trace.StatusSteps), opt.reader))
	fmt.Fprintf(stderr, "konvoy replay: running %s live; SIGINT stops submitting and reports what ran\n", report.Plural(trace.Events, "event", "events"))
	var w io.Writer
	if applied != nil {
		w = applied
	}
	shown := showProgress(stderr, progress, trace.Events)
	run, err := replay.Live(ctx, trace, opt.Config, w, progress)
	shown()
	return run, end(), err
}

// defaultUnit is the wall time of one round in a replay not given -unit.
const defaultUnit = time.Millisecond

// parseReplay reads konvoy replay's command line. Its -unit is the trace
// flag's, one round lasting DURATION, with a default of defaultUnit and
// bare numbers read as rounds (eventlog.Reader.BareRounds): a handler
// takes its event's duration × -unit and an event is submitted at its
// arrival × -unit, whether the trace is written in whole rounds or with
// units.
func parseReplay(args []string, stderr io.Writer) (replayOptions, error) {
	var opt replayOptions
	var layout string
	var policies []konvoy.Policy
	var reader *eventlog.Reader
	c := newCommand("konvoy replay", stderr,
		"usage: konvoy replay -events FILE [-layout L] [-policy P] [-consumers N] [-unit D] [-max-held N] [-max-backlog N]",
		"       [-format text|json] [-applied FILE] [trace flags as for konvoy -events]",
		"   or: konvoy replay -brokers ADDR,... -topic T -group G [-session-timeout D] [-idle D] (-duration COL | -duration-model DIST)",
		"       [the same flags, the trace flags reading each record as its kcat -J line]",
		"Runs the trace live (package live): each handler takes its event's duration × -unit, each event is",
		"submitted at its arrival × -unit; prints the simulator's prediction beside the measured run.",
		"With -brokers, consumes the topic as a member of the group (package kafka), each record arriving when consumed.")
	c.StringVar(&opt.events, "events", "", "replay the trace `FILE` (CSV or JSON Lines, .gz or not, - for standard input)")
	var source string // what the trace flags read: -events, or the topic
	c.topicFlags(&opt.topic, &opt.events, &source)
	c.StringVar(&layout, "layout", "convoy", "the `layout` to run: free, convoy, line-convoy, version-stamp, selective-convoy, partitioned:N, resequencer, recorded:N, or recorded (a trace's recorded partitions, as many as its highest plus one)")
	c.resequencer(&opt.Resequencer, "layout")
	c.policy(&policies, &opt.Assignor, "the dispatch `policy`: head-of-line, lane-aware or static (default head-of-line, as the simulator's)")
	c.count(&opt.Consumers, "consumers", 4, live.MaxConsumers, false, "the `N` consumers, handlers running at once")
	c.count(&opt.MaxHeld, "max-held", replay.DefaultMaxHeld, math.MaxInt32, false, "the most `events` the executor holds at once, arrived and not finished; an event due when it is full is submitted late")
	c.IntVar(&opt.MaxBacklog, "max-backlog", replay.DefaultMaxBacklog, "the most `events` each prediction may hold at once (one for each consumer that has taken one, those waiting for a consumer under lane-aware, "+
		"those waiting for a gap under the resequencer); a trace whose backlog outgrows it is an error; 0 for no limit")
	c.rule(func() error {
		if opt.MaxBacklog < 0 {
			return c.usagef("-max-backlog is %d; want 0 (no limit) or more events", opt.MaxBacklog)
		}
		return nil
	})
	c.choice(&opt.format, "format", "text", "the output's `format`: text or json", "text or json", "text", "json")
	c.StringVar(&opt.applied, "applied", "", "write each handled event to `FILE` as JSON Lines: partition, offset, key, step, consumer, attempt, arrival_ns, start_ns, finish_ns")
	c.nonEmpty(&opt.applied, "applied", "the FILE to write each handled event to (leave -applied out to write none)")
	c.rule(func() error { // before the trace flags' own rules, which read -unit as set
		if reader.Resolution < time.Microsecond {
			return c.usagef("-unit is %v; want the wall time of one round, at least 1µs", reader.Resolution)
		}
		return nil
	})
	reader = c.traceFlags(&source, "brokers")
	unit := c.Lookup("unit")
	unit.Usage = "the wall `duration` of one round: a handler takes its event's duration × it, an event is submitted at its arrival × it; " +
		"durations and arrivals are whole rounds (3) or durations with units in whole rounds of it (3ms)"
	unit.DefValue = defaultUnit.String()
	unit.Value.Set(unit.DefValue)
	c.rule(func() (err error) {
		switch {
		case source == "":
			return c.usagef("-events is missing; want the trace FILE to replay, or -brokers, -topic and -group to replay a topic")
		case len(policies) > 1:
			return c.usagef("-policy names one policy in a replay")
		}
		opt.Policy, opt.Unit = policies[0], reader.Resolution
		reader.BareRounds = true
		if opt.Layout, err = parseReplayLayout(layout, len(opt.topic.brokers) > 0); err != nil {
			return c.usagef("-layout: %v", err)
		}
		if sameFile(opt.events, opt.applied) {
			return c.usagef("-applied names %s, the trace -events reads; want another file, as -applied rewrites it", opt.applied)
		}
		if opt.Layout.Equal(konvoy.Resequencer) && len(opt.topic.brokers) > 0 {
			return c.usagef("-layout resequencer does not replay a topic: a member's per-key steps do not survive a rebalance (see docs/kafka.md); use version-stamp")
		}
		if n := opt.Resequencer.Timeout; int64(n) > math.MaxInt64/int64(opt.Unit) {
			return c.usagef("-reseq-timeout is %d rounds of -unit %v: want a timeout within the longest wall time, %v", n, opt.Unit, time.Duration(math.MaxInt64))
		}
		return nil
	})
	if err := c.parse(args); err != nil {
		return opt, err
	}
	opt.reader = *reader
	return opt, nil
}

// parseReplayLayout reads replay's -layout: a built-in layout's name, or
// "recorded" alone, for a trace's recorded partitions, which replay.Load
// counts (runs.RecordedFromTrace); a topic's replay, topic, takes no
// count from its records, which come as they are consumed.
func parseReplayLayout(name string, topic bool) (konvoy.Layout, error) {
	switch {
	case name == "recorded" && topic:
		return konvoy.Layout{}, errors.New(`layout "recorded" of a topic needs its partition count: want recorded:N, N the topic's partitions`)
	case name == "recorded":
		return runs.RecordedFromTrace, nil
	}
	return konvoy.ParseLayout(name)
}

// readingNotes are what reading a trace or a topic with r changed, which
// the comparison does not say itself (it says what -late drop dropped):
// the durations modelled, the statuses named and unused (statusesUnused,
// report.StatusesUnused), and the durations and arrivals rounded.
func readingNotes(rounded int, statusesUnused bool, r eventlog.Reader) []string {
	t := &report.Trace{StatusesUnused: statusesUnused}
	if r.Durations != nil {
		t.Modelled = r.Durations.String()
	}
	notes := report.ReadingNotes(t)
	if rounded > 0 {
		notes = append(notes, report.RoundedNote(rounded, r.Resolution))
	}
	return notes
}

// printNotes writes konvoy replay's notes on standard error.
func printNotes(stderr io.Writer, notes []string) {
	for _, note := range notes {
		fmt.Fprintln(stderr, "konvoy replay: note:", note)
	}
}

// stdinIs tells whether stdin is the regular file at path, not "": a
// file redirected to standard input (< path).
func stdinIs(stdin io.Reader, path string) bool {
	f, ok := stdin.(*os.File)
	if !ok || path == "" {
		return false
	}
	si, err := f.Stat()
	return err == nil && sameRegularFile(si, path)
}

// sameFile tells whether paths a and b, neither "" nor "-", name one
// existing regular file, as two names or links of it may.
func sameFile(a, b string) bool {
	if a == "" || b == "" || a == "-" || b == "-" {
		return false
	}
	sa, err := os.Stat(a)
	return err == nil && sameRegularFile(sa, b)
}

// sameRegularFile tells whether fi is a regular file and path names it. A
// terminal or a device is read and written both, never rewritten: no
// trace -applied would overwrite.
func sameRegularFile(fi os.FileInfo, path string) bool {
	if !fi.Mode().IsRegular() {
		return false
	}
	pi, err := os.Stat(path)
	return err == nil && os.SameFile(fi, pi)
}
