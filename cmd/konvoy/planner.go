package main

import (
	"errors"
	"fmt"
	"iter"
	"runtime"
	"slices"
	"sync"

	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/lesson"
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

	selective   selectiveAnswer
	sensitivity sensitivityAnswer
	partitions  partitionAnswer
}

// selectiveAnswer sets the selective convoy's multiplier, simulated, beside
// the lesson's formula for it.
type selectiveAnswer struct {
	lesson        bool // on lesson-style shipments, not the trace itself
	events        int
	ordered       int
	share         float64 // the ordered share, ordered / events
	consumers     int     // where the costs are measured
	free          int     // rounds of free consumption
	selectiveRun  int     // rounds of the selective convoy
	convoy        int     // rounds of the convoy, the whole stream in lanes
	simulated     float64 // the selective convoy's cost, simulated; 0 when undefined
	cost          float64 // the convoy's cost on the ordered events alone; 0 when undefined
	formula       float64 // konvoy.SelectiveMultiplier(share, cost); 0 when undefined
	wholeInConvoy float64 // the convoy's cost on the whole stream
	assumptions   []string
}

// sensitivityAnswer is the lesson's formula over a range of ordered shares,
// for each layout that puts every event in a lane.
type sensitivityAnswer struct {
	consumers   int
	layouts     []konvoy.Layout
	costs       []float64 // per layout, on the ordered events alone
	rows        []shareRow
	assumptions []string
}

// shareRow is one ordered share of the sensitivity table.
type shareRow struct {
	share              float64
	labels             []string // "4/7, lesson", "trace"
	ordered, unordered float64  // the peak split by konvoy.SplitRate
	multipliers        []float64
}

// partitionAnswer is the fewest partitions whose heaviest partition owes at
// most a share of its load to collisions.
type partitionAnswer struct {
	load        konvoy.PartitionLoad
	found       bool
	assumptions []string
}

// answerPlan works out every part of konvoy plan's answer for src.
func answerPlan(src *planSource, opt planOptions) (*planAnswer, error) {
	a := &planAnswer{opt: opt, src: src}
	events := src.all()
	a.budget = float64(src.stats.Events()) / (opt.peak * opt.round.Seconds())

	var err error
	if err = a.answerPartitions(events); err != nil {
		return nil, err
	}
	partitions := opt.partitions
	if partitions == 0 {
		partitions = a.partitions.load.Partitions
	}
	if a.layouts, err = parsePlanLayouts(opt.layoutNames, partitions, opt.partitions > 0); err != nil {
		return nil, err
	}

	// Any of the plans may run at once, free consumption's too, and then
	// the selective runs, up to five and one for each layout: the backlog
	// is shared by the most runs made at once.
	a.backlogRuns = max((len(a.layouts)+1)*len(opt.policies), len(a.layouts)+5)
	a.backlog = backlogShare(opt.maxBacklog, a.backlogRuns)
	cfg := konvoy.PlanConfig{Peak: opt.peak, RoundSeconds: opt.round.Seconds(), MaxConsumers: opt.maxConsumers}
	plan := func(l konvoy.Layout, p konvoy.Policy) (konvoy.Plan, error) {
		pl, err := konvoy.PlanConsumers(fallible(events), l, cfg, konvoy.WithPolicy(p), konvoy.WithMaxBacklog(a.backlog))
		if err == nil {
			err = src.failed()
		}
		return pl, a.located(err)
	}
	if a.plans, err = planAll(a.layouts, opt.policies, plan); err != nil {
		return nil, err
	}
	if i := layoutIndex(a.layouts, konvoy.Free); i >= 0 {
		a.free = a.plans[i][0]
	} else if a.free, err = plan(konvoy.Free, opt.policies[0]); err != nil {
		return nil, err
	}

	consumers := opt.consumers
	if consumers == 0 {
		consumers = a.free.Consumers
	}
	if consumers == 0 {
		consumers = cfg.MaxConsumers
	}
	if err := a.answerSelective(consumers); err != nil {
		return nil, err
	}
	return a, nil
}

