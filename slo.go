package konvoy

import (
	"cmp"
	"context"
	"fmt"
	"iter"
	"math"
	"slices"
	"strconv"
	"strings"
)

// SLO is a latency objective: the Percentile of the events' latency, in
// rounds, at most Rounds. Percentile is 50 to 99.9, in steps of 0.01, or
// 100 for the largest latency; it is read as [Latency] reads its
// percentiles, by nearest rank. The latency is the response, from arrival
// to finish, or, with Wait set, the wait, from arrival to start.
type SLO struct {
	Percentile float64
	Wait       bool
	Rounds     int
}

// String returns the objective as konvoy plan's -slo writes it, in rounds:
// "p99=200 rounds of response", "max=5 rounds of wait".
func (o SLO) String() string {
	on := "response"
	if o.Wait {
		on = "wait"
	}
	return fmt.Sprintf("%s=%d rounds of %s", PercentileName(o.Percentile), o.Rounds, on)
}

// PercentileName returns "max" for 100 and "pNN" otherwise: "p99", "p99.9".
func PercentileName(p float64) string {
	if p == 100 {
		return "max"
	}
	return "p" + strconv.FormatFloat(p, 'f', -1, 64)
}

// basisPoints returns the percentile in hundredths of a percent, or an
// error unless it is 50 to 99.9 in steps of 0.01, or 100.
func (o SLO) basisPoints() (int, error) {
	bp := math.Round(o.Percentile * 100)
	if o.Percentile == 100 {
		return 10000, nil
	}
	if !(bp >= 5000 && bp <= 9990) || math.Abs(float64(o.Percentile*100)-bp) > 1e-6 {
		return 0, fmt.Errorf("konvoy: percentile %v: want 50 to 99.9, in steps of 0.01, or 100 for the largest", o.Percentile)
	}
	return int(bp), nil
}

// LatencyConfig is what [PlanLatency] needs besides the trace: the
// objective, and the largest consumer count to try, up to [MaxConsumers];
// 0 means 1024.
type LatencyConfig struct {
	SLO          SLO
	MaxConsumers int
	// Counts are consumer counts to run besides those the search tries,
	// in its first pass, for a picture of the whole curve; those not from
	// 1 to the plan's MostConsumers (the limit, or fewer when fewer can
	// change a run: see [LatencyPlan]) are left out.
	Counts []int
	// Rate is the rate, in events a round, that the events' arrivals were
	// made at (drawn as a Poisson process, or scaled to a peak), or 0 for
	// the trace's own. Arrivals in whole rounds at several events a round
	// fall in fewer rounds than the rate spreads them over (a hundred
	// events at 67 a round arrive in rounds 0 and 1, 50 a round), so with
	// a Rate the offered load is the rate's: the work over the Events/Rate
	// rounds the events take to arrive (see [LatencyPlan].LoadFloor).
	Rate float64
}

// LatencyPoint is the objective's percentile, in rounds, of a run on
// Consumers consumers.
type LatencyPoint struct {
	Consumers, Rounds int
}

