package konvoy

import (
	"cmp"
	"errors"
	"fmt"
	"iter"
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// PlanConfig is what the capacity planner needs besides the trace.
//
// Peak is the write rate to keep up with, in events per second (the lesson's
// tepe yazma hızı, 97.22). RoundSeconds is how long one round of the model
// lasts, in seconds: the service time of an event of Duration 1.
// MaxConsumers is the largest consumer count the planner tries, up to
// [MaxConsumers]; 0 means 1024.
type PlanConfig struct {
	Peak         float64
	RoundSeconds float64
	MaxConsumers int
}

// Plan answers, for one layout and policy, how many consumers keep up with
// a peak write rate, and where no number of consumers helps any more.
type Plan struct {
	Layout string
	Policy Policy
	// Events counts the trace's events.
	Events int
	// Consumers is the smallest consumer count that sustains the peak, 0
	// when none up to the limit does; Rounds is its run's, and Rate the
	// rate it sustains, in events per second: the peak or more, but for
	// float64's rounding (see PlanConsumers).
	Consumers int
	Rounds    int
	Rate      float64
	// Ceiling is the rate no consumer count exceeds: with a consumer for
	// every event a run still lasts at least CeilingRounds (exactly, but
	// under Static, whose lanes keep their consumers), the longest chain of
	// events that must run one after another in one lane, or the longest
	// event. CeilingLane names that lane, "" when no lane sets it (no
	// lanes, or no work after CeilingFrom, as when every duration is 0):
	// the lane of the first event, in input order, to finish last, which
	// can differ from [Result].HeaviestLaneName when lanes tie or events
	// arrive over time.
	Ceiling       float64
	CeilingRounds int
	CeilingLane   string
	// CeilingFrom is the arrival from which CeilingLane is busy without a
	// break until the run ends, or, with no lane, the arrival of the event
	// that ends last: the ceiling is that arrival plus the work run one
	// after another from it, CeilingRounds − CeilingFrom. A ceiling with
	// CeilingFrom above 0 is set by the arrivals as much as by the lane.
	CeilingFrom int
	// Assumptions states, in words a user can check, what the figures rest
	// on. A lane's key is quoted there, Go-style, when it holds a
	// separator, a quote, a character that does not print or bytes that
	// are not UTF-8, so that each sentence names one lane on one line.
	Assumptions []string
}

// PlanConsumers finds the consumers a layout needs to keep up with
// cfg.Peak under the policy opts set ([HeadOfLine] by default), taking the
// trace as representative of the traffic: a run of n events that lasts R
// rounds of cfg.RoundSeconds sustains n / (R · RoundSeconds) events per
// second, and keeps up when R is at most n / (Peak · RoundSeconds), taken
// as the whole number just above when it is within 16 units in its last
// place of it (7/(7·0.01) is 99.99999999999999 events/s, for 100).
//
// events is ranged over once per consumer count tried and must yield the
// same events each time (a slice's [Values], a synth stream, a file opened
// again). Under HeadOfLine, where a consumer more never makes a run longer
// (a property the tests check), O(log c) counts are tried, by doubling and
// bisection; under the other policies every count from 1 up, until one
// fits. No count above the trace's events is tried, since it would run as
// that many do, except under Static on partition lanes, where counts up to
// the partitions are (see countsThatMatter); an empty trace needs no
// consumers.
//
// PlanConsumers returns an error for a peak or round length that is not a
// positive finite number, a limit that is not 0 to [MaxConsumers] or an
// unknown policy, the stream's first error, and a run's error, as
// [Simulate] gives it: the first run's, but for [ErrBacklog], which it
// returns only for the count just above the largest that does not keep up
// (a count above that whose run outgrows the backlog is passed over when a
// smaller one keeps up).
// It panics, with a "konvoy:" prefix, when events or an option is nil.
func PlanConsumers(events iter.Seq2[Event, error], layout Layout, cfg PlanConfig, opts ...Option) (Plan, error) {
	if events == nil {
		panic("konvoy: PlanConsumers: events is nil")
	}
	policy := collect(opts).policy
	if err := cfg.check(); err != nil {
		return Plan{}, err
	}
	if policy > Static { // as Simulate refuses it, though no count may be run
		return Plan{}, fmt.Errorf("konvoy: unknown %v", policy)
	}
	src := &source{seq: events}
	values := src.values()
	limit := cfg.MaxConsumers
	if limit == 0 {
		limit = 1024
	}
	p := Plan{Layout: layout.String(), Policy: policy}
	ceiling, err := chainRounds(values, layout)
	if err = cmp.Or(src.err, err); err != nil {
		return Plan{}, err
	}
	p.Events, p.CeilingRounds, p.CeilingLane, p.CeilingFrom = ceiling.events, ceiling.rounds, ceiling.lane, ceiling.from
	p.Ceiling = rate(p.Events, p.CeilingRounds, cfg.RoundSeconds)
	p.Assumptions = assumptions(p, cfg, limit, ceiling.partition)
	if p.Events == 0 {
		return p, nil
	}
	// A run keeps up when it lasts at most the budget's rounds, the
	// assumptions' "keeping up means at most" (floorNear, as atMost takes
	// it): a run of exactly the budget sustains the peak, which the rate's
	// floating point may write short of it (7/(7·0.01) is
	// 99.99999999999999). So a budget up to 16 units in its last place
	// below a whole number of rounds counts as that number, and Rate may be
	// as many units below Peak.
	budget := float64(p.Events) / (cfg.Peak * cfg.RoundSeconds)
	keepsUp := func(rounds int) bool { return withinWhole(rounds, floorNear(budget)) }
	if !keepsUp(p.CeilingRounds) {
		return p, nil
	}
	fits := func(c int) (int, bool, error) {
		r, err := simulateSeq(values, layout, c, opts...)
		return r.Rounds, keepsUp(r.Rounds), cmp.Or(src.err, err)
	}
	// No run on c consumers beats Work/c rounds, so fewer than Work/budget
	// consumers never fit, whatever the policy, where budget is the most
	// rounds that keep up. One count below that is tried too, in case
	// budget, a few units in its last place short of a whole number of
	// rounds, counts as that number (floorNear).
	// A trace that takes no time needs a consumer, however small the
	// budget; a bound past every count tried, +Inf for a budget of 0 (a
	// peak times a round length past the largest float64), is compared as a
	// float, whose conversion to int Go leaves to the platform.
	top := min(limit, countsThatMatter(p.Events, layout, policy))
	from := 1
	if ceiling.work > 0 {
		need := math.Ceil(float64(ceiling.work)/budget) - 1
		if !(need <= float64(top)) {
			return p, nil
		}
		from = max(1, int(need))
	}
	c, rounds, err := smallestFitting(fits, from, top, policy == HeadOfLine)
	if err != nil || c == 0 {
		return p, err
	}
	p.Consumers, p.Rounds, p.Rate = c, rounds, rate(p.Events, rounds, cfg.RoundSeconds)
	return p, nil
}

// countsThatMatter returns the most consumers that can change a run of n
// events under layout l and policy: n, since a consumer more than events
// stays idle, except under Static on partition lanes, where consumers are
// dealt partitions, not events, so that up to one a partition can shorten
// a run.
func countsThatMatter(n int, l Layout, policy Policy) int {
	if policy == Static {
		return max(n, l.Partitions())
	}
	return n
}

// check returns the error of the first field out of its range.
func (cfg PlanConfig) check() error {
	switch {
	case !(cfg.Peak > 0) || math.IsInf(cfg.Peak, 1):
		return fmt.Errorf("konvoy: peak rate %v: want a positive number of events per second", cfg.Peak)
	case !(cfg.RoundSeconds > 0) || math.IsInf(cfg.RoundSeconds, 1):
		return fmt.Errorf("konvoy: round length %v: want a positive number of seconds", cfg.RoundSeconds)
	case cfg.MaxConsumers < 0 || cfg.MaxConsumers > MaxConsumers:
		return fmt.Errorf("konvoy: consumer limit %d: want 0 (1024) to %d", cfg.MaxConsumers, MaxConsumers)
	}
	return nil
}

// smallestFitting returns the smallest c in [from, limit] for which fits
// says yes, with its rounds, or 0; fits is known to say no below from. With
// monotone set, fits is taken to stay yes once it says yes, and the search
// doubles then bisects. A count whose run fails with [ErrBacklog] (one
// event held for each consumer that has taken one: more as the counts
// grow) may or may not keep up: the bisection looks below it, and the
// answer is the error only when the count above the largest known not to
// keep up is such a count; so the doubling never fails for a count past
// the answer. Any other error ends the search.
func smallestFitting(fits func(int) (int, bool, error), from, limit int, monotone bool) (c, rounds int, err error) {
	if !monotone {
		for c := from; c <= limit; c++ {
			r, ok, err := fits(c)
			if err != nil || ok {
				return c, r, err
			}
		}
		return 0, 0, nil
	}
	lo, hi := from-1, from // fits(lo) is no (or lo is 0); fits(hi) is to be seen
	for {
		r, ok, err := fits(hi)
		if err != nil && !errors.Is(err, ErrBacklog) {
			return 0, 0, err
		}
		if ok || err != nil {
			return bisect(fits, lo, hi, r, err)
		}
		if hi == limit {
			return 0, 0, nil
		}
		lo, hi = hi, min(2*hi, limit)
	}
}

// bisect is smallestFitting's bisection of (lo, hi], fits(lo) being no
// (or lo 0), and fits(hi) yes, in rounds, or hiErr, an ErrBacklog.
func bisect(fits func(int) (int, bool, error), lo, hi, rounds int, hiErr error) (int, int, error) {
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		r, ok, err := fits(mid)
		switch {
		case err != nil && !errors.Is(err, ErrBacklog):
			return 0, 0, err
		case ok || err != nil:
			hi, rounds, hiErr = mid, r, err
		default:
			lo = mid
		}
	}
	if hiErr != nil {
		return 0, 0, hiErr
	}
	return hi, rounds, nil
}

