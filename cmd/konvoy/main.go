// Command konvoy tells what per-key ordering costs an event pipeline.
//
// With no arguments it prints the lesson report: the lesson "Sıralı Konvoy"
// run through konvoy's four layouts, the derived figures, rounds by consumer
// count, the convoy's schedule drawn in text, and the capacity table; then
// every built-in layout compared on the same events, and the selective
// convoy simulated beside the lesson's paper formula. -policy runs it under
// other dispatch policies and adds latency by layout and policy.
//
// With -events it reads a trace of your own — CSV with a header row, or JSON
// Lines; gzip-compressed or not; "-" for standard input — and prints the
// same report for it: the measures at the first consumer count, the derived
// figures, how many keys arrive out of order, and rounds by consumer count
// (and, with -capacity, the capacity table; with -policy, latency by layout
// and policy; with -gantt, each layout's schedule for a trace of at most 200
// events). -layouts all compares every built-in layout. -format json and
// -format csv print one record per (layout, policy, consumers) triple
// instead, and without -events the same records for the lesson's events
// (-layouts, -consumers N,... and -policy as for a trace). The report is printed only once the whole trace has been read: a
// bad line prints FILE:LINE and what was wrong on standard error, and no
// report. While a long trace is read, a progress bar shows on standard error
// when it is a terminal.
//
// -plot DIR also draws the report's pictures (package chart) into DIR, as SVG
// and PNG (-plot-format svg, png or both): rounds.* (rounds against 1 to 8
// consumers for the lesson; for a trace, against the -consumers list, or 1
// to 16 without one), latency.* (the wait and response distributions at the
// first consumer count) and schedule-LAYOUT.* (the schedule at that count:
// the convoy's for the lesson, every layout's for a trace, a partitioned:N
// layout's as schedule-partitioned-N.*); the lesson's -format json or csv
// draws the layouts -layouts names, each with its schedule. Schedules and
// latencies are drawn for a trace of at most 2000 events; for a longer one
// -plot draws rounds only, and says so on standard error. go run
// ./cmd/konvoy -plot docs regenerates the README's pictures.
//
// konvoy gen writes a synthetic trace (package synth) to standard output as
// CSV or JSON Lines, event by event, in the form -events reads.
//
// konvoy plan answers, for the lesson or a trace (-events, read with the
// same flags), how many consumers each layout needs under each dispatch
// policy to keep up with a peak rate (-peak, 97.22 events/s by default)
// when one round lasts -round-time (10ms by default, or -unit when a trace
// gives one); the rate above which no number of consumers helps, and the
// lane that sets it; the selective convoy's multiplier, simulated, beside
// the lesson's formula; the formula's sensitivity to the ordered share; and
// the fewest Kafka partitions that keep collisions within -collision of the
// heaviest partition. Every answer states what it assumes; -format json
// prints them all as one object. The planner reads a trace many times: it
// holds a trace's events in memory up to 64 MiB (or an eighth of
// -max-memory, when less) and reads a longer one again for each pass.
// Standard input is read as it arrives, so that a bad line stops any
// command at once: with more than one run, or for the
// planner, it is copied to a temporary file as it is read, which is
// removed however the command ends.
//
// Usage:
//
//	konvoy [-consumers N] [-policy P,...|all] [-partitions N] [-plot DIR [-plot-format F]]
//	konvoy -format json|csv [-consumers N,...] [-layouts L,...|all] [-policy P,...|all] [-partitions N]
//	konvoy -events FILE [-consumers N,...] [-layouts L,...|all] [-partitions N]
//	       [-policy P,...|all] [-gantt] [-format text|json|csv]
//	       [-capacity [-peak R]] [-plot DIR [-plot-format svg|png|both]]
//	       [-input csv|jsonl]
//	       [-key COL] [-line COL] [-status COL] [-step COL] [-duration COL] [-at COL]
//	       [-steps S,...] [-history S,...] [-unit D [-round]]
//	       [-at-format rounds|rfc3339|unix-s|unix-ms|unix-us|unix-ns]
//	       [-reorder D [-late error|drop]] [-duration-model DIST [-seed N]]
//	       [-partition COL] [-assignor range|round-robin|first-seen]
//	       [-start first-seen|zero] [-reseq-timeout ROUNDS] [-reseq-capacity N] [-reject-old]
//	       [-max-memory SIZE] [-max-backlog N]
//	konvoy plan [-events FILE [trace flags as above]] [-peak R] [-round-time D]
//	       [-layouts L,...|all] [-partitions N] [-policy P,...|all]
//	       [-max-consumers N] [-consumers N] [-collision S] [-max-partitions N]
//	       [-format text|json] [-max-memory SIZE] [-max-backlog N]
//	konvoy serve [-addr HOST:PORT] [-max-upload SIZE] [-events FILE [trace flags as above]]
//	konvoy replay -events FILE [trace flags as above] [-layout L] [-policy P] [-consumers N]
//	       [-unit D] [-max-held N] [-max-backlog N] [-format text|json] [-applied FILE]
//	konvoy gen [-format csv|jsonl] [-seed N] [-events N] [-keys N] [-key-skew S]
//	       [-lines N] [-line-skew S] [-steps N] [-ordered N] [-in-flight N]
//	       [-out-of-order P] [-duration DIST] [-rate R]
//	       [-burst-every N -burst-len N -burst-factor F]
//	konvoy help [COMMAND]
//
// konvoy help prints konvoy's usage, and konvoy help COMMAND what konvoy
// COMMAND -h prints, on standard error, with exit status 0. An argument
// that looks like a subcommand but is not konvoy's first, or is one or
// two letters from one, is a usage error that says so.
//
// A trace with no events is bad input to every command. A count beyond its
// range (consumers and partitions: 1 to 2147483647), however many digits
// it has, is a usage error naming the flag and the range. SIGINT or SIGTERM stops any command: its temporary files are
// removed and nothing more is printed on standard output.
//
// konvoy replay runs a trace live through package live's executor, each
// handler taking its event's duration and each event submitted at its
// arrival, one round lasting -unit (1ms by default; durations and arrivals
// are whole rounds, or durations with units in whole rounds of -unit), and
// prints the simulator's prediction beside the
// measured run (see docs/replay.md). SIGINT or SIGTERM stops it submitting:
// what was submitted runs to its end and is reported.
//
// konvoy serve serves the lesson's report, or a trace's (-events, read
// with the same flags), as a page on 127.0.0.1:8080 (-addr): controls for
// the layouts, the policy and the consumers, kept in the URL's query under
// the flags' names; the first table, rounds against consumers, schedules
// and latency; an upload form for a trace of up to 50 MB (-max-upload);
// and GET /api/report, which answers what konvoy -format json prints for
// the same flags. SIGINT or SIGTERM shuts it down gracefully.
//
// Exit status 0 on success, 1 on a failed run or bad input, 2 on a usage
// error, 130 or 143 when stopped by SIGINT or SIGTERM (konvoy serve exits 0
// once it has shut down, and konvoy replay -brokers once it has drained,
// committed and left its group).
package main

