package report

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"iter"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/chart"
	"github.com/sirali-konvoy/konvoy/eventlog"
	"github.com/sirali-konvoy/konvoy/internal/duration"
	"github.com/sirali-konvoy/konvoy/synth"
)

// SLO is konvoy plan's latency objective, as -slo and -slo-on give it, and
// the arrivals it is planned at: the trace's own (-arrivals trace), scaled
// to -peak when Scaled, or Poisson arrivals at -peak from Seed.
type SLO struct {
	Percentile float64       // 50 to 99.9, or 100 for max
	Target     time.Duration // the latency the percentile may reach
	Wait       bool          // the wait, arrival to start, not the response
	Poisson    bool          // -arrivals poisson
	Scaled     bool          // -peak given with -arrivals trace
	Seed       uint64        // -seed, for Poisson arrivals
	Curve      bool          // also run the counts of a picture of the whole curve (sloCurve)
}

// sloPattern is -slo's syntax: pNN, a decimal number, or max, then = and
// a duration; readPercentile says what is wrong with a number.
var sloPattern = regexp.MustCompile(`^(?:p([0-9]+(?:\.[0-9]+)?)|max)=(.*)$`)

// ParseSLO reads -slo, "pNN=DURATION" (p50 to p99.9, in steps of 0.01) or
// "max=DURATION", such as "p99=2s", into a percentile (100 for max) and a
// positive target. Its errors say what was wrong and what is wanted.
func ParseSLO(s string) (percentile float64, target time.Duration, err error) {
	m := sloPattern.FindStringSubmatch(s)
	if m == nil {
		return 0, 0, fmt.Errorf("%q: want pNN=DURATION or max=DURATION, such as p99=2s", s)
	}
	percentile = 100
	if m[1] != "" {
		if percentile, err = readPercentile(m[1]); err != nil {
			return 0, 0, fmt.Errorf("%s: %w", s, err)
		}
	}
	target, err = duration.Parse(m[2])
	switch {
	case duration.TooLong(m[2], err):
		return 0, 0, fmt.Errorf("%s: want a duration after = of at most %v, the longest a time.Duration holds", s, duration.Longest)
	case err != nil || target <= 0:
		return 0, 0, fmt.Errorf("%s: want a positive duration after =, such as 2s or 250ms, in whole nanoseconds", s)
	}
	return percentile, target, nil
}

// readPercentile reads the number of -slo's pNN: 50 to 99.9, in steps of
// 0.01 (trailing zeros after the point are no step), with no leading zero
// (p099 could mean p99 or p0.99).
func readPercentile(v string) (float64, error) {
	whole, frac, _ := strings.Cut(v, ".")
	if len(whole) > 1 && whole[0] == '0' {
		return 0, errors.New("want p50 to p99.9 or max, with no leading zero (p099 could mean p99 or p0.99)")
	}
	if len(strings.TrimRight(frac, "0")) > 2 {
		return 0, errors.New("want p50 to p99.9 or max, in steps of 0.01")
	}
	p, err := strconv.ParseFloat(v, 64)
	if err != nil || !(p >= 50 && p <= 99.9) {
		return 0, errors.New("want p50 to p99.9 or max")
	}
	return p, nil
}

// SLOFlags defines konvoy plan's -slo, -slo-on and -arrivals on fs, each
// checked as it is parsed, and returns what reads them once fs is parsed:
// the objective, nil without -slo, with -peak given or not, -seed, and
// whether to run the counts of a picture.
func SLOFlags(fs *flag.FlagSet) func(peakGiven bool, seed uint64, curve bool) *SLO {
	var s SLO
	set := false
	fs.Func("slo", "also plan for a latency objective `pNN=D`, p50 to p99.9 or max, such as p99=2s: the fewest consumers whose percentile is within D",
		func(v string) (err error) {
			s.Percentile, s.Target, err = ParseSLO(v)
			set = err == nil
			return err
		})
	on, arrivals := &oneOfValue{"response", []string{"response", "wait"}}, &oneOfValue{"trace", []string{"trace", "poisson"}}
	fs.Var(on, "slo-on", "the latency -slo bounds: `response` (arrival to finish) or wait (arrival to start)")
	fs.Var(arrivals, "arrivals", "-slo's arrivals: `trace` (the trace's own, scaled to a mean of -peak when -peak is given) or poisson (at -peak, from -seed; at the trace's own mean rate without -peak)")
	return func(peakGiven bool, seed uint64, curve bool) *SLO {
		if !set {
			return nil
		}
		s.Wait, s.Poisson = on.v == "wait", arrivals.v == "poisson"
		s.Scaled, s.Seed, s.Curve = peakGiven && !s.Poisson, seed, curve
		return &s
	}
}

// oneOfValue is a flag's value that must be one of values.
type oneOfValue struct {
	v      string
	values []string
}