// rate returns the events per second of a run of n events over rounds
// rounds, or +Inf for a run that takes no time. Where the run's seconds
// pass float64's range it divides by its rounds first, so that a run the
// peak's budget allows never reads as 0 events/s.
func rate(n, rounds int, roundSeconds float64) float64 {
	if rounds == 0 {
		return math.Inf(1)
	}
	if secs := float64(rounds) * roundSeconds; !math.IsInf(secs, 1) {
		return float64(n) / secs
	}
	return float64(n) / float64(rounds) / roundSeconds
}

// simulateSeq is Simulate over a stream.
func simulateSeq(events iter.Seq[Event], layout Layout, consumers int, opts ...Option) (Result, error) {
	s, err := NewSimulator(layout, consumers, opts...)
	if err != nil {
		return Result{}, err
	}
	for e := range events {
		if err := s.Add(e); err != nil {
			return Result{}, err
		}
	}
	return s.Result()
}

// chain is the run of a trace with a consumer for every event: how long it
// lasts, which lane's chain of events sets that, and the trace's work.
type chain struct {
	events, rounds, work int
	from                 int // the arrival from which the ceiling's events run back to back
	lane                 string
	partition            bool // lane names a partition
}

// chainRounds runs events with unlimited consumers, where an event starts as
// soon as it has arrived and its lane is free: the least any number of
// consumers, under any policy, can do. It is a Simulator's run with a
// consumer for every event (see unlimited), whose backlog is the events not
// yet applied.
func chainRounds(events iter.Seq[Event], layout Layout) (chain, error) {
	s, err := NewSimulator(layout, 1, withConsumerPerEvent())
	if err != nil {
		return chain{}, err
	}
	for e := range events {
		if err := s.Add(e); err != nil {
			return chain{}, err
		}
	}
	u := s.dispatch.(*unlimited)
	c := chain{events: s.events, rounds: s.rounds, work: s.work, from: u.lastFrom, partition: layout.partitions > 0}
	if ln := u.last; ln >= 0 && s.rounds > u.lastFrom { // a lane with no work after the arrival sets nothing
		c.lane = s.table.name(s.in, ln)
	}
	return c, nil
}