// LatencyPlan answers, for one layout and policy, how few consumers keep a
// latency percentile within an objective.
type LatencyPlan struct {
	Layout string
	Policy Policy
	Events int
	SLO    SLO
	// Meets tells whether some count up to the limit meets the objective;
	// Consumers is the smallest that does, 0 when none does. A trace of no
	// events meets it with 0 consumers, below MinConsumers: it needs none. Achieved is
	// the percentile, in rounds, at Consumers; when none meets, the lowest
	// any count reaches: Floor when Floor misses or no count was tried,
	// else the lowest of the counts tried from MinConsumers up (the
	// fewest consumers among equals; Curve may hold counts below it).
	// Utilisation and WorstLane are of that run, the floor's lane for the
	// floor.
	Meets     bool
	Consumers int
	Achieved  int
	// AtFloor tells that Achieved and WorstLane are the floor's, not a
	// count's: no count was tried, or the floor misses the objective.
	AtFloor bool
	// Utilisation is the consumers' busy share: the work (the busy
	// consumer-rounds) over consumers × Span, the rounds the events arrive
	// over (with a Rate, Events/Rate); for a trace whose events all arrive
	// in one round, without a Rate, over consumers × the run's rounds. It
	// is 0 for a run that takes no time or has no consumers.
	Utilisation float64
	// WorstLane names the lane whose events waited longest (the longest
	// single wait, as [Result].WorstLanes orders them), "" when no event
	// of a lane waited.
	WorstLane string
	// Floor is the percentile with a consumer for every event, where each
	// event starts when it has arrived and its lane is free: the lowest
	// any count reaches under any policy. FloorLane is the lane whose
	// events waited longest there: its own load, run back to back at the
	// trace's arrivals.
	Floor     int
	FloorLane string
	// MinConsumers is the fewest consumers the search tries (besides
	// LoadFloor−1, run to tell ShortTrace): the larger of LoadFloor and
	// the fewest that the work allows at all (see PlanLatency),
	// math.MaxInt when none can (a target of 0 rounds for events that take
	// time, all arriving at round 0). No answer is below it.
	MinConsumers int
	// MostConsumers is the most consumers the search may try: the limit,
	// or when fewer the most that matter: those that can change a run
	// (the events; under [Static] on partition lanes, the partitions when
	// more), or LoadFloor when more, since the load needs them whether or
	// not this trace's run uses them.
	MostConsumers int
	// Work is the trace's work, the sum of its durations, and Span the
	// rounds its events arrive over, from the first arrival to the last,
	// both counted. LoadFloor is the fewest consumers that carry the
	// offered load, ⌈Work/Span⌉, or with a [LatencyConfig].Rate
	// ⌈Work·Rate/Events⌉ (to within 16 units in the last place of the
	// quotient): fewer fall behind the arrivals, and a backlog that grows
	// for as long as the traffic lasts breaks any objective in a steady
	// state, even where the trace ends before it does. It is 0 when Work
	// is 0, a load no consumer need carry, and, without a Rate, when every
	// event arrives in one round, Span 1: such a trace is one burst and
	// shows no steady state; math.MaxInt when a Rate's quotient passes
	// the largest int, which the Assumptions then state in full.
	Work, Span, LoadFloor int
	// OverloadedWork is the heaviest lane's work, and OverloadedLane its
	// name, when it is more than Span (with a Rate, than Events/Rate, to
	// within 16 units in the last place): a lane runs one event at a time,
	// so it falls behind the arrivals whatever the consumers, its backlog
	// growing for as long as the traffic lasts, and no count meets the
	// objective in a steady state: Meets is false, even where the trace
	// ends before the backlog breaks the objective. OverloadedWork is 0
	// otherwise (and when LoadFloor is 0), and OverloadedLane "" (which a
	// LaneFunc may name a lane too).
	OverloadedLane string
	OverloadedWork int
	// Rate is [LatencyConfig].Rate, 0 for the trace's own arrivals.
	Rate float64
	// ShortTrace tells that the trace is too short to show a steady
	// state: LoadFloor−1 consumers, which do not carry the load, meet the
	// objective on it all the same.
	ShortTrace bool
	// Bisected tells whether the counts were bisected (under [HeadOfLine],
	// where latency never rises with consumers) rather than tried one by
	// one.
	Bisected bool
	// Curve is the percentile at every count tried, the counts rising.
	Curve []LatencyPoint
	// Assumptions states, in words a user can check, what the figures rest
	// on.
	Assumptions []string
}

// latencyProbes is how many counts a search tries in each pass after its
// first, which tries up to latencyFirstProbes: from the fewest, doubling,
// and the most.
const (
	latencyProbes      = 4
	latencyFirstProbes = 8
	latencyHeld        = 1 << 16 // the most events PlanLatency holds in memory
)