import (
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strings"

	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/chart"
	"github.com/sirali-konvoy/konvoy/eventlog"
	"github.com/sirali-konvoy/konvoy/internal/report"
	"github.com/sirali-konvoy/konvoy/internal/runs"
	"github.com/sirali-konvoy/konvoy/lesson"
)

func main() {
	if len(os.Args) < 2 || (os.Args[1] != "serve" && os.Args[1] != "replay") { // which stop gracefully on their own
		name := "konvoy"
		if len(os.Args) > 1 && subcommands[os.Args[1]] != nil {
			name += " " + os.Args[1] // konvoy plan, konvoy gen
		}
		exitOnInterrupt(name, os.Stderr)
	}
	status := run(os.Args[1:], os.Stdin, stdoutWriter{os.Stdout}, os.Stderr)
	if interrupted.Load() {
		select {} // the interrupt handler removes the temporary files and exits
	}
	os.Exit(status)
}

// options are the parsed command line.
type options struct {
	consumers  []int // as given, without repeats; the first is the measure table's
	events     string
	layouts    []konvoy.Layout
	partitions int             // of the layout partitioned (in -layouts all)
	policies   []konvoy.Policy // as given; the first is the report's
	assignor   konvoy.Assignor // -assignor, 0 for the default
	latency    bool            // -policy was given: add the latency table
	gantt      bool
	format     string
	capacity   bool
	peak       float64
	reader     eventlog.Reader
	maxBacklog int                      // -max-backlog: the events all runs may hold, 0 for no limit
	maxMemory  int                      // -max-memory: the bytes all runs may take
	reseq      konvoy.ResequencerConfig // -start, -reseq-timeout, -reseq-capacity, -reject-old

	all          bool           // -layouts all: recorded joins them when the trace has partitions
	consumersSet bool           // -consumers was given
	layoutsSet   bool           // -layouts was given
	plot         string         // -plot: the directory of the pictures, or ""
	plotFormats  []chart.Format // -plot-format
}