// String returns the value.
func (o *oneOfValue) String() string {
	if o == nil {
		return ""
	}
	return o.v
}

// Set sets the value, or returns an error that lists the values wanted.
func (o *oneOfValue) Set(v string) error {
	if !slices.Contains(o.values, v) {
		return fmt.Errorf("want %s", strings.Join(o.values, " or "))
	}
	o.v = v
	return nil
}

// DrawSLO draws the picture of the latency plans under the first policy
// (chart.SLO), as -plot asks.
func (a *Plan) DrawSLO(w io.Writer, f chart.Format) error {
	return chart.SLO(w, f, a.SLOChart())
}

// name is the objective as -slo names it, with what it measures: "p99 of
// the response".
func (s *SLO) name() string {
	on := "response (arrival to finish)"
	if s.Wait {
		on = "wait (arrival to start)"
	}
	return konvoy.PercentileName(s.Percentile) + " of the " + on
}

// planLatency plans every layout under every policy for the objective, at
// the arrivals it asks for.
func (a *Plan) planLatency() error {
	s := a.o.SLO
	rounds := s.Target / a.o.Round
	if int64(rounds) > math.MaxInt32 {
		return fmt.Errorf("konvoy plan: -slo: %v is %d rounds of %v; want at most %d", s.Target, int64(rounds), a.o.Round, math.MaxInt32)
	}
	a.sloRounds = int(rounds)
	events, rate, err := a.sloArrivals()
	if err != nil {
		return err
	}
	cfg := konvoy.LatencyConfig{SLO: konvoy.SLO{Percentile: s.Percentile, Wait: s.Wait, Rounds: a.sloRounds}, MaxConsumers: a.o.MaxConsumers, Rate: rate}
	if s.Curve {
		cfg.Counts = sloCurve(a.o.MaxConsumers)
	}
	for _, p := range a.o.Policies {
		plans, err := konvoy.PlanLatency(events, a.layouts, cfg, Dispatch(p, a.o.Assignor, konvoy.WithMaxBacklog(a.backlog), konvoy.WithResequencer(a.o.Resequencer))...)
		var ev *konvoy.EventError
		var le *eventlog.Error
		switch {
		case errors.As(err, &ev):
			return a.located(err)
		case err != nil && !errors.As(err, &le) && !strings.HasPrefix(err.Error(), "konvoy plan: "):
			return fmt.Errorf("konvoy plan: -slo: %w", err) // the arrivals'
		case err != nil:
			return err
		}
		a.latency = append(a.latency, plans)
	}
	return nil
}

// sloCurve are the counts a picture of the whole curve runs, up to limit:
// 1 to 16, then about a third more each time.
func sloCurve(limit int) []int {
	var counts []int
	for c := 1; c <= limit; c = max(c+1, c*4/3) {
		counts = append(counts, c)
	}
	return counts
}

// scaleFactor returns the factor that scales the arrivals of n events
// over span rounds of round to a mean of peak events/s, n/(peak·round·span),
// divided in turn so that no product overflows (as a product, when the
// first quotient does, for a subnormal peak), and then taken 8 units in
// its last place up. The peak's and the round's readings and the three
// divisions leave the quotient up to about 6 units short of the exact
// factor of the peak as written (3 at most in 400,000 random cases), and
// ⌊(r−F)·f⌋ would then move an arrival that the exact factor puts on a
// whole round a round earlier: -peak at the trace's own mean rate, a
// factor of 1, computed 0.9999999999999999, moved every arrival but the
// first (found by a review). So a scaled arrival within 8 units of f's
// last place (relatively) below a whole round is taken to be on it, as
// float64 cannot tell it from one that is. A quotient below the smallest
// normal float64 is left as it is: it puts every arrival on round F.
func scaleFactor(n int, peak float64, round time.Duration, span int) float64 {
	f := float64(n) / peak / Seconds(round) / float64(span)
	if math.IsInf(f, 1) { // n/peak overflowed, for a subnormal peak: the product may not
		f = float64(n) / (peak * Seconds(round) * float64(span))
	}
	if f < 0x1p-1022 {
		return f
	}
	for range 8 {
		f = math.Nextafter(f, math.Inf(1))
	}
	return f
}