// PlanLatency answers, for each of layouts under the policy opts set
// ([HeadOfLine] by default), the smallest consumer count whose run of
// events keeps cfg.SLO: its percentile, in rounds, at most cfg.SLO.Rounds,
// with the trace's own arrival times (transform the stream first for
// others, as synth.PoissonArrivals does). It returns one plan per layout,
// in order.
//
// A first pass runs every layout with a consumer for every event: a
// layout whose percentile there misses the objective misses it at every
// count (see [LatencyPlan].Floor). No count below MinConsumers is tried:
// the ⌈n·p⌉ events that meet a response objective of T rounds finish by
// the last arrival A plus T, so c consumers must fit their work, at least
// that of the ⌈n·p⌉ shortest events, S, into A+T rounds each: c ≥
// S/(A+T); under a wait objective each consumer may also have one event
// running past A+T, c ≥ S/(A+T+D) for the longest duration D. Nor is any
// count below the load floor answered: the consumers that carry the
// offered load, the work over the rounds the events arrive over (see
// [LatencyPlan].LoadFloor), however well a short trace hides a growing
// backlog. LoadFloor−1 is run once, in the first pass, when no other
// bound rules it out: if it meets the objective all the same, the plan
// says the trace is too short to show a steady state. Nor is any count
// answered when a lane carries more work than those rounds (see
// [LatencyPlan].OverloadedWork), or, under [Static], a count that deals
// one consumer lanes of more work than them: a lane runs one event at a
// time, and so does a consumer the lanes it is dealt. These are the ways a
// count falls behind the arrivals that the plan can tell from the trace;
// others, such as head-of-line blocking that idles consumers a little
// every stretch of the traffic, only a longer trace shows. No count above
// cfg.MaxConsumers is tried, nor above the most that can change a run (the
// events; under [Static] on partition lanes, the partitions when more)
// unless the load floor is higher. Under HeadOfLine,
// where a consumer more never lets any event start or finish later
// (TestMoreConsumersNeverRaiseLatency proves it), the counts between are
// bisected, several at a time; under the other policies every count from
// the fewest up is tried until one meets the objective. Either way the
// answer is the smallest count that meets it.
//
// Each pass is one [Sweep] of all the layouts' counts to try, reading
// events again, which must yield the same events each time; a stream of at
// most 65,536 events is held in memory after the first pass, a longer one
// is read afresh each time. PlanLatency returns an error for an objective
// out of range (see [SLO]) or a limit that is not 0 to [MaxConsumers], the
// stream's first error, and the first run's error, as Sweep gives it, and
// for a Rate that is not 0 or a positive finite number, or that would
// take more than 2^62 rounds to bring the events. Under [WithMaxBacklog]
// that includes a count tried whose run holds more than the limit, its
// first run's, with a consumer for every event, among them, even where a
// smaller count would meet the objective within it: unlike PlanConsumers,
// PlanLatency does not pass over such a count. It panics, with a
// "konvoy:" prefix, when events or an option is nil.
func PlanLatency(events iter.Seq2[Event, error], layouts []Layout, cfg LatencyConfig, opts ...Option) ([]LatencyPlan, error) {
	if events == nil {
		panic("konvoy: PlanLatency: events is nil")
	}
	policy := collect(opts).policy
	bp, err := cfg.check()
	if err != nil || len(layouts) == 0 {
		return nil, err
	}
	limit := cmp.Or(cfg.MaxConsumers, 1024)
	opts = append(opts[:len(opts):len(opts)], withPercentile(bp, cfg.SLO.Wait))
	src := &planStream{seq: events}
	floors, err := floorRuns(src, layouts, opts)
	if err != nil {
		return nil, err
	}
	if cfg.Rate > 0 && !(float64(src.n)/cfg.Rate <= maxArrivalRounds) {
		return nil, fmt.Errorf("konvoy: arrival rate %v: its %d events would take %.4g rounds to arrive; want a rate that brings them within 2^62", cfg.Rate, src.n, float64(src.n)/cfg.Rate)
	}
	searches := make([]*latencySearch, len(layouts))
	for i, l := range layouts {
		searches[i] = startSearch(l, policy, cfg, bp, floors[i], src, limit)
	}
	if err := search(src, layouts, searches, opts); err != nil {
		return nil, err
	}
	plans := make([]LatencyPlan, len(layouts))
	for i, s := range searches {
		plans[i] = s.finish()
	}
	return plans, nil
}

// floorRuns runs, in PlanLatency's first pass, each of layouts with a
// consumer for every event, reading src once.
func floorRuns(src *planStream, layouts []Layout, opts []Option) ([]latencyRun, error) {
	floors := make([]Config, len(layouts))
	for i, l := range layouts {
		floors[i] = Config{Layout: l, Consumers: 1, Options: append(opts[:len(opts):len(opts)], withConsumerPerEvent())}
	}
	at := make([]runNote, len(floors))
	results, err := sweep(context.Background(), src.events(), floors, sweepOptions{maxMemory: DefaultMaxMemory}, at)
	if err != nil {
		return nil, err
	}
	runs := make([]latencyRun, len(results))
	for i, r := range results {
		runs[i] = latencyRun{r, at[i]}
	}
	return runs, nil
}

// startSearch starts the search of layout l under policy for cfg's
// objective, at bp basis points, whose run with a consumer for every event
// is floor, over src, read once already, up to limit consumers.
func startSearch(l Layout, policy Policy, cfg LatencyConfig, bp int, floor latencyRun, src *planStream, limit int) *latencySearch {
	fewest, load := src.fewest(bp, cfg.SLO), src.loadFloor(cfg.Rate)
	most := countsThatMatter(src.n, l, policy)
	top := min(limit, max(most, load))
	s := newLatencySearch(l, policy, cfg.SLO, floor, src.n, max(fewest, load), top)
	s.plan.Work, s.plan.Span, s.plan.LoadFloor, s.plan.MostConsumers, s.plan.Rate, s.most = src.work, src.span(), load, top, cfg.Rate, most
	s.extra = slices.DeleteFunc(slices.Clone(cfg.Counts), func(c int) bool { return c < 1 || c > top })
	// LoadFloor−1 is run once when no bound rules it out: the search may
	// be over before it starts (the limit below the load floor), but not
	// when the floor, a consumer for every event, breaks the SLO.
	if below := load - 1; load > fewest && below >= 1 && below <= top && src.n > 0 && s.plan.Floor <= cfg.SLO.Rounds {
		s.below = below
		s.extra = append(s.extra, below)
	}
	s.plan.Assumptions, s.reseq = latencyAssumptions(s, src, limit), l.handler == resequence
	s.overload(floor.Result, load, l.partitions > 0)
	return s
}

// maxArrivalRounds is the most rounds a LatencyConfig.Rate may take to
// bring a trace's events.
const maxArrivalRounds = 0x1p62

