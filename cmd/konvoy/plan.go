package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/eventlog"
	"github.com/sirali-konvoy/konvoy/lesson"
)

// defaultRoundTime is how long one round lasts when neither -round-time nor
// -unit says: the service time konvoy.ExamplePlanConsumers plans the lesson
// with.
const defaultRoundTime = 10 * time.Millisecond

// defaultPlanLayouts are the layouts konvoy plan answers for by default;
// partitioned is a topic of the fewest partitions that keep collisions
// within -collision.
var defaultPlanLayouts = []string{"free", "convoy", "line-convoy", "selective-convoy", "partitioned"}

// maxPartitionSearch is the most partitions -max-partitions lets the
// partition search try: it takes time in keys × partitions, and keys whose
// murmur2 hashes are equal collide in every topic, so that it would try
// every count up to the limit; no Kafka topic has as many.
const maxPartitionSearch = 1 << 16

// planOptions are konvoy plan's parsed command line.
type planOptions struct {
	events        string // "" for the lesson
	reader        eventlog.Reader
	layoutNames   []string
	partitions    int // -partitions; 0 for the count the partition search finds
	policies      []konvoy.Policy
	peak          float64
	round         time.Duration
	maxConsumers  int
	maxBacklog    int // -max-backlog: the events all runs may hold, 0 for no limit
	consumers     int // -consumers; 0 for the count free consumption needs
	collision     float64
	maxPartitions int
	format        string
}

// runPlan is konvoy plan: it answers how many consumers each layout needs at
// a peak rate, for the lesson or a trace, and returns the exit status.
// Nothing is printed until every answer has been worked out.
func runPlan(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	opt, err := parsePlan(args, stderr)
	if err != nil {
		return exitStatus(err, stderr)
	}
	out, err := planReport(opt, stdin)
	if err != nil {
		return exitStatus(err, stderr)
	}
	if _, err := io.WriteString(stdout, out); err != nil {
		fmt.Fprintln(stderr, "konvoy plan:", err)
		return 1
	}
	return 0
}

// planReport reads the trace opt names, or takes the lesson's events, and
// returns the plan in the asked format.
func planReport(opt planOptions, stdin io.Reader) (string, error) {
	src := lessonSource()
	if opt.events != "" {
		var err error
		if src, err = readSource(opt.reader, stdin, needsLines(opt.layoutNames)); err != nil {
			return "", err
		}
		defer src.close()
		if src.stats.Events() == 0 {
			return "", errNoEvents(src.name)
		}
	}
	a, err := answerPlan(src, opt)
	if err != nil {
		return "", err
	}
	if opt.format == "json" {
		return planJSON(a)
	}
	return planText(a), nil
}

// needsLines tells whether layout names, as -layouts gives them, name a
// layout that needs every event's line.
func needsLines(names []string) bool {
	return slices.ContainsFunc(names, func(n string) bool {
		n = strings.TrimSpace(n)
		return n == konvoy.LineConvoy.String() || n == "all"
	})
}