// assumptions states what a plan rests on.
func assumptions(p Plan, cfg PlanConfig, limit int, partition bool) []string {
	events := fmt.Sprintf("the %d events of the trace are", p.Events)
	if p.Events == 1 {
		events = "the one event of the trace is"
	}
	out := []string{
		fmt.Sprintf("%s a fair sample of the traffic at the peak of %.6g events/s", events, cfg.Peak),
		fmt.Sprintf("one round lasts %gs: an event of duration d keeps its consumer busy for d·%gs", cfg.RoundSeconds, cfg.RoundSeconds),
		fmt.Sprintf("a run of the trace that lasts R rounds sustains %d/(R·%gs) events/s, so keeping up means at most %s",
			p.Events, cfg.RoundSeconds, roundsAmount(atMost(float64(p.Events)/(cfg.Peak*cfg.RoundSeconds)))),
		dispatchAssumption(p.Policy, limit),
	}
	return append(out, ceilingAssumptions(p, partition)...)
}

// dispatchAssumption states how the plan searched the counts under policy
// p, up to limit, and what that means for a count above its answer: under
// HeadOfLine a consumer more never makes a run longer, so every count
// above keeps up too; under the others it can (Static: a convoy of 7
// events runs 12 rounds on 2 consumers and 16 on 3), so one need not.
func dispatchAssumption(p Policy, limit int) string {
	tried := counted(limit, "is", "are")
	if p == HeadOfLine {
		return fmt.Sprintf("consumers are dispatched %s, where a consumer more never makes a run longer, and at most %s tried", p, tried)
	}
	return fmt.Sprintf("consumers are dispatched %s, where a consumer more need not make a run shorter: a count above the plan's may not keep up; at most %s tried", p, tried)
}

