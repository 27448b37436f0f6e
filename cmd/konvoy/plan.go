package main

import (
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/eventlog"
	"github.com/sirali-konvoy/konvoy/internal/report"
	"github.com/sirali-konvoy/konvoy/internal/runs"
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
// partition search try: it takes time up to keys × partitions, and keys whose
// murmur2 hashes are equal collide in every topic, so that it would try
// every count up to the limit; no Kafka topic has as many.
const maxPartitionSearch = 1 << 16

// planOptions are konvoy plan's parsed command line.
type planOptions struct {
	report.PlanOptions
	events      string // "" for the lesson
	reader      eventlog.Reader
	layoutNames []string
	format      string
}

// runPlan is konvoy plan: it answers how many consumers each layout needs at
// a peak rate, for the lesson or a trace, and returns the exit status.
// Nothing is printed until every answer has been worked out.
func runPlan(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	opt, err := parsePlan(args, stderr)
	if err != nil {
		return exitStatus(err, stderr)
	}
	out, notes, err := planReport(opt, stdin)
	undrawn := (*picturesError)(nil)
	if err != nil && !errors.As(err, &undrawn) {
		return exitStatus(err, stderr)
	}
	for _, note := range notes {
		fmt.Fprintln(stderr, "konvoy plan: note:", note)
	}
	if _, err := io.WriteString(stdout, out); err != nil {
		fmt.Fprintln(stderr, "konvoy plan:", err)
		return 1
	}
	if undrawn != nil { // the plan is whole: its picture alone could not be drawn
		return exitStatus(err, stderr)
	}
	return 0
}

// planReport reads the trace opt names, or takes the lesson's events, and
// returns the plan in the asked format, with the notes on what reading
// the trace changed that the plan does not say itself. When the picture
// alone cannot be drawn, it returns the plan with a *picturesError.
func planReport(opt planOptions, stdin io.Reader) (string, []string, error) {
	defer runs.LimitMemory(opt.MaxMemory)() // before the trace is read: its names may take most of it
	src := lessonSource()
	if opt.events != "" {
		var err error
		if src, err = readSource(opt.reader, stdin, needsLines(opt.layoutNames), opt.MaxMemory); err != nil {
			return "", nil, err
		}
		defer src.close()
		if src.Stats.Events() == 0 {
			return "", nil, errNoEvents(src.Name)
		}
		if opt.Layouts, err = src.recorded(opt.Layouts, opt.reader); err != nil {
			return "", nil, err
		}
	}
	notes := src.readingNotes(opt.reader, opt.format == "text")
	a, err := report.NewPlan(&src.PlanSource, opt.PlanOptions)
	if err != nil {
		return "", nil, err
	}
	var undrawn error
	if pics := (pictures{cmd: "konvoy plan"}); opt.Plot != "" && a.SLOChart() != nil {
		if err := pics.draw(opt.PlotFormats, "slo", a.DrawSLO); err != nil {
			undrawn = &picturesError{err}
		} else if err := writePicturesOf("konvoy plan", opt.Plot, pics.files); err != nil {
			return "", notes, err
		}
	}
	if opt.format == "json" {
		out, err := report.PlanJSON(a)
		if err != nil {
			return "", notes, fmt.Errorf("konvoy plan: %w", err)
		}
		return out, notes, undrawn
	}
	return report.PlanText(a), notes, undrawn
}

// needsLines tells whether layout names, as -layouts gives them, name a
// layout that needs every event's line.
func needsLines(names []string) bool {
	layouts, _ := parseLayouts("konvoy plan", names, 1, false)
	return slices.ContainsFunc(layouts, konvoy.Layout.NeedsLine)
}

// parsePlan reads konvoy plan's command line. Its errors are usageError or
// flag.ErrHelp.
func parsePlan(args []string, stderr io.Writer) (planOptions, error) {
	var (
		opt     planOptions
		layouts = stringList(defaultPlanLayouts)
		planned int // the layouts -layouts names, the trace's partitions aside
	)
	c := newCommand("konvoy plan", stderr,
		"usage: konvoy plan [-peak R] [-round-time D] [-layouts L,...|all] [-policy P,...|all] [-format text|json] [flags]",
		"       konvoy plan -events FILE [trace flags as for konvoy -events] [flags]",
		"Answers how many consumers each layout needs to keep up with a peak write rate, where no number of",
		"consumers helps, what a selective convoy costs, and how many partitions keep collisions small,",
		"for the lesson's events or a trace. The planner reads a trace several times; standard input is",
		"copied to a temporary file as it is read.")
	c.StringVar(&opt.events, "events", "", "plan for the trace `FILE` (CSV or JSON Lines, .gz or not, - for standard input) instead of the lesson")
	c.Float64Var(&opt.Peak, "peak", lesson.PeakRate, "the peak write `rate` to keep up with, in events/s; for a trace whose events arrive over time, its own mean rate by default")
	c.rule(func() error {
		if !(opt.Peak > 0) || math.IsInf(opt.Peak, 1) {
			return c.usagef("-peak is %v; want a positive rate in events/s", opt.Peak)
		}
		return nil
	})
	c.DurationVar(&opt.Round, "round-time", 0, "how long one round lasts: the service time of an event of duration 1 (default: -unit when given, else 10ms)")
	c.Var(&layouts, "layouts", "the layouts `L,...` to plan for: free, convoy, line-convoy, version-stamp, selective-convoy, partitioned (of -partitions), partitioned:N, resequencer, recorded (a trace's recorded partitions), recorded:N; or all of them but recorded, all")
	c.count(&opt.Partitions, "partitions", 0, konvoy.MaxPartitions, true, "the `N` partitions of the layout partitioned (default: the fewest that keep collisions within -collision, else -max-partitions)")
	c.policy(&opt.Policies, &opt.Assignor, "the dispatch policies `P,...`: head-of-line, lane-aware, static, or all (default head-of-line)")
	c.count(&opt.MaxConsumers, "max-consumers", 1024, konvoy.MaxConsumers, false, "the most consumers, `N`, the planner tries")
	c.count(&opt.Consumers, "consumers", 0, konvoy.MaxConsumers, true, "measure the selective convoy's and the formula's costs at `N` consumers (default: the fewest with which free consumption keeps up)")
	c.Float64Var(&opt.Collision, "collision", 0.05, "the `share` of the heaviest partition's load that other keys' collisions may take, 0 to 1")
	c.rule(func() error {
		if !(opt.Collision >= 0 && opt.Collision <= 1) {
			return c.usagef("-collision is %v; want a share from 0 to 1", opt.Collision)
		}
		return nil
	})
	c.count(&opt.MaxPartitions, "max-partitions", 256, maxPartitionSearch, false, fmt.Sprintf("the most partitions, `N`, the partition search tries, up to %d: it tries each count in turn, leaving one at its first partition heavier than a count that fits can carry", maxPartitionSearch))
	c.choice(&opt.format, "format", "text", "the plan's `format`: text or json", "text or json", "text", "json")
	c.rule(func() (err error) {
		opt.layoutNames = layouts
		opt.Layouts = func(partitions int) ([]konvoy.Layout, error) {
			return parsePlanLayouts(layouts, partitions, opt.Partitions > 0)
		}
		l, err := parsePlanLayouts(layouts, max(1, opt.Partitions), c.given["partitions"])
		planned = len(l)
		if err == nil && opt.events == "" {
			if err := runs.NoRecordedLesson(l); err != nil {
				return c.usagef("%v", err)
			}
		}
		return err
	})
	sloOf := report.SLOFlags(c.FlagSet)
	c.needs("slo", "slo-on", "arrivals", "plot")
	c.plotFlags(&opt.Plot, &opt.PlotFormats)
	c.Lookup("plot").Usage = "with -slo, also draw the percentile against the consumers tried, a line per layout under the first policy, " +
		"and the target, into the directory `DIR`: slo.svg, slo.png or both (-plot-format); nothing when no count is tried"
	reader := c.traceFlags(&opt.events)
	c.rule(func() error {
		opt.SLO, opt.PeakGiven = sloOf(c.given["peak"], reader.Seed, opt.Plot != ""), c.given["peak"]
		return nil
	})
	c.backlog(&opt.MaxBacklog)
	c.rule(func() error {
		return c.backlogShared(opt.MaxBacklog, report.PlanBacklogRuns(planned, len(opt.Policies)))
	})
	c.memory(&opt.MaxMemory, memoryPlan)
	c.resequencer(&opt.Resequencer, "layouts")
	c.rule(func() error { return roundTime(c, &opt.Round, &opt.RoundFlag, reader.Resolution) })
	c.rule(func() error { return peakBudget(c, opt.Peak, opt.Round) })
	c.rule(func() error { return sloRounds(c, opt.SLO, opt.Round) })
	if err := c.parse(args); err != nil {
		return opt, err
	}
	opt.reader = *reader
	return opt, nil
}

// roundTime checks -round-time, *round, against -unit, and sets it when
// not given: to unit if any, naming -unit in *flag, else to
// defaultRoundTime.
func roundTime(c *command, round *time.Duration, flag *string, unit time.Duration) error {
	switch {
	case c.given["round-time"] && *round <= 0:
		return c.usagef("-round-time is %v; want how long one round lasts, such as 10ms", *round)
	case c.given["round-time"] && unit > 0 && *round != unit:
		return c.usagef("-round-time is %v, but -unit makes one round %v; leave -round-time out", *round, unit)
	case c.given["round-time"]:
	case unit > 0:
		*round, *flag = unit, "-unit"
	default:
		*round = defaultRoundTime
	}
	return nil
}

// minPeakRounds is the least events a round at the peak may bring: the
// budget of rounds that keep up, events / (peak × round), then stays
// finite for a trace of up to some thousands of events, the lesson's
// included (a longer one NewPlan refuses, when it knows its events).
const minPeakRounds = 1e-305

// peakBudget checks that -peak, at rounds of round, leaves a finite budget
// of rounds that keep up (see minPeakRounds), and a finite rate a round:
// -peak 1e300 with -round-time 2562047h made it +Inf, and the budget 0
// rounds.
func peakBudget(c *command, peak float64, round time.Duration) error {
	switch perRound := peak * report.Seconds(round); {
	case perRound < minPeakRounds:
		return c.usagef("-peak is %g events/s, %g events a round of %v: want at least %g a round, so that the rounds that keep up are a number", peak, perRound, round, minPeakRounds)
	case perRound > math.MaxFloat64:
		return c.usagef("-peak is %g events/s, %g events a round of %v: want a number of events a round, at most %g", peak, perRound, round, math.MaxFloat64)
	}
	return nil
}

// sloRounds checks the objective slo, if any, against the length of one
// round: its target must be at most math.MaxInt32 whole rounds, as the
// latency planner counts them.
func sloRounds(c *command, slo *report.SLO, round time.Duration) error {
	if slo == nil {
		return nil
	}
	if rounds := slo.Target / round; rounds > math.MaxInt32 {
		return c.usagef("-slo: %v is %d rounds of %v; want at most %d", slo.Target, int64(rounds), round, math.MaxInt32)
	}
	return nil
}

// parsePlanLayouts reads -layouts as konvoy does, with konvoy plan's name in
// its errors; the layout recorded stands as recordedFromTrace until the
// trace gives its partition count (see planSource.recorded). Its all
// leaves recorded out, which its error for all beside other layouts says
// (it said all named every layout: found by a review).
func parsePlanLayouts(names []string, partitions int, partitionsSet bool) ([]konvoy.Layout, error) {
	if len(names) > 1 && slices.ContainsFunc(names, func(n string) bool { return strings.TrimSpace(n) == "all" }) {
		return nil, usageIn("konvoy plan", "-layouts all stands alone; it names every layout but recorded: to plan for recorded beside others, name each")
	}
	return parseLayouts("konvoy plan", names, partitions, partitionsSet)
}