// check returns the objective's percentile in basis points, or the error
// of the first field out of its range.
func (cfg LatencyConfig) check() (int, error) {
	bp, err := cfg.SLO.basisPoints()
	switch {
	case err != nil:
		return 0, err
	case cfg.SLO.Rounds < 0:
		return 0, fmt.Errorf("konvoy: latency objective of %d rounds: want 0 or more", cfg.SLO.Rounds)
	case cfg.MaxConsumers < 0 || cfg.MaxConsumers > MaxConsumers:
		return 0, fmt.Errorf("konvoy: consumer limit %d: want 0 (1024) to %d", cfg.MaxConsumers, MaxConsumers)
	case !(cfg.Rate >= 0 && cfg.Rate <= math.MaxFloat64):
		return 0, fmt.Errorf("konvoy: arrival rate %v: want 0 (the trace's own) or a positive finite rate in events a round", cfg.Rate)
	}
	return bp, nil
}

// search runs the searches of layouts, one Sweep of src a pass, until
// every one is over.
func search(src *planStream, layouts []Layout, searches []*latencySearch, opts []Option) error {
	for {
		var configs []Config
		var of []*latencySearch
		var counts []int
		for i, s := range searches {
			for _, c := range s.next() {
				// More consumers than can change the run run as that many
				// do: the run is the same, and its memory stays with the
				// events, however high the load floor puts the count.
				configs = append(configs, Config{Layout: layouts[i], Consumers: min(c, s.most), Options: opts})
				of, counts = append(of, s), append(counts, c)
			}
		}
		if len(configs) == 0 {
			return nil
		}
		at := make([]runNote, len(configs))
		results, err := sweep(context.Background(), src.events(), configs, sweepOptions{maxMemory: DefaultMaxMemory}, at)
		if err != nil {
			return err
		}
		for i, r := range results {
			of[i].record(counts[i], latencyRun{r, at[i]})
		}
	}
}

// withPercentile makes a Simulator's Result keep the percentile at bp basis
// points of the response, or with wait of the wait, for PlanLatency.
func withPercentile(bp int, wait bool) Option {
	return func(o *options) { o.percentile, o.percentileOfWait = bp, wait }
}

// planStream is PlanLatency's stream: each full reading counts what the
// bound on the fewest consumers needs, and a stream of at most latencyHeld
// events is held after its first full reading, for the passes after.
type planStream struct {
	seq       iter.Seq2[Event, error]
	held      []Event
	small     bool // held is the whole stream
	n         int  // events
	first     int  // the first arrival
	last      int  // the last arrival
	longest   int  // the longest duration
	work      int  // the durations' sum, math.MaxInt past it
	durations histogram
}

// events returns the stream to read once.
func (p *planStream) events() iter.Seq2[Event, error] {
	if p.small {
		return Values(p.held)
	}
	return func(yield func(Event, error) bool) {
		var n, first, last, longest, work int
		var durations histogram
		held := p.held[:0]
		for e, err := range p.seq {
			if err == nil {
				if n == 0 {
					first = e.Arrival
				}
				n, last, longest = n+1, e.Arrival, max(longest, e.Duration)
				work = satAdd(work, max(0, e.Duration))
				if d := max(0, e.Duration); !durations.addNear(d) {
					durations.addElsewhere(d)
				}
				if n <= latencyHeld {
					held = append(held, e)
				}
			}
			if !yield(e, err) {
				return
			}
		}
		p.n, p.first, p.last, p.longest, p.work, p.durations = n, first, last, longest, work, durations
		p.held, p.small = held, n <= latencyHeld
		if !p.small {
			p.held = nil
		}
	}
}

// fewest returns the fewest consumers that can meet slo, at bp basis
// points, as PlanLatency's doc derives it, at least 1; math.MaxInt when
// none can.
func (p *planStream) fewest(bp int, slo SLO) int {
	if p.n == 0 {
		return 1
	}
	need := nearestRank(p.n, bp)
	work := 0 // a lower bound on the work of the need shortest events
	for b := range p.durations.buckets {
		take := min(b.count, need)
		work += take * b.lo
		if need -= take; need == 0 {
			break
		}
	}
	room := satAdd(p.last, slo.Rounds)
	if slo.Wait {
		room = satAdd(room, p.longest)
	}
	switch {
	case work == 0:
		return 1
	case room == 0:
		return math.MaxInt
	}
	return max(1, work/room+min(1, work%room))
}

// span returns the rounds the events arrive over, the first and the last
// counted; 0 for no events.
func (p *planStream) span() int {
	if p.n == 0 {
		return 0
	}
	return satAdd(p.last-p.first, 1)
}

// loadFloor returns the fewest consumers that carry the offered load,
// ⌈work/span⌉, or ⌈work·rate/n⌉ at a rate above 0, or 0 when every event
// arrives in one round and there is no rate (see [LatencyPlan].LoadFloor).
func (p *planStream) loadFloor(rate float64) int {
	span := p.span()
	if p.work == 0 || rate == 0 && span <= 1 {
		return 0
	}
	return carriers(p.work, p.n, span, rate)
}