// withinWhole tells whether rounds is at most b, a whole number of rounds
// (floorNear's) or +Inf, compared as integers: as a float64, a run of
// 2^60+100 rounds reads as 2^60, within a budget of 2^60 it passes.
func withinWhole(rounds int, b float64) bool {
	return b >= 0x1p63 || int64(rounds) <= int64(b)
}

// atMost writes x, a most that may not be passed, to four significant
// digits, rounded down: rounded to the nearest, a budget of 20.9996 rounds
// would read 21, which a run of 21 rounds does not keep (the plan's own
// answer would break it). From 1000 on it writes the whole number of
// rounds (floorNear's) in full, every digit before the point, which four
// digits would cut below the plan's own answer: 123450.7 rounds as
// 1.234e+05, 123400; from 2^63, past every run's rounds, four digits
// again (floorDigits). x at or below 0, or not finite, is written as it is.
func atMost(x float64) string {
	if !(x > 0) || math.IsInf(x, 1) {
		return strconv.FormatFloat(x, 'g', 4, 64)
	}
	if x >= 0x1p63 {
		return floorDigits(x)
	}
	if x >= 1000 {
		return strconv.FormatFloat(floorNear(x), 'f', 0, 64)
	}
	// x·10^k has four digits before the point. Below 1e-305, 10^k is past
	// float64's range: x is scaled by 10^300 first, in two steps.
	k := 3 - decade(x)
	pre := 1.0
	if k > 300 {
		pre, k = 1e300, k-300
	}
	scale := math.Pow(10, k)
	return strconv.FormatFloat(floorNear(x*pre*scale)/scale/pre, 'g', 4, 64)
}

