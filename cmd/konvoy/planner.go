package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"

	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/lesson"
	"golang.org/x/sync/errgroup"
)

// sweepShares are the ordered shares of the sensitivity table beyond the
// lesson's own: 0.1 to 1.0 in steps of 0.1.
var sweepShares = []float64{0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0}

// planAnswer is everything konvoy plan answers, for the text and JSON
// reports alike.
type planAnswer struct {
	opt    planOptions
	src    *planSource
	budget float64 // the most rounds a run of the trace may last and keep up

	backlog     int // what each run may hold (konvoy.WithMaxBacklog)
	backlogRuns int // the runs -max-backlog is shared by

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
}

// shareRow is one ordered share of the sensitivity table.
type shareRow struct {
	share  float64
	labels []string // "4/7, lesson", "trace"
}

// answerPlan works out every part of konvoy plan's answer for src.
func answerPlan(src *planSource, opt planOptions) (*planAnswer, error) {
	a := &planAnswer{opt: opt, src: src}
	a.budget = float64(src.stats.Events()) / (opt.peak * opt.round.Seconds())
	var err error
	if a.partitions, a.found, err = konvoy.PartitionsForSeq(src.events, opt.collision, opt.maxPartitions); err != nil {
		return nil, err
	}
	if a.layouts, err = parsePlanLayouts(opt.layoutNames, cmp.Or(opt.partitions, a.partitions.Partitions), opt.partitions > 0); err != nil {
		return nil, err
	}
	// Any of the plans may run at once, free consumption's too, and then
	// the selective runs, up to five and one for each layout: the backlog
	// is shared by the most runs made at once.
	a.backlogRuns = max((len(a.layouts)+1)*len(opt.policies), len(a.layouts)+5)
	a.backlog = backlogShare(opt.maxBacklog, a.backlogRuns)
	if err := a.planAll(); err != nil {
		return nil, err
	}

	a.consumers = cmp.Or(opt.consumers, a.free.Consumers, opt.maxConsumers)
	events := src.events
	if src.lesson {
		events = konvoy.Values(lesson.EventsWithHistory())
	}
	for _, l := range a.layouts {
		if l.Equal(konvoy.Convoy) || l.Equal(konvoy.LineConvoy) || l.Partitions() > 0 {
			a.lanes = append(a.lanes, l)
		}
	}
	a.selective, err = konvoy.CompareSelective(context.Background(), events, a.consumers, a.lanes,
		konvoy.WithPolicy(opt.policies[0]), konvoy.WithMaxBacklog(a.backlog))
	if err != nil {
		return nil, a.located(err)
	}
	a.rows = shareRows(a.traceShare())
	return a, nil
}

// planAll makes the plan of every layout under every policy, and free
// consumption's under the first policy unless a layout is free, as many at
// once as there are processors. Of the plans that fail, it returns the
// error of the first in that order, whatever the order they fail in.
func (a *planAnswer) planAll() error {
	cfg := konvoy.PlanConfig{Peak: a.opt.peak, RoundSeconds: a.opt.round.Seconds(), MaxConsumers: a.opt.maxConsumers}
	np := len(a.opt.policies)
	n := len(a.layouts) * np
	runs, free := n, slices.IndexFunc(a.layouts, konvoy.Free.Equal)*np
	if free < 0 {
		runs, free = n+1, n
	}
	plans, errs := make([]konvoy.Plan, runs), make([]error, runs)
	var g errgroup.Group
	g.SetLimit(runtime.GOMAXPROCS(0))
	for i := range runs {
		l, p := konvoy.Free, a.opt.policies[0]
		if i < n {
			l, p = a.layouts[i/np], a.opt.policies[i%np]
		}
		g.Go(func() error {
			plans[i], errs[i] = konvoy.PlanConsumers(a.src.events, l, cfg, konvoy.WithPolicy(p), konvoy.WithMaxBacklog(a.backlog))
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

// located is err, a run's, said of the trace, with what to do when the run
// outgrew its backlog.
func (a *planAnswer) located(err error) error {
	var ev *konvoy.EventError
	if !errors.As(err, &ev) {
		return err
	}
	return backlogHint(fmt.Errorf("%s: %w", a.src.name, ev), a.opt.maxBacklog, a.backlogRuns)
}

// cost is the cost of the sensitivity table's layout i on the ordered
// events alone.
func (a *planAnswer) cost(i int) float64 {
	return konvoy.Cost(a.selective.Ordered[i], a.selective.OrderedFree)
}

// multiplier is the lesson's formula for the sensitivity table's layout i
// at an ordered share; 0 when its cost is undefined.
func (a *planAnswer) multiplier(i int, share float64) float64 {
	if c := a.cost(i); c > 0 {
		return konvoy.SelectiveMultiplier(share, c)
	}
	return 0
}

// traceShare is the ordered share of the trace, for its row of the
// sensitivity table; -1 for the lesson, whose rows are its own 4/7 and 5/7.
func (a *planAnswer) traceShare() float64 {
	if a.src.lesson || a.src.stats.Events() == 0 {
		return -1
	}
	return float64(a.src.stats.Ordered()) / float64(a.src.stats.Events())
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
func (a *planAnswer) selectiveAssumptions() []string {
	at := consumersText(a.consumers)
	where := fmt.Sprintf("at %s, the fewest with which free consumption keeps up with the peak (-consumers sets the count)", at)
	switch {
	case a.opt.consumers > 0:
		where = fmt.Sprintf("at %s (-consumers)", at)
	case a.free.Consumers == 0:
		where = fmt.Sprintf("at %s, the most tried (-max-consumers), as free consumption does not keep up with the peak", at)
	}
	return []string{
		"a multiplier is a layout's rounds over free consumption's on the same events and consumers: the consumers " +
			"it needs relative to free consumption",
		"the costs are measured " + where + ", under " + a.opt.policies[0].String() + " dispatch; a lane's cost grows with the consumers",
		"the formula charges the ordered steps the convoy's cost as if they ran apart from the history-only records; " +
			"the simulation runs them in one stream",
	}
}

// sensitivityAssumptions are what the sensitivity table rests on.
func (a *planAnswer) sensitivityAssumptions() []string {
	return []string{
		fmt.Sprintf("each cost is measured once, at %s on the ordered steps alone, and held as the share varies", consumersText(a.consumers)),
		"a row splits the peak into ordered and history-only events in its share; the formula charges the ordered " +
			"ones the cost and lets the rest run free, neither part disturbing the other",
		"the formula's estimate of the consumers a layout needs is free consumption's times the multiplier; " +
			"the plan above simulates them instead",
	}
}

// partitionAssumptions are what the partition search rests on.
func (a *planAnswer) partitionAssumptions() []string {
	return []string{
		"keys are hashed to partitions as Kafka's default partitioner does: murmur2 of the key's UTF-8 bytes",
		"a partition's load is the durations of its keys' events over the whole trace; a collision is the load " +
			"that keys other than its heaviest put on it",
		fmt.Sprintf("every count from 1 to %d (-max-partitions) is tried in turn: collisions do not fall steadily "+
			"as partitions are added, so a larger topic can collide again", a.opt.maxPartitions),
	}
}