// carriers returns the fewest consumers that carry work brought by n
// events over span rounds, ⌈work/span⌉, or at a rate above 0 over the
// n/rate rounds it takes to bring them, ⌈work·rate/n⌉ (see ceilInt), at
// least 1 there (for a quotient float64 rounds to 0); n and span are
// above 0.
func carriers(work, n, span int, rate float64) int {
	if rate > 0 {
		return max(1, ceilInt(float64(work)*rate/float64(n)))
	}
	return work/span + min(1, work%span)
}

// ceilInt returns ⌈v⌉ for v ≥ 0, taken as the whole number just below when
// v is within 16 units in its last place above it (float64's rounding of
// a quotient that is whole), and math.MaxInt when that passes it.
func ceilInt(v float64) int {
	c := -floorNear(-v)
	if c >= 0x1p63 {
		return math.MaxInt
	}
	return int(c)
}

// satAdd returns a+b for a, b ≥ 0, or math.MaxInt when it overflows.
func satAdd(a, b int) int {
	if a > math.MaxInt-b {
		return math.MaxInt
	}
	return a + b
}

// latencyRun is a run of a search, with its percentile.
type latencyRun struct {
	Result
	runNote
}

// latencySearch is one layout's search for the fewest consumers: the
// counts it has tried, and what it knows.
type latencySearch struct {
	plan      LatencyPlan
	from, top int
	extra     []int // the counts asked for besides the search's
	below     int   // LoadFloor−1, tried to tell a ShortTrace; 0 for none
	most      int   // the most consumers that can change a run (countsThatMatter)
	reseq     bool  // the layout is the resequencer's
	tried     map[int]latencyRun
	missed    int // every count from from up to missed−1 was tried and misses: where frontier looks from
	passes    int
	done      bool
}

// newLatencySearch starts the search of layout l under policy, whose run
// with a consumer for every event is floor, over counts from to top.
func newLatencySearch(l Layout, policy Policy, slo SLO, floor latencyRun, events, from, top int) *latencySearch {
	s := &latencySearch{from: from, top: top, tried: map[int]latencyRun{}}
	s.plan = LatencyPlan{Layout: l.String(), Policy: policy, Events: events, SLO: slo, Floor: floor.at,
		FloorLane: worstLane(floor.Result), MinConsumers: from, Bisected: policy == HeadOfLine}
	switch {
	case events == 0:
		s.plan.Meets, s.done = true, true
	case floor.at > slo.Rounds || from > top:
		s.done = true
	}
	return s
}

// overload notes, from the run floor with a consumer for every event,
// whose HeaviestLane is the heaviest lane's work, a lane that carries more
// than the span the events arrive over (see
// [LatencyPlan].OverloadedLane), unless the trace is one burst (load 0),
// and says so in the plan's assumptions, partition telling that the lanes
// are partitions: no count is then answered.
func (s *latencySearch) overload(floor Result, load int, partition bool) {
	p := &s.plan
	if load == 0 || s.needs(floor.HeaviestLane) <= 1 {
		return
	}
	p.OverloadedLane, p.OverloadedWork, s.done = floor.HeaviestLaneName, floor.HeaviestLane, true
	p.Assumptions = append(p.Assumptions, fmt.Sprintf("%s carries %s of work over %s, %s consumers' worth, and runs one event at a time: "+
		"its backlog grows for as long as the traffic lasts, whatever the consumers, so no count meets the objective in a steady state",
		laneText(p.OverloadedLane, partition), roundsText(p.OverloadedWork), s.arrivalRounds(), s.worthText(p.OverloadedWork)))
}

// needs returns the fewest consumers that carry work over the rounds the
// events arrive over, as the load floor counts them (see carriers). It is
// asked only of a plan with a load floor: of events that arrive over
// rounds.
func (s *latencySearch) needs(work int) int {
	return carriers(work, s.plan.Events, s.plan.Span, s.plan.Rate)
}

// worthText writes how many consumers' worth work is, over the rounds
// the events arrive over, as the assumptions do (see approxText): at a
// rate, as carriers counts it, a few units in the last place off a whole
// number taken for it (nearWhole); over a span, exactly, as the count
// there is (work 3·10^14+2 over a span of 3·10^14+1 is
// 1.000000000000003, not 1, and needs 2).
func (s *latencySearch) worthText(work int) string {
	v := float64(work) * s.perRound()
	if s.plan.Rate > 0 {
		v = nearWhole(v)
	}
	return approxText(v)
}

// nearWhole returns v, or the whole number other than 0 that v is within
// 16 units in its last place of, as ceilInt and floorNear take a quotient
// of a rate: 20 events at 10^-5 a round arrive over 2000000 rounds, which
// float64 makes 1999999.9999999998.
func nearWhole(v float64) float64 {
	if w := math.Round(v); w != v && w != 0 && withinSlack(v, w) {
		return w
	}
	return v
}