// floorDigits writes x, a whole float64 of at least 1000, to four
// significant digits rounded down, as 1.999e+303 for 1.9999999999999997e+303:
// its exact digits, which strconv writes for a whole float64, cut after
// the fourth, where a budget past every run's rounds (2^63) would
// otherwise fill hundreds of columns with float64's digits.
func floorDigits(x float64) string {
	s := strconv.FormatFloat(x, 'f', 0, 64)
	return fmt.Sprintf("%s.%se+%02d", s[:1], s[1:4], len(s)-1)
}

// decade returns ⌊log10 x⌋ for x > 0, for a subnormal x too, whose
// math.Log10 is off by up to a decade on amd64 (5e-324 reads -307.95): x is
// then scaled by 2^100 first.
func decade(x float64) float64 {
	if x < 0x1p-1022 {
		return math.Floor(float64(math.Log10(x*0x1p100)) - float64(100*math.Log10(2))) // not fused: the same on every machine
	}
	return math.Floor(math.Log10(x))
}

// floorNear returns ⌊v⌋, or the whole number just above v when v is within
// 16 units in its last place of it: floating point writes 7/(7·0.1) as
// 9.999999999999998, which is 10; a slack relative to v (1e-12 of it) took
// a budget of 0.9999999999995 rounds for 1.
func floorNear(v float64) float64 {
	if up := math.Ceil(v); withinSlack(v, up) {
		return up
	}
	return math.Floor(v)
}

// withinSlack tells whether w is within 16 units in v's last place of v:
// float64's error in a quotient that the planner takes for w (floorNear,
// ceilInt, nearWhole).
func withinSlack(v, w float64) bool { return math.Abs(w-v) <= 16*(math.Nextafter(v, math.Inf(1))-v) }

// ceilingAssumptions says what sets a plan's ceiling: a lane whose events
// must run one after another, or the arrival from which they, or the event
// that ends last, run without a break.
func ceilingAssumptions(p Plan, partition bool) []string {
	if p.CeilingRounds == 0 || p.CeilingLane == "" && p.CeilingFrom == 0 {
		return nil
	}
	lane := laneText(p.CeilingLane, partition)
	head := "no consumer count beats " + roundsText(p.CeilingRounds)
	work := p.CeilingRounds - p.CeilingFrom
	switch {
	case p.CeilingLane == "":
		return []string{fmt.Sprintf("%s: the arrival at round %d plus the %s the event that ends last takes", head, p.CeilingFrom, roundsText(work))}
	case p.CeilingFrom > 0:
		return []string{fmt.Sprintf("%s: the arrival at round %d plus the %s of work %s then runs one after another", head, p.CeilingFrom, roundsText(work), lane)}
	}
	return []string{fmt.Sprintf("%s: %s must run its events one after another", head, lane)}
}

// laneText names a lane in an assumption: "partition N", or "lane K"
// with the key K as QuoteKey writes it, so that it reads as one name on
// one line.
func laneText(lane string, partition bool) string {
	if partition {
		return "partition " + lane
	}
	return "lane " + QuoteKey(lane)
}

// QuoteKey returns key k as konvoy's reports write a key or a lane's name:
// as it is, or quoted as strconv.Quote quotes it when it is empty or holds
// a separator (comma, semicolon, space, tab, line break), a double quote,
// a character that does not print, or bytes that are not UTF-8, so that
// it reads as one name, on one line, and two keys never read alike. It
// takes time in proportion to len(k).
func QuoteKey(k string) string {
	if strings.ContainsAny(k, ",; \t\r\n\"") || k == "" || !utf8.ValidString(k) ||
		strings.IndexFunc(k, func(r rune) bool { return !unicode.IsPrint(r) }) >= 0 {
		return strconv.Quote(k)
	}
	return k
}

// roundsAmount is amount, a number of rounds already written as text,
// with its unit: "1 round", or "0.5 rounds".
func roundsAmount(amount string) string { return amounted(amount, "round", "rounds") }

// roundsText is "1 round" or "n rounds".
func roundsText(n int) string { return counted(n, "round", "rounds") }