// parsePlan reads konvoy plan's command line. Its errors are usageError or
// flag.ErrHelp.
func parsePlan(args []string, stderr io.Writer) (planOptions, error) {
	fs := flag.NewFlagSet("konvoy plan", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var (
		opt      planOptions
		layouts  = stringList(defaultPlanLayouts)
		policies stringList
		trace    traceFlags
	)
	fs.StringVar(&opt.events, "events", "", "plan for the trace `FILE` (CSV or JSON Lines, .gz or not, - for standard input) instead of the lesson")
	fs.Float64Var(&opt.peak, "peak", lesson.PeakRate, "the peak write `rate` to keep up with, in events/s")
	fs.DurationVar(&opt.round, "round-time", 0, "how long one round lasts: the service time of an event of duration 1 (default: -unit when given, else 10ms)")
	fs.Var(&layouts, "layouts", "the layouts `L,...` to plan for: free, convoy, line-convoy, version-stamp, selective-convoy, partitioned (of -partitions), partitioned:N, resequencer; or all of them, all")
	fs.IntVar(&opt.partitions, "partitions", 0, "the `N` partitions of the layout partitioned (default: the fewest that keep collisions within -collision, else -max-partitions)")
	fs.Var(&policies, "policy", "the dispatch policies `P,...`: head-of-line, lane-aware, static, or all (default head-of-line)")
	fs.IntVar(&opt.maxConsumers, "max-consumers", 1024, "the most consumers, `N`, the planner tries")
	fs.IntVar(&opt.consumers, "consumers", 0, "measure the selective convoy's and the formula's costs at `N` consumers (default: the fewest with which free consumption keeps up)")
	fs.Float64Var(&opt.collision, "collision", 0.05, "the `share` of the heaviest partition's load that other keys' collisions may take, 0 to 1")
	fs.IntVar(&opt.maxPartitions, "max-partitions", 256, fmt.Sprintf("the most partitions, `N`, the partition search tries, up to %d: it tries each count in turn, over every key", maxPartitionSearch))
	fs.StringVar(&opt.format, "format", "text", "the plan's `format`: text or json")
	trace.register(fs)
	maxBacklog := backlogFlag(fs)
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: konvoy plan [-peak R] [-round-time D] [-layouts L,...|all] [-policy P,...|all] [-format text|json] [flags]")
		fmt.Fprintln(fs.Output(), "       konvoy plan -events FILE [trace flags as for konvoy -events] [flags]")
		fmt.Fprintln(fs.Output(), "Answers how many consumers each layout needs to keep up with a peak write rate, where no number of")
		fmt.Fprintln(fs.Output(), "consumers helps, what a selective convoy costs, and how many partitions keep collisions small,")
		fmt.Fprintln(fs.Output(), "for the lesson's events or a trace. The planner reads a trace several times; standard input is")
		fmt.Fprintln(fs.Output(), "copied to a temporary file first.")
		fs.PrintDefaults()
	}
	set, err := parseFlags(fs, args, "konvoy plan", stderr)
	if err != nil {
		return opt, err
	}
	fail := func(format string, args ...any) (planOptions, error) {
		return opt, usageIn("konvoy plan", format, args...)
	}

	if !(opt.peak > 0) || math.IsInf(opt.peak, 1) {
		return fail("-peak is %v; want a positive rate in events/s", opt.peak)
	}
	opt.maxBacklog = *maxBacklog
	if err := inRange("konvoy plan", "max-consumers", opt.maxConsumers, konvoy.MaxConsumers); err != nil {
		return opt, err
	}
	if set["consumers"] {
		if err := inRange("konvoy plan", "consumers", opt.consumers, konvoy.MaxConsumers); err != nil {
			return opt, err
		}
	}
	if !(opt.collision >= 0 && opt.collision <= 1) {
		return fail("-collision is %v; want a share from 0 to 1", opt.collision)
	}
	if err := inRange("konvoy plan", "max-partitions", opt.maxPartitions, maxPartitionSearch); err != nil {
		return opt, err
	}
	if set["partitions"] {
		if err := inRange("konvoy plan", "partitions", opt.partitions, konvoy.MaxPartitions); err != nil {
			return opt, err
		}
	}
	if opt.format != "text" && opt.format != "json" {
		return fail("-format is %q; want text or json", opt.format)
	}
	if opt.policies, err = parsePolicies(policies); err != nil {
		return opt, inPlan(err)
	}
	opt.layoutNames = layouts
	if _, err := parsePlanLayouts(layouts, max(1, opt.partitions), set["partitions"]); err != nil {
		return opt, err
	}

	if opt.events == "" {
		for _, name := range append(traceFlagNames, "max-backlog") {
			if set[name] {
				return fail("-%s needs -events", name)
			}
		}
	} else if opt.reader, err = trace.reader(opt.events, "konvoy plan"); err != nil {
		return opt, err
	}
	unit := opt.reader.Resolution
	switch {
	case set["round-time"] && opt.round <= 0:
		return fail("-round-time is %v; want how long one round lasts, such as 10ms", opt.round)
	case set["round-time"] && unit > 0 && opt.round != unit:
		return fail("-round-time is %v, but -unit makes one round %v; leave -round-time out", opt.round, unit)
	case set["round-time"]:
	case unit > 0:
		opt.round = unit
	default:
		opt.round = defaultRoundTime
	}
	return opt, nil
}

// parsePlanLayouts reads -layouts as konvoy does, with konvoy plan's name in
// its errors.
func parsePlanLayouts(names []string, partitions int, partitionsSet bool) ([]konvoy.Layout, error) {
	l, err := parseLayouts(names, partitions, partitionsSet)
	return l, inPlan(err)
}

// inPlan rewrites a usage error of konvoy as one of konvoy plan.
func inPlan(err error) error {
	var ue usageError
	if errors.As(err, &ue) {
		return usageError{"konvoy plan: " + strings.TrimPrefix(ue.msg, "konvoy: ")}
	}
	return err
}
