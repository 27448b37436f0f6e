package report

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"iter"
	"math"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/chart"
	"github.com/sirali-konvoy/konvoy/eventlog"
	"github.com/sirali-konvoy/konvoy/lesson"
	"golang.org/x/sync/errgroup"
)

// sweepShares are the ordered shares of the sensitivity table beyond the
// lesson's own: 0.1 to 1.0 in steps of 0.1.
var sweepShares = []float64{0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0}

// PlanSource is the trace a Plan answers for, which the planner ranges
// over many times, and what a first reading of it counted.
type PlanSource struct {
	Name    string // the trace as the report names it
	Lesson  bool   // the events are the lesson's
	Events  iter.Seq2[konvoy.Event, error]
	Stats   eventlog.Stats
	Work    int // the sum of the durations
	Rounded int // durations and arrivals rounded (eventlog.Trace.Rounded)
	Dropped int // events dropped as late for -reorder (eventlog.Trace.Dropped), which the JSON plan counts
	// Notes are what reading the trace changed beyond its content
	// (ReadingNotes), which the text plan's header says.
	Notes []string
	Unit  time.Duration // how long one round lasts, 0 for whole rounds
	// FirstArrival and LastArrival are the first and the last event's
	// arrivals, equal for a batch. A trace's rounds count from its own
	// round 0, so the first may come later; the trace's span, its rate and
	// its arrivals scaled to -peak count from the first.
	FirstArrival, LastArrival int
	// LineOf returns the line of the event at an index of Events, 0 when
	// unknown, for an error about it; nil for none (the lesson's events).
	LineOf func(index int) int
}

// PlanOptions are the questions a Plan answers, named as konvoy plan's
// flags name them.
type PlanOptions struct {
	// Layouts returns the layouts to plan for, given the partitions of the
	// layout partitioned: Partitions, or the count the partition search
	// found.
	Layouts       func(partitions int) ([]konvoy.Layout, error)
	Partitions    int                      // -partitions; 0 for the count the partition search finds
	Policies      []konvoy.Policy          // the first is the selective convoy's
	Peak          float64                  // the peak rate to keep up with, events/s
	PeakGiven     bool                     // -peak was given; else a trace with arrival times is planned at its own mean rate
	Round         time.Duration            // how long one round lasts
	RoundFlag     string                   // the flag that sets Round, named in the text: "" for -round-time, or "-unit" when a trace's unit set it
	MaxConsumers  int                      // the most consumers a plan tries
	Consumers     int                      // the selective convoy's count; 0 for free consumption's
	Collision     float64                  // the share of a partition's load collisions may take
	MaxPartitions int                      // the most partitions the partition search tries
	MaxBacklog    int                      // the events all runs may hold, 0 for what MaxMemory leaves room for
	MaxMemory     int                      // the bytes the runs may take: three quarters for their state and backlogs; 0 for konvoy.DefaultMaxMemory
	Resequencer   konvoy.ResequencerConfig // how the resequencer works
	Assignor      konvoy.Assignor          // how static deals lanes; 0 for the default
	SLO           *SLO                     // the latency objective, nil for none
	Plot          string                   // the directory of the pictures (-plot), "" for none
	PlotFormats   []chart.Format           // the pictures' formats
}

// Plan is everything konvoy plan answers, which PlanText and PlanJSON
// render: the consumers each layout needs under each policy, the
// selective convoy simulated and by the lesson's formula, the formula's
// sensitivity to the ordered share, and the fewest partitions that keep
// collisions small.
type Plan struct {
	o      PlanOptions
	src    *PlanSource
	budget float64 // the most rounds a run of the trace may last and keep up

	backlog     int // what each run may hold (konvoy.WithMaxBacklog)
	backlogRuns int // the runs -max-backlog, or -max-memory, is shared by

	layouts []konvoy.Layout
	plans   [][]konvoy.Plan // [layout][policy]
	free    konvoy.Plan     // free consumption's plan under the first policy

	// The selective convoy, simulated at consumers beside the lesson's
	// formula, on lesson-style shipments for the lesson; its Ordered runs
	// are those of lanes, the layouts of the sensitivity table.
	consumers int
	selective konvoy.SelectiveComparison
	lanes     []konvoy.Layout
	rows      []shareRow

	partitions konvoy.PartitionLoad // the fewest that keep collisions within -collision
	found      bool                 // or the most tried, when none does

	latency      [][]konvoy.LatencyPlan // [policy][layout], with an SLO
	sloRounds    int                    // the SLO's target in whole rounds
	arrivalsNote string                 // how the SLO's arrivals are made
}