// planAll makes the plan of every layout under every policy, as many at
// once as there are processors, and returns them by layout, then policy,
// or the error of the first in that order that failed.
func planAll(layouts []konvoy.Layout, policies []konvoy.Policy, plan func(konvoy.Layout, konvoy.Policy) (konvoy.Plan, error)) ([][]konvoy.Plan, error) {
	plans := make([][]konvoy.Plan, len(layouts))
	errs := make([]error, len(layouts)*len(policies))
	slots := make(chan struct{}, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	for li, l := range layouts {
		plans[li] = make([]konvoy.Plan, len(policies))
		for pi, p := range policies {
			wg.Add(1)
			slots <- struct{}{}
			go func() {
				defer wg.Done()
				defer func() { <-slots }()
				plans[li][pi], errs[li*len(policies)+pi] = plan(l, p)
			}()
		}
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return plans, nil
}

// answerPartitions finds the fewest partitions that keep collisions within
// -collision, over one pass of events.
func (a *planAnswer) answerPartitions(events iter.Seq[konvoy.Event]) error {
	load, found, err := konvoy.PartitionsForSeq(fallible(events), a.opt.collision, a.opt.maxPartitions)
	if err == nil {
		err = a.src.failed()
	}
	if err != nil {
		return err
	}
	a.partitions = partitionAnswer{load: load, found: found}
	a.partitions.assumptions = []string{
		"keys are hashed to partitions as Kafka's default partitioner does: murmur2 of the key's UTF-8 bytes",
		"a partition's load is the durations of its keys' events over the whole trace; a collision is the load " +
			"that keys other than its heaviest put on it",
		fmt.Sprintf("every count from 1 to %d (-max-partitions) is tried in turn: collisions do not fall steadily "+
			"as partitions are added, so a larger topic can collide again", a.opt.maxPartitions),
	}
	return nil
}

// answerSelective simulates the selective convoy at consumers beside the
// lesson's formula, and works out the formula's sensitivity to the ordered
// share, in one pass over the events it needs: lesson-style shipments for
// the lesson, the trace itself otherwise.
func (a *planAnswer) answerSelective(consumers int) error {
	s := &a.selective
	events := a.src.all()
	if a.src.lesson {
		s.lesson = true
		events = slices.Values(lesson.EventsWithHistory())
	}
	runs := []planRun{
		{layout: konvoy.Free}, {layout: konvoy.SelectiveConvoy}, {layout: konvoy.Convoy},
		{layout: konvoy.Free, ordered: true}, {layout: konvoy.Convoy, ordered: true},
	}
	var lanes []konvoy.Layout // the layouts of the sensitivity table
	for _, l := range a.layouts {
		switch {
		case l.String() == konvoy.Convoy.String(), l.String() == konvoy.LineConvoy.String(), isPartitioned(l):
			lanes = append(lanes, l)
			runs = append(runs, planRun{layout: l, ordered: true})
		}
	}
	rs, err := simulateAll(events, consumers, a.opt.policies[0], a.backlog, runs)
	if err == nil {
		err = a.src.failed()
	}
	if err != nil {
		return a.located(err)
	}
	free, selective, convoy, orderedFree, orderedConvoy := rs[0], rs[1], rs[2], rs[3], rs[4]
	s.events, s.ordered, s.consumers = free.Events, orderedFree.Events, consumers
	if s.events > 0 {
		s.share = float64(s.ordered) / float64(s.events)
	}
	s.free, s.selectiveRun, s.convoy = free.Rounds, selective.Rounds, convoy.Rounds
	s.simulated = konvoy.Cost(selective, free)
	s.wholeInConvoy = konvoy.Cost(convoy, free)
	s.cost = konvoy.Cost(orderedConvoy, orderedFree)
	if s.cost > 0 {
		s.formula = konvoy.SelectiveMultiplier(s.share, s.cost)
	}
	where := fmt.Sprintf("at %s, the fewest with which free consumption keeps up with the peak (-consumers sets the count)", consumersText(consumers))
	switch {
	case a.opt.consumers > 0:
		where = fmt.Sprintf("at %s (-consumers)", consumersText(consumers))
	case a.free.Consumers == 0:
		where = fmt.Sprintf("at %s, the most tried (-max-consumers), as free consumption does not keep up with the peak", consumersText(consumers))
	}
	s.assumptions = []string{
		"a multiplier is a layout's rounds over free consumption's on the same events and consumers: the consumers " +
			"it needs relative to free consumption",
		"the costs are measured " + where + ", under " + a.opt.policies[0].String() + " dispatch; a lane's cost grows with the consumers",
		"the formula charges the ordered steps the convoy's cost as if they ran apart from the history-only records; " +
			"the simulation runs them in one stream",
	}

	sens := &a.sensitivity
	sens.consumers, sens.layouts = consumers, lanes
	for i := range lanes {
		sens.costs = append(sens.costs, konvoy.Cost(rs[5+i], orderedFree))
	}
	sens.rows = shareRows(a.opt.peak, sens.costs, a.traceShare())
	sens.assumptions = []string{
		fmt.Sprintf("each cost is measured once, at %s on the ordered steps alone, and held as the share varies", consumersText(consumers)),
		"a row splits the peak into ordered and history-only events in its share; the formula charges the ordered " +
			"ones the cost and lets the rest run free, neither part disturbing the other",
		"the formula's estimate of the consumers a layout needs is free consumption's times the multiplier; " +
			"the plan above simulates them instead",
	}
	return nil
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
// the lesson's 4/7 and 5/7 and, unless negative, the trace's own share.
func shareRows(peak float64, costs []float64, trace float64) []shareRow {
	var rows []shareRow
	add := func(share float64, label string) {
		for i := range rows {
			if rows[i].share == share {
				if label != "" {
					rows[i].labels = append(rows[i].labels, label)
				}
				return
			}
		}
		r := shareRow{share: share}
		if label != "" {
			r.labels = []string{label}
		}
		r.ordered, r.unordered = konvoy.SplitRate(peak, share)
		for _, c := range costs {
			m := 0.0
			if c > 0 {
				m = konvoy.SelectiveMultiplier(share, c)
			}
			r.multipliers = append(r.multipliers, m)
		}
		rows = append(rows, r)
	}
	for _, s := range sweepShares {
		add(s, "")
	}
	add(lessonShares[0], "4/7, lesson")
	add(lessonShares[1], "5/7, lesson")
	if trace >= 0 {
		add(trace, "trace")
	}
	slices.SortStableFunc(rows, func(a, b shareRow) int {
		switch {
		case a.share < b.share:
			return -1
		case a.share > b.share:
			return 1
		}
		return 0
	})
	return rows
}

// planRun is one run of simulateAll: a layout, on every event or on the
// ordered ones alone.
type planRun struct {
	layout  konvoy.Layout
	ordered bool
}

// located is err, a run's, said of the trace, with what to do when the
// run outgrew its backlog.
func (a *planAnswer) located(err error) error {
	if err == nil || !errors.Is(err, konvoy.ErrBacklog) {
		return err
	}
	return backlogHint(located{a.src.name, err}, a.opt.maxBacklog, a.backlogRuns)
}

// simulateAll makes every run of runs at consumers under policy, each
// holding a backlog of at most backlog events, in one pass over events.
func simulateAll(events iter.Seq[konvoy.Event], consumers int, policy konvoy.Policy, backlog int, runs []planRun) ([]konvoy.Result, error) {
	sims := make([]*konvoy.Simulator, len(runs))
	for i, r := range runs {
		s, err := konvoy.NewSimulator(r.layout, consumers, konvoy.WithPolicy(policy), konvoy.WithMaxBacklog(backlog))
		if err != nil {
			return nil, err
		}
		sims[i] = s
	}
	for e := range events {
		for i, s := range sims {
			if runs[i].ordered && e.Step == 0 {
				continue
			}
			if err := s.Add(e); err != nil {
				return nil, err
			}
		}
	}
	out := make([]konvoy.Result, len(sims))
	for i, s := range sims {
		r, err := s.Result()
		if err != nil {
			return nil, err
		}
		out[i] = r
	}
	return out, nil
}

// fallible is events as a stream that can fail, and never does.
func fallible(events iter.Seq[konvoy.Event]) iter.Seq2[konvoy.Event, error] {
	return func(yield func(konvoy.Event, error) bool) {
		for e := range events {
			if !yield(e, nil) {
				return
			}
		}
	}
}