// eventFlags are konvoy's flags, beside the trace flags, that mean
// something only with -events.
var eventFlags = []string{"gantt", "capacity", "peak"}

// recordFlags are konvoy's flags that mean something with -events, or for
// the lesson's records, -format json or csv.
var recordFlags = []string{"layouts", "start", "reseq-timeout", "reseq-capacity", "reject-old"}

// defaultLayouts are the layouts of a trace's report without -layouts: the
// lesson's four.
var defaultLayouts = []string{"free", "convoy", "line-convoy", "version-stamp"}

// subcommands are konvoy's subcommands, by the name that is their first
// argument; without one, konvoy prints the lesson or trace report. It is
// set in init, as konvoy help and konvoy's own flags' errors, which konvoy
// serve parses, name the subcommands: a cycle for a variable's
// initializer.
var subcommands map[string]func(args []string, stdin io.Reader, stdout, stderr io.Writer) int

func init() {
	subcommands = map[string]func(args []string, stdin io.Reader, stdout, stderr io.Writer) int{
		"gen":    func(args []string, _ io.Reader, stdout, stderr io.Writer) int { return runGen(args, stdout, stderr) },
		"help":   runHelp,
		"plan":   runPlan,
		"replay": runReplay,
		"serve":  runServe,
	}
}

// run is the whole command, with its streams passed in so that tests can
// call it; it returns the exit status.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		if sub, ok := subcommands[args[0]]; ok {
			return sub(args[1:], stdin, stdout, stderr)
		}
	}
	opt, err := parse(args, stderr)
	if err != nil {
		return exitStatus(err, stderr)
	}
	var out func(io.Writer) error // writes the report: a JSON report a record at a time
	var pics pictures
	if opt.events == "" && opt.format == "text" {
		var text string
		text, err = report.Lesson(lesson.Events(), report.LessonOptions{Consumers: opt.consumers[0], Policies: opt.policies, Partitions: opt.partitions, Latency: opt.latency, Assignor: opt.assignor})
		out = func(w io.Writer) error { _, err := io.WriteString(w, text); return err }
		if err == nil && opt.plot != "" {
			pics, err = lessonPictures(opt)
		}
	} else {
		out, pics, err = traceReport(opt, stdin, stderr)
	}
	if err == nil && opt.plot != "" {
		err = writePictures(opt.plot, pics.files)
	}
	if pe := (*picturesError)(nil); errors.As(err, &pe) {
		if werr := out(stdout); werr != nil {
			err = errors.Join(werr, err)
		}
	}
	if err != nil {
		return exitStatus(err, stderr)
	}
	for _, note := range pics.notes {
		fmt.Fprintln(stderr, "konvoy: note:", note)
	}
	if err := out(stdout); err != nil {
		fmt.Fprintln(stderr, "konvoy:", err)
		return 1
	}
	return 0
}

// runHelp is konvoy help [COMMAND]: konvoy's usage, or its subcommand
// COMMAND's, as -h prints it, on stderr, with exit status 0; konvoy help
// help, or help -h, is konvoy's. A name that is no subcommand, or an
// argument more, is a usage error.
func runHelp(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	switch {
	case len(args) == 0 || len(args) == 1 && slices.Contains([]string{"help", "-h", "-help", "--help"}, args[0]):
		return run([]string{"-h"}, stdin, stdout, stderr)
	case len(args) > 1:
		fmt.Fprintf(stderr, "konvoy help: unexpected argument %q; want konvoy help or konvoy help COMMAND\n", args[1])
	case subcommands[args[0]] == nil:
		hint := ""
		if name := nearestSubcommand(args[0]); name != "" && name != "help" {
			hint = fmt.Sprintf("; did you mean konvoy help %s?", name)
		}
		fmt.Fprintf(stderr, "konvoy help: unknown command %q; want %s%s\n", args[0], subcommandNames(), hint)
	default:
		return subcommands[args[0]]([]string{"-h"}, stdin, stdout, stderr)
	}
	return 2
}