// shareRow is one ordered share of the sensitivity table.
type shareRow struct {
	share  float64
	labels []string // "4/7, lesson", "trace"
}

// setBudget sets the peak, the trace's own mean rate unless -peak was
// given for a trace of arrivals, and the budget of rounds that keep up
// with it, which must be a number.
func (a *Plan) setBudget() error {
	if a.timed() && !a.o.PeakGiven {
		a.o.Peak = a.ownRate()
	}
	n := a.src.Stats.Events()
	if a.budget = float64(n) / (a.o.Peak * Seconds(a.o.Round)); math.IsInf(a.budget, 1) {
		return fmt.Errorf("a peak of %g events/s keeps up with %s in more rounds than a float64 holds: raise -peak", a.o.Peak, plural(n, "event", "events"))
	}
	return nil
}

// NewPlan works out every part of the plan for src, running the plans of
// its layouts in parallel. An error of a run names src; one of a run that
// outgrew its share of o.MaxBacklog says what to do about it.
func NewPlan(src *PlanSource, o PlanOptions) (*Plan, error) {
	a := &Plan{o: o, src: src}
	if err := a.setBudget(); err != nil {
		return nil, err
	}
	var err error
	if a.partitions, a.found, err = konvoy.PartitionsFor(src.Events, o.Collision, o.MaxPartitions); err != nil {
		return nil, err
	}
	if a.layouts, err = o.Layouts(cmp.Or(o.Partitions, a.partitions.Partitions)); err != nil {
		return nil, err
	}
	if err := a.shareBacklog(); err != nil {
		return nil, err
	}
	if err := a.planAll(); err != nil {
		return nil, err
	}
	if o.SLO != nil {
		if err := a.planLatency(); err != nil {
			return nil, err
		}
	}

	o = a.o
	a.consumers = cmp.Or(o.Consumers, a.free.Consumers, o.MaxConsumers)
	events := a.keepUpEvents() // at hand when keeping up takes them so, as the costs are the keep-up plan's
	if src.Lesson {
		events = konvoy.Values(lesson.EventsWithHistory())
	}
	for _, l := range a.layouts {
		if l.Equal(konvoy.Convoy) || l.Equal(konvoy.LineConvoy) || l.Partitions() > 0 {
			a.lanes = append(a.lanes, l)
		}
	}
	a.selective, err = konvoy.CompareSelective(context.Background(), events, a.consumers, a.lanes,
		Dispatch(o.Policies[0], o.Assignor, konvoy.WithMaxBacklog(a.backlog), konvoy.WithResequencer(o.Resequencer))...)
	if err != nil {
		return nil, a.located(err)
	}
	a.rows = shareRows(a.traceShare())
	return a, nil
}

// shareBacklog sets each run's share of the backlog. Any of the plans may
// run at once, free consumption's too, and then the selective runs, up to
// five and one for each layout: the backlog is shared by the most runs
// made at once, one event each at least.
func (a *Plan) shareBacklog() error {
	o := a.o
	a.backlogRuns = PlanBacklogRuns(len(a.layouts), len(o.Policies))
	if err := BacklogTooSmall("konvoy plan", o.MaxBacklog, a.backlogRuns); err != nil {
		return err
	}
	a.backlog = BacklogShare(o.MaxBacklog, a.backlogRuns)
	if o.MaxBacklog == 0 {
		a.backlog = memoryBacklog(o.MaxMemory, a.backlogRuns)
	}
	return nil
}