// approxText writes v, at least 0, with four significant digits, or as
// many more as keep a fraction from reading as a whole number (40001
// rounds over 40000 are 1.00002 consumers' worth, not 1), and a whole v
// with none: 2, not 2.000; below 0.0001 or from 10^15 on, in exponent
// form, with four digits. It writes v as it is: a quotient of a rate,
// which float64 may make a few units in its last place off a whole
// number, goes through nearWhole first.
func approxText(v float64) string {
	switch {
	case v != 0 && v < 1e-4 || v >= 1e15 || math.IsNaN(v):
		return strconv.FormatFloat(v, 'g', 4, 64)
	case v == math.Trunc(v):
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	for d := max(1, 3-int(math.Floor(math.Log10(v)))); ; d++ { // a fraction of a float64 below 10^15 shows within 60 places
		if s := strings.TrimRight(strconv.FormatFloat(v, 'f', d, 64), "0"); !strings.HasSuffix(s, ".") {
			return s
		}
	}
}

// perRound returns the share of the work a round brings: 1/Span, or at a
// rate, rate/Events.
func (s *latencySearch) perRound() float64 {
	if s.plan.Rate > 0 {
		return s.plan.Rate / float64(s.plan.Events)
	}
	return 1 / float64(s.plan.Span)
}

// arrivalRounds names the rounds the events arrive over, as the
// assumptions do.
func (s *latencySearch) arrivalRounds() string {
	if s.plan.Rate > 0 {
		return fmt.Sprintf("the %s its %s take to arrive at %s a round", roundsAmount(approxText(nearWhole(float64(s.plan.Events)/s.plan.Rate))), counted(s.plan.Events, "event", "events"), approxText(s.plan.Rate))
	}
	return "the " + roundsText(s.plan.Span) + " the events arrive over"
}

// worstLane names the lane of r whose events waited longest, "" when none
// waited.
func worstLane(r Result) string {
	if len(r.WorstLanes) == 0 || r.WorstLanes[0].MaxWait == 0 {
		return ""
	}
	return r.WorstLanes[0].Lane
}

// meets tells whether the run r keeps the objective, in a steady state.
func (s *latencySearch) meets(r latencyRun) bool { return s.meetsOnTrace(r) && s.steady(r) }

// meetsOnTrace tells whether the run r's percentile keeps the objective.
func (s *latencySearch) meetsOnTrace(r latencyRun) bool { return r.at <= s.plan.SLO.Rounds }

// steady tells whether no consumer of the run r is dealt more work than
// the rounds the events arrive over, as only Static deals lanes to
// consumers (see Simulator.pinnedMost): one that is falls behind the
// arrivals whatever the trace shows. A trace of one burst (load floor 0)
// shows no steady state to keep.
func (s *latencySearch) steady(r latencyRun) bool {
	return s.plan.LoadFloor == 0 || s.needs(r.pinned) <= 1
}

// bounds returns the smallest count tried that meets the objective (top+1
// when none does) and the largest below it that does not (from−1 when none
// was tried).
func (s *latencySearch) bounds() (lo, hi int) {
	lo, hi = s.from-1, s.top+1
	for c, r := range s.tried {
		if s.meets(r) && c < hi && c >= s.from {
			hi = c
		}
	}
	for c, r := range s.tried {
		if !s.meets(r) && c < hi && c > lo {
			lo = c
		}
	}
	return lo, hi
}

// next returns the counts to try in the next pass, none when the search is
// over; the first pass runs the extra counts too.
func (s *latencySearch) next() []int {
	var counts []int
	if s.passes == 0 {
		counts = append(counts, s.extra...)
	}
	s.passes++
	switch {
	case s.done:
	case !s.plan.Bisected: // one by one, from the fewest not yet tried
		for c, _ := s.frontier(); c <= s.top && len(counts) < 2*latencyProbes; c++ {
			counts = append(counts, c)
		}
	case s.passes == 1: // from the fewest, doubling, and the most
		for c := s.from; c < s.top && len(counts) < latencyFirstProbes-1; c *= 2 {
			counts = append(counts, c)
		}
		counts = append(counts, s.top)
	default: // evenly between the bounds
		lo, hi := s.bounds()
		for j := 1; j <= latencyProbes; j++ {
			counts = append(counts, lo+int(int64(hi-lo)*int64(j)/int64(latencyProbes+1)))
		}
		counts = slices.DeleteFunc(counts, func(c int) bool { return c <= lo || c >= hi })
	}
	slices.Sort(counts)
	counts = slices.DeleteFunc(slices.Compact(counts), func(c int) bool { _, ok := s.tried[c]; return ok })
	if len(counts) == 0 {
		s.done = true
	}
	return counts
}

// frontier returns, for a search one count after another, the first count
// from the fewest not yet tried, or top+1, and the smallest count that
// meets the objective with every count before it tried, 0 when none is
// known. It takes O(1) amortised time a count tried: the counts it has
// found tried and missing are not looked at again (missed).
func (s *latencySearch) frontier() (next, found int) {
	for c := max(s.from, s.missed); c <= s.top; c++ {
		r, ok := s.tried[c]
		switch {
		case !ok:
			return c, 0
		case s.meets(r):
			return c, c
		}
		s.missed = c + 1
	}
	return s.top + 1, 0
}

// answer returns the smallest count that meets the objective, 0 when none
// is known.
func (s *latencySearch) answer() int {
	if !s.plan.Bisected {
		_, found := s.frontier()
		return found
	}
	if _, hi := s.bounds(); hi <= s.top {
		return hi
	}
	return 0
}

// record takes the run r on c consumers, and ends the search once it knows
// the answer.
func (s *latencySearch) record(c int, r latencyRun) {
	s.tried[c] = r
	if !s.plan.Bisected { // O(1) amortised (see frontier), where bounds' O(counts tried) made the search's time quadratic
		if next, found := s.frontier(); found > 0 || next > s.top {
			s.done = true
		}
		return
	}
	if lo, hi := s.bounds(); hi-lo <= 1 || hi > s.top && s.triedTop() {
		s.done = true
	}
}

// pinnedAssumptions says why the largest count tried below the answer c
// (0: none) that meets the objective on the trace is passed over, when
// static dispatch deals one of its consumers more work than the rounds
// the events arrive over (see steady).
func (s *latencySearch) pinnedAssumptions(c int) []string {
	over := 0
	for n, r := range s.tried {
		if s.meetsOnTrace(r) && !s.steady(r) && n > over && (c == 0 || n < c) {
			over = n
		}
	}
	if over == 0 {
		return nil
	}
	work := s.tried[over].pinned
	return []string{fmt.Sprintf("with consumers dispatched static, a consumer runs the lanes dealt to it one event at a time: on %s the busiest is dealt %s of work over %s, %s consumers' worth, "+
		"so its backlog grows for as long as the traffic lasts, and the count is passed over though it meets the objective on the trace",
		consumerCount(over), roundsText(work), s.arrivalRounds(), s.worthText(work))}
}

// heldAssumptions says, for the resequencer, that an event's latency
// ends as its handler finishes, not once it is applied: the rounds it is
// then held until its gap fills are not in it, and an event never applied
// counts all the same; with the holds of the run on c consumers, when one
// was tried and held some.
func (s *latencySearch) heldAssumptions(c int) []string {
	if !s.reseq || s.plan.Events == 0 {
		return nil
	}
	const ends = "the latency ends as an event's handler finishes, not once the resequencer applies it"
	r, ok := s.tried[c]
	switch {
	case !ok:
		return []string{ends + ": the rounds an event is then held until its gap fills are not in it, and an event never applied counts all the same"}
	case r.Buffered == 0:
		return nil
	}
	return []string{fmt.Sprintf("%s: on %s, %s held for a gap to fill, %d of them never applied and the rest held %s in all, each counted at its handler's finish",
		ends, consumerCount(c), counted(r.Buffered, "event was", "events were"), r.NeverApplied, roundsText(r.HeldRounds))}
}

// triedTop tells whether the most consumers have been tried.
func (s *latencySearch) triedTop() bool {
	_, ok := s.tried[s.top]
	return ok
}

// finish returns the plan the search found.
func (s *latencySearch) finish() LatencyPlan {
	p := s.plan
	for c, r := range s.tried {
		p.Curve = append(p.Curve, LatencyPoint{Consumers: c, Rounds: r.at})
	}
	slices.SortFunc(p.Curve, func(a, b LatencyPoint) int { return a.Consumers - b.Consumers })
	if p.Events == 0 {
		return p
	}
	if r, ok := s.tried[s.below]; ok && s.meetsOnTrace(r) {
		p.ShortTrace = true
		p.Assumptions = append(slices.Clip(p.Assumptions), fmt.Sprintf("the trace is too short to show a steady state: it meets the objective at %s too, "+
			"below the load, only because it ends before the backlog grows past it", consumerCount(s.below)))
	}
	at := s.answer()
	if p.OverloadedWork > 0 {
		at = 0 // a count tried for the curve meets on this trace alone
	}
	p.Assumptions = append(slices.Clip(p.Assumptions), s.heldAssumptions(at)...)
	p.Assumptions = append(p.Assumptions, s.pinnedAssumptions(at)...)
	if at == 0 {
		for _, pt := range p.Curve { // the lowest, at the fewest consumers among equals, none below the fewest tried
			if pt.Consumers >= s.from && (at == 0 || pt.Rounds < s.tried[at].at) {
				at = pt.Consumers
			}
		}
	} else {
		p.Meets, p.Consumers = true, at
	}
	if at == 0 || p.Floor > p.SLO.Rounds {
		p.Achieved, p.WorstLane, p.AtFloor = p.Floor, p.FloorLane, true
		return p
	}
	r := s.tried[at]
	p.Achieved, p.WorstLane, p.Utilisation = r.at, worstLane(r.Result), s.utilisation(r.Result, at)
	return p
}

// utilisation returns the busy share of r's run on c consumers (see
// [LatencyPlan].Utilisation).
func (s *latencySearch) utilisation(r Result, c int) float64 {
	switch {
	case s.plan.Rate > 0:
		return float64(r.Work) * s.perRound() / float64(c)
	case s.plan.Span > 1:
		return float64(r.Work) / (float64(c) * float64(s.plan.Span))
	case r.Rounds > 0:
		return float64(r.Work) / (float64(c) * float64(r.Rounds))
	}
	return 0
}

// latencyAssumptions states what a latency plan rests on.
func latencyAssumptions(s *latencySearch, src *planStream, limit int) []string {
	p := s.plan
	name, on := PercentileName(p.SLO.Percentile), "response, from an event's arrival to its finish"
	if p.SLO.Wait {
		on = "wait, from an event's arrival to its start"
	}
	busy := "utilisation is the work over consumers × " + s.arrivalRounds()
	if p.Span <= 1 && s.plan.Rate == 0 {
		busy = "utilisation is the work over consumers × the run's rounds"
	}
	rank := fmt.Sprintf("%s is by nearest rank, exact below %d rounds and above it within 1/1024", name, ExactLatency)
	if p.SLO.Percentile == 100 {
		rank = "max is the largest, exact" // see LatencyCounter
	}
	out := []string{
		fmt.Sprintf("the latency is the %s, in whole rounds; %s", on, rank),
		fmt.Sprintf("%s; at most %s tried", busy, counted(limit, "consumer is", "consumers are")),
	}
	if p.Bisected {
		out = append(out, fmt.Sprintf("with consumers dispatched %s, a consumer more never lets an event start or finish later, so the counts are bisected", p.Policy))
	} else {
		out = append(out, fmt.Sprintf("with consumers dispatched %s, latency need not fall as consumers are added, so every count from the fewest up is tried until one meets the objective", p.Policy))
	}
	return append(out, loadAssumptions(s, src)...)
}

// loadAssumptions states the bounds below which a latency plan tries no
// count: the offered load, and the work within the objective.
func loadAssumptions(s *latencySearch, src *planStream) []string {
	p := s.plan
	var out []string
	switch {
	case p.Events == 0:
	case p.LoadFloor == 0 && p.Work > 0:
		out = append(out, fmt.Sprintf("every event arrives in round %d: the trace is one burst and shows no steady state, so the plan is for that burst alone", src.first))
	case p.LoadFloor == math.MaxInt && s.plan.Rate > 0:
		out = append(out, fmt.Sprintf("no count up to the largest int, %d, carries the offered load: the work, %s, arrives over %s, %s consumers' worth; "+
			"with any of them a backlog grows for as long as the traffic lasts", p.LoadFloor, roundsText(p.Work), s.arrivalRounds(), s.worthText(p.Work)))
	case p.LoadFloor > 1 && s.plan.Rate > 0:
		out = append(out, fmt.Sprintf("fewer than %d consumers do not carry the offered load: the work, %s, arrives over %s, %s consumers' worth; "+
			"with fewer a backlog grows for as long as the traffic lasts", p.LoadFloor, roundsText(p.Work), s.arrivalRounds(), s.worthText(p.Work)))
	case p.LoadFloor > 1:
		out = append(out, fmt.Sprintf("fewer than %d consumers do not carry the offered load: the work, %s, arrives over the %d rounds %d to %d, %s consumers' worth; "+
			"with fewer a backlog grows for as long as the traffic lasts", p.LoadFloor, roundsText(p.Work), p.Span, src.first, src.last, approxText(float64(p.Work)/float64(p.Span))))
	}
	switch {
	case p.MinConsumers <= max(1, p.LoadFloor) || p.MinConsumers == math.MaxInt:
	case p.SLO.Wait:
		out = append(out, fmt.Sprintf("fewer than %d consumers cannot meet it: the events within the objective start by round %d (the last arrival plus the target), "+
			"each consumer's last of them running %s at most past it, and their work does not fit on fewer",
			p.MinConsumers, satAdd(src.last, p.SLO.Rounds), roundsText(src.longest)))
	default:
		out = append(out, fmt.Sprintf("fewer than %d consumers cannot meet it: the events within the objective finish by round %d (the last arrival plus the target), and their work does not fit on fewer",
			p.MinConsumers, satAdd(src.last, p.SLO.Rounds)))
	}
	return out
}

// consumerCount is "1 consumer" or "n consumers".
func consumerCount(n int) string {
	if n == 1 {
		return "1 consumer"
	}
	return fmt.Sprintf("%d consumers", n)
}