// sloArrivals returns the trace's events with the arrivals the objective
// is planned at, and the rate they were made at, in events a round (-peak;
// 0 for the trace's own, see konvoy.LatencyConfig.Rate), and says how they
// are made in a.sloArrivalsNote.
func (a *Plan) sloArrivals() (iter.Seq2[konvoy.Event, error], float64, error) {
	s, src, peak := a.o.SLO, a.src, a.o.Peak
	n, first, last := src.Stats.Events(), src.FirstArrival, src.LastArrival
	switch {
	case s.Poisson:
		perRound := peak * Seconds(a.o.Round)
		a.arrivalsNote = fmt.Sprintf("events arrive as a Poisson process of %s events/s (%.4g a round), drawn from -seed %d, each in the whole round "+
			"its time falls in; the trace's own arrival times are not used", formatRate(peak), perRound, s.Seed)
		return synth.PoissonArrivals(src.Events, perRound, s.Seed), perRound, nil
	case last == first:
		return nil, 0, fmt.Errorf("konvoy plan: -slo: every event of %s arrives at round %d, one burst with no arrival times to plan a steady state at: "+
			"plan with -arrivals poisson, which draws arrivals at -peak", src.Name, first)
	case s.Scaled:
		span := a.span()
		factor := scaleFactor(n, peak, a.o.Round, span)
		scaled, from := "⌊r·f⌋", ""
		if first > 0 { // the span, and so the scale, counts from the first arrival
			scaled, from = fmt.Sprintf("%d+⌊(r−%d)·f⌋", first, first), fmt.Sprintf("%d+", first)
		}
		a.arrivalsNote = fmt.Sprintf("the trace's arrivals are scaled to a mean of %s events/s (-peak): its %d events arrive over the %d rounds %d to %d, "+
			"so each arrival round r becomes %s, rounded down to a whole round, with f = %d/(%s·%v·%d) = %.6g; the last arrives at round %s%.0f",
			formatRate(peak), n, span, first, last, scaled, n, formatRate(peak), a.o.Round, span, factor, from, math.Floor(float64(last-first)*factor))
		return synth.ScaledArrivalsFrom(src.Events, first, factor), peak * Seconds(a.o.Round), nil
	}
	a.arrivalsNote = fmt.Sprintf("events arrive at the trace's own arrival times, as recorded: %d events over rounds %d to %d, %s events/s "+
		"(-peak scales them to another mean rate)", n, first, last, formatRate(a.ownRate()))
	return src.Events, 0, nil
}

// sloText is the latency plan: for every layout and policy the fewest
// consumers that keep the objective, what they reach, how busy they are
// and the lane that waits longest; why a plan meets it at no count; and
// the assumptions.
func sloText(a *Plan) string {
	s := a.o.SLO
	pn := konvoy.PercentileName(s.Percentile)
	var b strings.Builder
	fmt.Fprintf(&b, "\nlatency objective: %s within %v (-slo)\n", s.name(), s.Target)
	t := &table{leftCols: 2, leftLast: true}
	t.add("layout", "policy", "consumers", pn+" rounds", pn, "utilisation", "worst lane")
	var why []string
	for li, l := range a.layouts {
		for pi := range a.o.Policies {
			p := a.latency[pi][li]
			name := l.String()
			if pi > 0 {
				name = ""
			}
			consumers := strconv.Itoa(p.Consumers)
			if !p.Meets {
				consumers = "-"
				// A floor that misses misses under every policy, and so does an
				// overloaded lane: said once (it was said for each policy:
				// found by a review).
				if pi == 0 || p.Floor <= p.SLO.Rounds && p.OverloadedWork == 0 {
					why = append(why, missText(a, l, p))
				}
			}
			lane, busy := "-", "-"
			if p.WorstLane != "" {
				lane = laneName(l, p.WorstLane)
			}
			if p.Utilisation > 0 {
				busy = Percent(p.Utilisation)
			}
			rounds, took := strconv.Itoa(p.Achieved), a.duration(p.Achieved)
			if p.AtFloor {
				rounds, took = "floor "+rounds, "floor "+took
			}
			t.add(name, p.Policy.String(), consumers, rounds, took, busy, lane)
		}
	}
	b.WriteString(t.String())
	b.WriteString(wrapText(fmt.Sprintf("consumers: the fewest whose %s is at most %s, - when no count tried meets it; %s rounds: what they reach "+
		"(the lowest a count tried reaches when none meets it, or the floor: the lowest any count could reach, with a consumer for every event); "+
		"utilisation: their work over consumers × %s; worst lane: the lane whose events waited longest", pn, a.target(), pn, a.busyOver())))
	for _, w := range why {
		b.WriteString(wrapText(w))
	}
	b.WriteString(assumptionList(append(a.sloAssumptions(), assumptionsOf(a, func(li, pi int) []string { return a.latency[pi][li].Assumptions })...)))
	return b.String()
}

// target is the objective's target as the table's legend says it: the
// target itself, and its whole rounds when they fall short of it.
func (a *Plan) target() string {
	if s := a.o.SLO; s.Target%a.o.Round != 0 {
		return fmt.Sprintf("%v (%s)", s.Target, plural(a.sloRounds, "round", "rounds"))
	}
	return a.duration(a.sloRounds)
}