// planAll makes the plan of every layout under every policy, and free
// consumption's under the first policy unless a layout is free, as many at
// once as there are processors. Of the plans that fail, it returns the
// error of the first in that order, whatever the order they fail in.
func (a *Plan) planAll() error {
	cfg := konvoy.PlanConfig{Peak: a.o.Peak, RoundSeconds: Seconds(a.o.Round), MaxConsumers: a.o.MaxConsumers}
	np := len(a.o.Policies)
	n := len(a.layouts) * np
	runs, free := n, slices.IndexFunc(a.layouts, konvoy.Free.Equal)*np
	if free < 0 {
		runs, free = n+1, n
	}
	plans, errs := make([]konvoy.Plan, runs), make([]error, runs)
	var g errgroup.Group
	g.SetLimit(runtime.GOMAXPROCS(0))
	for i := range runs {
		l, p := konvoy.Free, a.o.Policies[0]
		if i < n {
			l, p = a.layouts[i/np], a.o.Policies[i%np]
		}
		g.Go(func() error {
			plans[i], errs[i] = konvoy.PlanConsumers(a.keepUpEvents(), l, cfg, Dispatch(p, a.o.Assignor, konvoy.WithMaxBacklog(a.backlog), konvoy.WithResequencer(a.o.Resequencer))...)
			return nil
		})
	}
	g.Wait()
	if err := cmp.Or(errs...); err != nil {
		return a.located(err)
	}
	a.plans, a.free = slices.Collect(slices.Chunk(plans[:n], np)), plans[free]
	return nil
}

// timed tells whether the trace's events arrive over time: its last
// arrival is after its first.
func (a *Plan) timed() bool { return a.src.LastArrival > a.src.FirstArrival }

// span returns the rounds the trace's events arrive over, its first
// arrival's to its last's.
func (a *Plan) span() int { return a.src.LastArrival - a.src.FirstArrival + 1 }

// ownRate is the trace's own mean rate, in events/s: its events over the
// rounds they arrive over (span).
func (a *Plan) ownRate() float64 {
	return float64(a.src.Stats.Events()) / (float64(a.span()) * Seconds(a.o.Round))
}

// keepUpEvents are the events the keep-up plans run: the trace's, with
// every arrival at round 0 for a trace whose events arrive over time, or
// all at one round after 0 (a batch is at hand wherever its rounds start).
// Keeping up is a matter of the work consumers get through at the peak,
// all of it at hand; when the events arrive, at the trace's times, scaled
// to -peak or drawn at it, is the latency objective's (-slo), which plans
// at the same rate. With the arrivals in, a run could never beat its last
// arrival plus what follows it, so that no count would keep up with the
// very rate the arrivals were scaled to.
func (a *Plan) keepUpEvents() iter.Seq2[konvoy.Event, error] {
	if a.src.LastArrival == 0 {
		return a.src.Events
	}
	return func(yield func(konvoy.Event, error) bool) {
		for e, err := range a.src.Events {
			e.Arrival = 0
			if !yield(e, err) {
				return
			}
		}
	}
}

// located is err, a run's, said of the trace, with what to do when the run
// outgrew its backlog.
func (a *Plan) located(err error) error {
	var ev *konvoy.EventError
	if !errors.As(err, &ev) {
		return err
	}
	where := a.src.Name
	if a.src.LineOf != nil {
		if line := a.src.LineOf(ev.Index); line > 0 {
			where = fmt.Sprintf("%s:%d", where, line)
		}
	}
	err = fmt.Errorf("%s: %w", where, ev)
	if a.o.MaxBacklog == 0 && errors.Is(err, konvoy.ErrBacklog) {
		// The bound is -max-memory's, not -max-backlog's, which the
		// command's words would make of WithMaxBacklog's name.
		msg := strings.Replace(err.Error(), " (WithMaxBacklog)", " (its share of the runs' memory)", 1)
		return &rewordedError{fmt.Sprintf("%s; -max-memory %s leaves each of %s room for %s held: raise it, or plan fewer layouts or policies",
			msg, plural(cmp.Or(a.o.MaxMemory, konvoy.DefaultMaxMemory), "byte", "bytes"), plural(a.backlogRuns, "run", "runs"), plural(a.backlog, "event", "events")), err}
	}
	return BacklogHint(err, a.o.MaxBacklog, a.backlogRuns)
}

// rewordedError is err, said otherwise: msg.
type rewordedError struct {
	msg string
	err error
}

func (e *rewordedError) Error() string { return e.msg }
func (e *rewordedError) Unwrap() error { return e.err }

// heldBytes is the most a run takes for an event its backlog holds, as a
// konvoy.Sweep plans it (128 bytes under lane-aware dispatch).
const heldBytes = 128

// memoryBacklog returns the events each of runs runs may hold, at
// heldBytes an event, in three quarters of maxMemory bytes (0:
// konvoy.DefaultMaxMemory) shared equally, at least 1.
func memoryBacklog(maxMemory, runs int) int {
	return max(1, cmp.Or(maxMemory, konvoy.DefaultMaxMemory)/4*3/max(1, runs)/heldBytes)
}