// subcommandNames lists the subcommands that konvoy help explains,
// sorted, as an error wants them: "gen, plan, replay or serve".
func subcommandNames() string {
	names := slices.DeleteFunc(slices.Sorted(maps.Keys(subcommands)), func(name string) bool { return name == "help" })
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// subcommandHint returns what to add to the error of an argument, arg,
// that konvoy did not expect: that a subcommand comes first, when arg
// names one and is not konvoy's first argument; for the first, the
// nearest subcommand (see nearestSubcommand), or for one that looks like
// a file's name (a dot or a slash in it) that -events reads a trace, or
// else the subcommands there are. It returns "" otherwise.
func subcommandHint(arg string, first bool) string {
	switch {
	case !first && subcommands[arg] != nil:
		return "; a subcommand comes first, before any flag or --"
	case !first:
		return ""
	}
	if name := nearestSubcommand(arg); name != "" {
		return fmt.Sprintf("; did you mean konvoy %s?", name)
	}
	if strings.ContainsAny(arg, "./") {
		return fmt.Sprintf("; a trace is read with -events FILE (konvoy -events %s)", arg)
	}
	return fmt.Sprintf("; want a command first (%s; konvoy help lists them), or flags alone", subcommandNames())
}

// nearestSubcommand returns the subcommand nearest to arg: a letter
// away, or two for a name of five letters or more (see editDistance); the
// first in alphabetical order of those as near; "" when none is.
func nearestSubcommand(arg string) string {
	best, nearest := "", 3
	for _, name := range slices.Sorted(maps.Keys(subcommands)) {
		if d := editDistance(arg, name); d < nearest && (d <= 1 || len(name) >= 5) {
			best, nearest = name, d
		}
	}
	return best
}

// editDistance returns the Levenshtein distance between a and b, in
// bytes: the fewest insertions, deletions and substitutions that turn one
// into the other. It takes O(len(a)·len(b)) time.
func editDistance(a, b string) int {
	row := make([]int, len(b)+1)
	for j := range row {
		row[j] = j
	}
	for i := range len(a) {
		diag := row[0]
		row[0] = i + 1
		for j := range len(b) {
			cost := 1
			if a[i] == b[j] {
				cost = 0
			}
			diag, row[j+1] = row[j+1], min(row[j+1]+1, row[j]+1, diag+cost)
		}
	}
	return row[len(b)]
}

// parse reads the command line. Its errors are usageError or flag.ErrHelp.
func parse(args []string, stderr io.Writer) (options, error) { return parseArgs(args, stderr, false) }

// parseArgs is parse, which lets a flag be given twice, the last value
// kept, when lastWins is true (see command.lastWins).
func parseArgs(args []string, stderr io.Writer, lastWins bool) (options, error) {
	var (
		opt       options
		consumers intList
		layouts   = stringList(defaultLayouts)
	)
	c := newCommand("konvoy", stderr,
		"usage: konvoy [-consumers N] [-policy P,...|all] [-partitions N] [-plot DIR]",
		"       konvoy -events FILE [-consumers N,...] [-layouts L,...|all] [-policy P,...|all] [-format text|json|csv] [flags]",
		"       konvoy plan [flags]  (konvoy plan -h lists them)",
		"       konvoy serve [flags]  (konvoy serve -h lists them)",
		"       konvoy gen [flags]  (konvoy gen -h lists them)",
		"       konvoy replay -events FILE [flags]  (konvoy replay -h lists them)",
		"       konvoy help [COMMAND]  (this, or what konvoy COMMAND -h prints)",
		"Prints the lesson report: the lesson's events under every layout; with -events, the same report for a trace of your own;",
		"with -plot, draws its pictures too. konvoy plan answers how many consumers keep up with a peak rate;",
		"konvoy gen writes a synthetic trace.")
	c.needs("events", eventFlags...)
	c.Var(rangedList{&consumers, c, "consumers"}, "consumers", "the consumers `N` of the first table and the capacity; with -events a list N,... whose first is the first table's (default 4; with -events, 4 for the first table and 1,2,4,8 by consumers)")
	c.wantRange("consumers", fmt.Sprintf("1 to %d", konvoy.MaxConsumers))
	c.rule(func() (err error) {
		opt.consumers, err = parseConsumers(c, consumers, opt.events != "" || opt.format != "text")
		return err
	})
	c.StringVar(&opt.events, "events", "", "read the trace `FILE` (CSV or JSON Lines, .gz or not, - for standard input) instead of the lesson")
	c.Var(&layouts, "layouts", "the layouts `L,...` to run, in report order: free, convoy, line-convoy, version-stamp, selective-convoy, partitioned (of -partitions), partitioned:N, resequencer, recorded (a trace's recorded partitions), recorded:N; or all of them, all (recorded among them when the trace has partitions)")
	c.count(&opt.partitions, "partitions", 0, konvoy.MaxPartitions, true, "the `N` partitions of the layout partitioned, alone or in -layouts all (default: the largest consumer count)")
	c.policy(&opt.policies, &opt.assignor, "the dispatch policies `P,...` (head-of-line, lane-aware, static, or all); the first is the report's, and each adds a row per layout to a latency table (default head-of-line, and no latency table)")
	c.BoolVar(&opt.gantt, "gantt", false, fmt.Sprintf("draw each layout's schedule at the first consumer count and policy, for a trace of at most %d events", maxGanttEvents))
	c.choice(&opt.format, "format", "text", "the report's `format`: text, json or csv", "text, json or csv", "text", "json", "csv")
	c.BoolVar(&opt.capacity, "capacity", false, "add the capacity table for the trace's ordered share (needs free in -layouts)")
	c.Float64Var(&opt.peak, "peak", lesson.PeakRate, "the peak write `rate`, in events/s, of -capacity's table for -events (the lesson's report has its own, at the lesson's peak)")
	reader := c.traceFlags(&opt.events)
	c.backlog(&opt.maxBacklog)
	c.rule(func() error { // before the resequencer's own: its flags need -events first
		if i := slices.IndexFunc(recordFlags, c.isSet); i >= 0 && opt.events == "" && opt.format == "text" {
			return c.usagef("-%s needs -events, or -format json or csv for the lesson", recordFlags[i])
		}
		return nil
	})
	c.resequencer(&opt.reseq, "layouts")
	c.memory(&opt.maxMemory, memoryRuns)
	c.plotFlags(&opt.plot, &opt.plotFormats)
	c.lastWins = lastWins
	c.argHint = subcommandHint
	if err := c.parse(args); err != nil {
		return opt, err
	}
	opt.reader, opt.latency, opt.consumersSet, opt.layoutsSet = *reader, c.given["policy"], c.given["consumers"], c.given["layouts"]
	if opt.partitions == 0 {
		opt.partitions = min(slices.Max(opt.consumers), konvoy.MaxPartitions)
	}
	if opt.events == "" && opt.format == "text" {
		return opt, nil
	}
	var err error
	if opt.layouts, err = parseLayouts("konvoy", layouts, opt.partitions, c.given["partitions"]); err != nil {
		return opt, err
	}
	opt.all = slices.Contains(layouts, "all")
	if opt.events == "" {
		if err := runs.NoRecordedLesson(opt.layouts); err != nil {
			return opt, c.usagef("%v", err)
		}
	}
	if opt.events == "-" && slices.ContainsFunc(opt.layouts, recordedFromTrace.Equal) {
		return opt, c.usagef("-layouts recorded takes the topic's partition count from the trace, which standard input cannot be read twice for: name it, recorded:N")
	}
	if err := checkReport(opt, c); err != nil {
		return opt, err
	}
	return opt, c.backlogShared(opt.maxBacklog, len(opt.layouts)*len(opt.policies)*reportCounts(opt))
}

// parseConsumers reads -consumers: counts, each once, as -layouts and
// -policy name theirs, and with -events (trace) a list of them. Without
// it, it returns the lesson's count, and for a trace, 1, 2 and 8 besides.
func parseConsumers(c *command, counts []int, trace bool) ([]int, error) {
	var out []int
	for _, n := range counts {
		if err := inRange(c.name, "consumers", n, konvoy.MaxConsumers); err != nil {
			return nil, err
		}
		if slices.Contains(out, n) {
			return nil, c.usagef("-consumers names %d twice", n)
		}
		out = append(out, n)
	}
	switch {
	case len(out) > 1 && !trace:
		return nil, c.usagef("-consumers takes one count without -events")
	case len(out) == 0 && trace:
		return []int{lesson.Consumers, 1, 2, 8}, nil
	case len(out) == 0:
		return []int{lesson.Consumers}, nil
	}
	return out, nil
}

// maxRuns is the most runs, (layout, policy, consumers) triples, one report
// makes: each costs some 50 KB once it has taken events, before its keys.
const maxRuns = 4096

// reportCounts returns how many consumer counts a trace's report runs
// each layout under each policy at: those of -consumers, and with -plot
// those of the rounds picture too (runs.Options.More).
func reportCounts(opt options) int {
	if opt.plot == "" {
		return len(opt.consumers)
	}
	return len(slices.Compact(slices.Sorted(slices.Values(append(slices.Clone(opt.consumers), plotCounts(opt)...)))))
}

// checkRuns checks that a trace's report makes at most maxRuns runs,
// counting recorded among all's layouts for a file, which joins them when
// the trace has partitions.
func checkRuns(opt options, c *command) error {
	counts, layouts, recorded := reportCounts(opt), len(opt.layouts), ""
	if opt.all && opt.events != "" && !streamed(opt.events) {
		layouts, recorded = layouts+1, ", recorded among them if the trace has partitions"
	}
	if runs := layouts * len(opt.policies) * counts; runs > maxRuns {
		return c.usagef("-layouts, -policy and -consumers ask for %d runs (%d × %d × %d%s); want at most %d", runs, layouts, len(opt.policies), counts, recorded, maxRuns)
	}
	return nil
}

// checkReport checks what a trace's report asks of its flags together: at
// most maxRuns runs, layouts a picture can draw, the text report for the
// schedule view and the capacity table, free for the capacity's costs, and
// a peak rate the capacity table can use.
func checkReport(opt options, c *command) error {
	if err := checkRuns(opt, c); err != nil {
		return err
	}
	switch {
	case opt.plot != "" && len(opt.layouts) > maxPlotLayouts:
		return c.usagef("-plot draws at most %d layouts in one picture; -layouts names %d", maxPlotLayouts, len(opt.layouts))
	case opt.gantt && opt.format != "text":
		return c.usagef("-gantt is part of the text report; -format %s has no schedule view", opt.format)
	case opt.capacity && opt.format != "text":
		return c.usagef("-capacity is part of the text report; -format %s has no capacity table", opt.format)
	case opt.capacity && !slices.ContainsFunc(opt.layouts, konvoy.Free.Equal):
		return c.usagef("-capacity measures costs relative to free: add free to -layouts")
	case c.given["peak"] && !opt.capacity:
		return c.usagef("-peak needs -capacity")
	case !(opt.peak >= 0) || opt.peak > 1e300:
		return c.usagef("-peak is %v; want a rate from 0 to 1e300 events/s", opt.peak)
	}
	return nil
}

// recordedFromTrace stands, in -layouts, for the layout recorded, whose
// partition count konvoy takes from the trace.
var recordedFromTrace = runs.RecordedFromTrace

// parseLayouts reads -layouts of the command cmd: built-in layout names,
// "partitioned" for a topic of partitions partitions, or "all" alone for
// konvoy.AllLayouts. partitionsSet tells whether -partitions was given,
// which some layout must then use.
func parseLayouts(cmd string, names []string, partitions int, partitionsSet bool) ([]konvoy.Layout, error) {
	var out []konvoy.Layout
	used := false // a layout takes its partitions from -partitions
	for _, name := range names {
		name = strings.TrimSpace(name)
		add, named := map[string][]konvoy.Layout{"partitioned": {konvoy.Partitioned(partitions)}, "recorded": {recordedFromTrace}}[name]
		switch l, err := konvoy.ParseLayout(name); {
		case name == "all" && len(names) > 1:
			return nil, usageIn(cmd, "-layouts all stands alone; it names every layout")
		case name == "all":
			add = konvoy.AllLayouts(partitions)
		case named:
		case err != nil && strings.Contains(name, ":"):
			return nil, usageIn(cmd, "-layouts: %v", err)
		case err != nil:
			return nil, usageIn(cmd, "-layouts: unknown layout %q; want free, convoy, line-convoy, version-stamp, selective-convoy, partitioned (of -partitions), partitioned:N, resequencer, recorded, recorded:N, or all", name)
		default:
			add = []konvoy.Layout{l}
		}
		used = used || name == "all" || name == "partitioned"
		for _, l := range add {
			if slices.ContainsFunc(out, l.Equal) {
				return nil, usageIn(cmd, "-layouts names %s twice", l)
			}
			out = append(out, l)
		}
	}
	if partitionsSet && !used {
		return nil, usageIn(cmd, "-partitions sets the layout partitioned; add partitioned or all to -layouts")
	}
	return out, nil
}