// busyOver says what a latency plan's utilisation divides the work by:
// the rounds the events arrive over, or, for a trace that arrives in one
// round, the run's.
func (a *Plan) busyOver() string {
	for _, plans := range a.latency {
		for _, p := range plans {
			if p.Span > 1 || p.Rate > 0 {
				return arrivalRounds(p)
			}
		}
	}
	return "the run's rounds"
}

// arrivalRounds names the rounds plan p's events arrive over: Span, or at
// the rate the arrivals were made at, the events over the rate.
func arrivalRounds(p konvoy.LatencyPlan) string {
	if p.Rate > 0 {
		return fmt.Sprintf("the %s its %s take to arrive at %.4g a round", amountText(fmt.Sprintf("%.4g", float64(p.Events)/p.Rate), "round", "rounds"), plural(p.Events, "event", "events"), p.Rate)
	}
	return fmt.Sprintf("the %s the events arrive over", plural(p.Span, "round", "rounds"))
}

// duration writes rounds as time, at the plan's round length: in hours,
// rounded, for a time beyond a time.Duration's range.
func (a *Plan) duration(rounds int) string {
	if r := a.o.Round; r > 0 && int64(rounds) > math.MaxInt64/int64(r) {
		return fmt.Sprintf("about %.0fh", float64(rounds)*r.Hours())
	}
	return (time.Duration(rounds) * a.o.Round).String()
}

// missText says why plan p of layout l meets the objective at no count.
func missText(a *Plan, l konvoy.Layout, p konvoy.LatencyPlan) string {
	pn := konvoy.PercentileName(p.SLO.Percentile)
	head := fmt.Sprintf("%s under %s meets it at no count: ", l, p.Policy)
	if p.Floor > p.SLO.Rounds {
		head = fmt.Sprintf("%s meets it at no count, under any policy: ", l)
	}
	switch {
	case p.Floor > p.SLO.Rounds && p.FloorLane != "":
		return head + fmt.Sprintf("%s's own events, run back to back as they arrive, already reach %s %s (%s) with a consumer for every event",
			laneName(l, p.FloorLane), pn, plural(p.Floor, "round", "rounds"), a.duration(p.Floor))
	case p.Floor > p.SLO.Rounds:
		return head + fmt.Sprintf("the events' own durations already reach %s %s (%s) with a consumer for every event", pn, plural(p.Floor, "round", "rounds"), a.duration(p.Floor))
	case p.OverloadedWork > 0:
		return fmt.Sprintf("%s meets it at no count in a steady state, under any policy: %s carries %s of work over %s, and runs one event at a time, so its backlog grows for as long as the traffic lasts",
			l, laneName(l, p.OverloadedLane), plural(p.OverloadedWork, "round", "rounds"), arrivalRounds(p))
	case p.MinConsumers > p.MostConsumers:
		most := fmt.Sprintf("the %d it may try (-max-consumers)", p.MostConsumers)
		if p.MostConsumers < a.o.MaxConsumers {
			most = fmt.Sprintf("the %d that can change a run", p.MostConsumers)
		}
		needs := fmt.Sprintf("the work within the objective needs at least %s", consumersText(p.MinConsumers))
		if p.LoadFloor >= p.MinConsumers {
			needs = fmt.Sprintf("the offered load needs at least %s", consumersText(p.LoadFloor))
		}
		return fmt.Sprintf("%s under %s tries no count: %s, more than %s; %s %s (%s) is the floor, with a consumer for every event, not what a count reached",
			l, p.Policy, needs, most, pn, plural(p.Floor, "round", "rounds"), a.duration(p.Floor))
	}
	return head + fmt.Sprintf("no count from %d to %s (-max-consumers) meets it; %s is at best %s (%s)",
		p.MinConsumers, consumersText(min(a.o.MaxConsumers, p.MostConsumers)), pn, plural(p.Achieved, "round", "rounds"), a.duration(p.Achieved))
}

// sloAssumptions are what every latency plan rests on beside its own: the
// target in rounds and the arrivals.
func (a *Plan) sloAssumptions() []string {
	s := a.o.SLO
	target := fmt.Sprintf("the target %v is %s of %v (%s)", s.Target, plural(a.sloRounds, "round", "rounds"), a.o.Round, a.roundFlag())
	if s.Target%a.o.Round != 0 {
		target += ", the largest whole number of rounds within it: latencies are whole rounds"
	}
	return []string{target, a.arrivalsNote}
}

// SLOChart returns what chart.SLO draws of the latency plans under the
// first policy, nil without -slo or when no plan tried a count.
func (a *Plan) SLOChart() *chart.SLOPicture {
	if a.latency == nil {
		return nil
	}
	if p := chart.SLOOf(a.latency[0], a.o.Round); len(p.Series) > 0 {
		return p
	}
	return nil
}