// cost is the cost of the sensitivity table's layout i on the ordered
// events alone.
func (a *Plan) cost(i int) float64 {
	return konvoy.Cost(a.selective.Ordered[i], a.selective.OrderedFree)
}

// multiplier is the lesson's formula for the sensitivity table's layout i
// at an ordered share; 0 when its cost is undefined.
func (a *Plan) multiplier(i int, share float64) float64 {
	if c := a.cost(i); c > 0 {
		return konvoy.SelectiveMultiplier(share, c)
	}
	return 0
}

// traceShare is the ordered share of the trace, for its row of the
// sensitivity table; -1 for the lesson, whose rows are its own 4/7 and 5/7.
func (a *Plan) traceShare() float64 {
	if a.src.Lesson || a.src.Stats.Events() == 0 {
		return -1
	}
	return float64(a.src.Stats.Ordered()) / float64(a.src.Stats.Events())
}

// shareRows are the sensitivity table's rows, by ordered share: the sweep,
// the lesson's 4/7 and 5/7 and, unless negative, the trace's own share; a
// share that comes twice is one row with both labels.
func shareRows(trace float64) []shareRow {
	var all []shareRow
	for _, s := range sweepShares {
		all = append(all, shareRow{share: s})
	}
	all = append(all, shareRow{lessonShares[0], []string{"4/7, lesson"}}, shareRow{lessonShares[1], []string{"5/7, lesson"}})
	if trace >= 0 {
		all = append(all, shareRow{trace, []string{"trace"}})
	}
	slices.SortStableFunc(all, func(a, b shareRow) int { return cmp.Compare(a.share, b.share) })
	var rows []shareRow
	for _, r := range all {
		if n := len(rows); n > 0 && rows[n-1].share == r.share {
			rows[n-1].labels = append(rows[n-1].labels, r.labels...)
		} else {
			rows = append(rows, r)
		}
	}
	return rows
}

// selectiveAssumptions are what the selective convoy's figures rest on.
func (a *Plan) selectiveAssumptions() []string {
	at := consumersText(a.consumers)
	where := fmt.Sprintf("at %s, the fewest with which free consumption keeps up with the peak (-consumers sets the count)", at)
	switch {
	case a.o.Consumers > 0:
		where = fmt.Sprintf("at %s (-consumers)", at)
	case a.free.Consumers == 0:
		where = fmt.Sprintf("at %s, the most tried (-max-consumers), as free consumption does not keep up with the peak", at)
	}
	if a.timed() {
		where += ", with the events at hand as for keeping up"
	}
	return []string{
		"a multiplier is a layout's rounds over free consumption's on the same events and consumers: the consumers " +
			"it needs relative to free consumption",
		"the costs are measured " + where + ", under " + a.o.Policies[0].String() + " dispatch; a lane's cost grows with the consumers",
		"the formula charges the ordered steps the convoy's cost as if they ran apart from the history-only records; " +
			"the simulation runs them in one stream",
	}
}

// sensitivityAssumptions are what the sensitivity table rests on.
func (a *Plan) sensitivityAssumptions() []string {
	return []string{
		fmt.Sprintf("each cost is measured once, at %s on the ordered steps alone, and held as the share varies", consumersText(a.consumers)),
		"a row splits the peak into ordered and history-only events in its share; the formula charges the ordered " +
			"ones the cost and lets the rest run free, neither part disturbing the other",
		"the formula's estimate of the consumers a layout needs is free consumption's times the multiplier; " +
			"the plan above simulates them instead",
	}
}

// partitionAssumptions are what the partition search rests on.
func (a *Plan) partitionAssumptions() []string {
	return []string{
		"keys are hashed to partitions as Kafka's default partitioner does: murmur2 of the key's UTF-8 bytes",
		"a partition's load is the durations of its keys' events over the whole trace; a collision is the load " +
			"that keys other than its heaviest put on it",
		fmt.Sprintf("every count from 1 to %d (-max-partitions) is tried in turn: collisions do not fall steadily "+
			"as partitions are added, so a larger topic can collide again", a.o.MaxPartitions),
	}
}

// roundFlag returns the flag that sets the round's length, as the text
// names it.
func (a *Plan) roundFlag() string { return cmp.Or(a.o.RoundFlag, "-round-time") }
