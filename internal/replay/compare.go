package replay

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/internal/report"
)

// tick is the simulator's round when it predicts from the handlers' actual
// service times: a microsecond, finer than SleepUntil's precision.
const tick = time.Microsecond

// Side is one column of a comparison: a run's measures in wall time.
type Side struct {
	Events   int           // the events taken: handled, skipped, discarded or never applied, or to be
	Makespan time.Duration // from round 0 to the last finish
	Work     time.Duration // the service times, summed
	// Wait and Response are the model's percentiles (konvoy.Latency) in
	// wall time.
	WaitP50, WaitP95, WaitP99, WaitMax                 time.Duration
	ResponseP50, ResponseP95, ResponseP99, ResponseMax time.Duration
	WaitMean, ResponseMean                             time.Duration
	// Blocked is the time consumers held an item whose lane was busy,
	// summed over the consumers (head-of-line blocking).
	Blocked                                     time.Duration
	Skipped, Duplicates, Buffered, NeverApplied int
	// Under the resequencer, as konvoy.Result and live.Stats name them.
	MaxBuffered, MaxKeyBuffered, GapsSkipped, Forced, RejectedOld int
}

// Throughput is s's events per second of makespan, 0 for no makespan.
func (s Side) Throughput() float64 {
	if s.Makespan <= 0 {
		return 0
	}
	return float64(s.Events) / report.Seconds(s.Makespan)
}

// throughput writes s's throughput with one decimal, or "unbounded" for
// events taken in no time, as konvoy plan writes a rate without a
// makespan. A measured run with no makespan ran no handler: its
// throughput is "n/a". The JSON's throughput is null for both
// (jsonThroughput).
func throughput(s Side, measured bool) string {
	switch {
	case s.Makespan <= 0 && measured:
		return "n/a"
	case s.Makespan <= 0 && s.Events > 0:
		return "unbounded"
	}
	if x := s.Throughput(); x > 0 && x < 0.05 { // one decimal would say 0.0
		return strconv.FormatFloat(report.RoundAmount(x), 'g', 3, 64)
	}
	return strconv.FormatFloat(s.Throughput(), 'f', 1, 64)
}

// jsonThroughput is s's throughput for JSON, rounded to 3 decimals, or nil
// where the text says "unbounded" or "n/a" (see throughput), as konvoy
// plan's JSON writes a rate no run bounds: never 0 events/s for events
// taken in no time.
func jsonThroughput(s Side, measured bool) *float64 {
	if s.Makespan <= 0 && (measured || s.Events > 0) {
		return nil
	}
	x := report.RoundAmount(s.Throughput())
	return &x
}

// BlockedShare is the part of the consumers' time, consumers × Makespan,
// they spent blocked.
func (s Side) BlockedShare(consumers int) float64 {
	if s.Makespan <= 0 {
		return 0
	}
	return float64(s.Blocked) / (float64(consumers) * float64(s.Makespan))
}

// predictor runs the simulator on a stream of events under a Config and
// returns its measures in wall time, one round lasting round.
type predictor struct {
	sim   *konvoy.Simulator
	round time.Duration
}

// newPredictor returns a predictor under c, one round lasting round.
func newPredictor(c Config, round time.Duration) (*predictor, error) {
	sim, err := konvoy.NewSimulator(c.Layout, c.Consumers, c.options()...)
	return &predictor{sim: sim, round: round}, err
}

// side returns the run's measures.
func (p *predictor) side() (Side, error) {
	r, err := p.sim.Result()
	if err != nil {
		return Side{}, err
	}
	d := func(rounds float64) time.Duration { return time.Duration(math.Round(rounds * float64(p.round))) }
	s := Side{Events: r.Events, Makespan: d(float64(r.Rounds)), Work: d(float64(r.Work)), Blocked: d(r.BlockedMean * float64(r.Events)),
		Skipped: r.Skipped, Duplicates: r.Duplicates, Buffered: r.Buffered, NeverApplied: r.NeverApplied,
		MaxBuffered: r.MaxBuffered, MaxKeyBuffered: r.MaxKeyBuffered, GapsSkipped: r.GapsSkipped, Forced: r.Forced, RejectedOld: r.RejectedOld}
	s.setLatencies(r.Wait, r.Response, func(n int) time.Duration { return d(float64(n)) }, d)
	return s, nil
}

// setLatencies sets s's waits and responses to wait's and response's
// percentiles, each made a time.Duration by at, and means, by mean.
func (s *Side) setLatencies(wait, response konvoy.Latency, at func(int) time.Duration, mean func(float64) time.Duration) {
	s.WaitP50, s.WaitP95, s.WaitP99, s.WaitMax = at(wait.P50), at(wait.P95), at(wait.P99), at(wait.Max)
	s.ResponseP50, s.ResponseP95, s.ResponseP99, s.ResponseMax = at(response.P50), at(response.P95), at(response.P99), at(response.Max)
	s.WaitMean, s.ResponseMean = mean(wait.Mean), mean(response.Mean)
}

// fromActual returns c as the prediction from actual times runs under it,
// in rounds of tick: with the resequencer's timeout in those rounds, and
// with no limit on its backlog. MaxBacklog was checked against the
// planned times before the replay ran (Load), and handlers never finish
// early: one a hair late keeps its lane busy as the lane's next event
// arrives, so that the actual times may hold more than the planned did;
// the simulator's memory bound still holds.
func (c Config) fromActual() Config { return c.inRounds(tick) }

// inRounds returns c as a prediction in rounds of round runs under it, as
// fromActual does.
func (c Config) inRounds(round time.Duration) Config {
	c.MaxBacklog = 0
	// In rounds of round, to the round: the wall time, Timeout × Unit
	// (check bounds it), not Timeout × Unit cut to whole ticks, which -unit
	// 1500ns made a third short.
	c.Resequencer.Timeout = int(min(int64(c.Resequencer.Timeout)*int64(c.Unit)/int64(round), math.MaxInt))
	return c
}

// streamRound is the round of a Stream's planned prediction under unit:
// the largest that divides both unit, so that planned times stay exact,
// and a tick, so that arrivals are taken at least as finely as the
// prediction from actual times takes them.
func streamRound(unit time.Duration) time.Duration {
	a, b := unit, tick
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// plannedAt is e as a Stream's planned prediction takes it, in rounds of
// round (streamRound): its arrival at in whole rounds, rounded down, and
// its planned time, exactly.
func plannedAt(e konvoy.Event, at, unit, round time.Duration) konvoy.Event {
	e.Arrival = whole(at / round)
	e.Duration = whole(time.Duration(e.Duration) * (unit / round)) // tooLong bounds it in 64 bits
	return e
}

// fromActual is e as the prediction from actual times takes it: its
// arrival at, since the run's start, in whole ticks, rounded down, and the
// service time its handler took, to the tick.
func fromActual(e konvoy.Event, at, took time.Duration) konvoy.Event {
	e.Arrival = whole(at / tick)
	e.Duration = whole((took + tick/2) / tick)
	return e
}

// whole returns n as an int, or math.MaxInt when it does not fit (where
// int has 32 bits, past about 35 minutes of ticks), which the simulator
// then refuses as too late or too long, rather than a wrapped value.
func whole(n time.Duration) int { return int(min(int64(n), math.MaxInt)) }

// Predict runs the simulator on events under c and returns its measures in
// wall time. With actual nil, each event takes its Duration in rounds of
// c.Unit, as the trace plans. With actual, event i takes actual[i], the
// service time its handler took, simulated in rounds of a microsecond, and
// arrivals are scaled to match: the prediction for the times the handlers
// really took, so that a gap between the planned prediction and the
// measured run splits into timing (planned to actual) and dispatch (actual
// to measured). The simulator's errors are konvoy.EventErrors.
func Predict(events []konvoy.Event, c Config, actual []time.Duration) (Side, error) {
	if err := c.check(); err != nil {
		return Side{}, err
	}
	if actual != nil && len(actual) != len(events) {
		return Side{}, fmt.Errorf("replay: Predict: %d actual times for %d events; want one an event", len(actual), len(events))
	}
	round := c.Unit
	if actual != nil {
		c, round = c.fromActual(), tick
	}
	p, err := newPredictor(c, round)
	if err != nil {
		return Side{}, err
	}
	work := 0.0
	for i, e := range events {
		// The planned times must fit a time.Duration, as a trace's must
		// (TraceOf), before arrivals are taken in ticks.
		work += float64(e.Duration)
		if err := tooLong(float64(e.Arrival), work, c.Unit); err != nil {
			return Side{}, fmt.Errorf("%w: event %d (key %q)", err, i, e.Key)
		}
		if actual != nil {
			e = fromActual(e, time.Duration(e.Arrival)*c.Unit, actual[i])
		}
		if err := p.sim.Add(e); err != nil {
			return Side{}, err
		}
	}
	return p.side()
}

// Measured returns the measures of run, a replay's measured run.
func Measured(run *Run) Side {
	st := run.Stats
	s := Side{Events: st.Events, Makespan: run.Makespan, Work: run.Work, Blocked: st.Blocked,
		Skipped: st.Skipped, Duplicates: st.Duplicates, Buffered: st.Buffered, NeverApplied: st.NeverApplied,
		MaxBuffered: st.MaxBuffered, MaxKeyBuffered: st.MaxKeyBuffered, GapsSkipped: st.GapsSkipped, Forced: st.Forced, RejectedOld: st.RejectedOld}
	s.setLatencies(run.Wait, run.Response, func(n int) time.Duration { return time.Duration(n) * latencyUnit },
		func(n float64) time.Duration { return time.Duration(math.Round(n * float64(latencyUnit))) })
	return s
}

// Comparison is a replay beside its predictions.
type Comparison struct {
	Name   string // the trace
	Config Config
	// Of and Total: the comparison covers the first Of of Total events (a
	// replay stopped early covers fewer). Dropped events were dropped as
	// late by the reader (-late drop), before Total was counted; Rounded
	// durations and arrivals it rounded to whole rounds (-round).
	Of, Total, Dropped, Rounded int
	// Predicted is the simulator's prediction from the planned durations,
	// FromActual its prediction from the handlers' actual service times,
	// Measured the live run's measures.
	Predicted, FromActual, Measured Side
	// Late and LateBy are the run's: events submitted late for want of
	// room in the executor, and by how much in all.
	Late   int
	LateBy time.Duration
}

// Compare replays nothing itself: it predicts the first run.Submitted
// events of t under c, from the planned and from the actual service times,
// reading t once more, and sets them beside run's measures. A Stream's
// events arrive at the instants they were added: both predictions then run
// in fine rounds, each event arriving at its instant, so that the planned
// prediction and the one from actual times differ in service times alone,
// and the measured run in dispatch alone (the planned one in rounds that
// divide -unit; see streamRound). Neither is bounded by MaxBacklog then:
// Add checked it in whole rounds as the events came, and events at their
// instants may hold a little more.
func Compare(t *Trace, c Config, run *Run) (Comparison, error) {
	cmp := Comparison{Name: t.Name, Config: c, Of: run.Submitted, Total: run.Total, Dropped: t.Dropped, Rounded: t.Rounded,
		Measured: Measured(run), Late: run.Late, LateBy: run.LateBy}
	if run.Submitted == 0 {
		return cmp, nil
	}
	plannedConfig, plannedRound := c, c.Unit
	if run.arrivals != nil {
		plannedRound = streamRound(c.Unit)
		plannedConfig = c.inRounds(plannedRound)
	}
	planned, err := newPredictor(plannedConfig, plannedRound)
	if err != nil {
		return cmp, err
	}
	actual, err := newPredictor(c.fromActual(), tick)
	if err != nil {
		return cmp, err
	}
	took, arrived := run.actualTimes(), run.arrivalTimes(c.Unit)
	var serr error
	err = t.each(run.Submitted, func(_ int, e konvoy.Event) bool {
		var d, at time.Duration
		var handled bool
		if at, serr = arrived(e); serr != nil {
			return false
		}
		if d, handled, serr = took(); serr == nil {
			if !handled { // no time in the run, its planned time in the predictions
				d = time.Duration(e.Duration) * c.Unit
			}
			p := e
			if run.arrivals != nil {
				p = plannedAt(e, at, c.Unit, plannedRound)
			}
			if serr = planned.sim.Add(p); serr == nil {
				serr = actual.sim.Add(fromActual(e, at, d))
			}
		}
		return serr == nil
	})
	if err == nil {
		err = serr
	}
	if err != nil {
		return cmp, err
	}
	if cmp.Predicted, err = planned.side(); err != nil {
		return cmp, err
	}
	cmp.FromActual, err = actual.side()
	return cmp, err
}

// Text is the comparison as a table, one row a measure, one column a side,
// and a line on how the gap between prediction and measure splits.
func (c Comparison) Text() string {
	var b strings.Builder
	cfg := c.Config
	fmt.Fprintf(&b, "replay of %s: %s, layout %s, policy %s, %s, one round %v\n", c.Name, report.Plural(c.Of, "event", "events"),
		cfg.Layout, cfg.Policy, report.Plural(cfg.Consumers, "consumer", "consumers"), cfg.Unit)
	if c.Dropped > 0 {
		fmt.Fprintf(&b, "%s dropped, not replayed: each arrived earlier than an event the -reorder window had released (-late drop)\n",
			report.Plural(c.Dropped, "event", "events"))
	}
	if c.Of < c.Total {
		fmt.Fprintf(&b, "stopped early: %d of %d events submitted; every column covers those %d\n", c.Of, c.Total, c.Of)
	}
	if c.Of == 0 {
		b.WriteString("no event was submitted: nothing to predict or measure\n")
		return b.String()
	}
	w := tabwriter.NewWriter(&b, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(w, "measure\tpredicted\tfrom actual times\tmeasured\t")
	dur := func(name string, f func(Side) time.Duration) {
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\t\n", name, ms(f(c.Predicted)), ms(f(c.FromActual)), ms(f(c.Measured)))
	}
	dur("makespan", func(s Side) time.Duration { return s.Makespan })
	fmt.Fprintf(w, "throughput (events/s)\t%s\t%s\t%s\t\n", throughput(c.Predicted, false), throughput(c.FromActual, false), throughput(c.Measured, true))
	dur("wait p50", func(s Side) time.Duration { return s.WaitP50 })
	dur("wait p95", func(s Side) time.Duration { return s.WaitP95 })
	dur("wait p99", func(s Side) time.Duration { return s.WaitP99 })
	dur("wait max", func(s Side) time.Duration { return s.WaitMax })
	dur("response p50", func(s Side) time.Duration { return s.ResponseP50 })
	dur("response p95", func(s Side) time.Duration { return s.ResponseP95 })
	dur("response p99", func(s Side) time.Duration { return s.ResponseP99 })
	dur("response max", func(s Side) time.Duration { return s.ResponseMax })
	n := cfg.Consumers
	share := func(s Side) string {
		return report.Percent(s.BlockedShare(n))
	} // as JSON's, in percent
	fmt.Fprintf(w, "blocked share\t%s\t%s\t%s\t\n", share(c.Predicted), share(c.FromActual), share(c.Measured))
	dur("service time, total", func(s Side) time.Duration { return s.Work })
	reseq := c.countRows(w)
	w.Flush()
	if reseq {
		b.WriteString("the live resequencer holds an event before its handler runs, runs no duplicate, and runs a key's events in its key's lane, one at a time; the model runs every event as free consumption does and holds or discards it after: measured waits include the holds, a consumer may be blocked behind its key's lane, and each column's throughput counts every event taken\n")
	}
	if c.Measured.Makespan <= 0 {
		b.WriteString("no handler ran in the measured run: its column measures nothing\n")
	}
	if c.Late > 0 {
		fmt.Fprintf(&b, "%s submitted more than a round late, by %s on average (the executor was full, holding at most %s, or the machine busy); waits and responses count from arrival\n",
			report.Plural(c.Late, "event", "events"), ms(c.LateBy/time.Duration(c.Late)), report.Plural(cfg.HeldMost(), "event", "events"))
	}
	fmt.Fprintf(&b, "measured makespan %s the prediction: timing (actual service times) %s, dispatch (measured against the prediction from actual times) %s\n",
		pct(c.Measured.Makespan, c.Predicted.Makespan), pct(c.FromActual.Makespan, c.Predicted.Makespan), pct(c.Measured.Makespan, c.FromActual.Makespan))
	return b.String()
}

// countRows writes to w a row for each count of the version stamp or the
// resequencer (as the JSON's records name them) that a side has: skipped
// as stale, discarded as duplicates, held for a gap, the most held, those
// released by a timeout or capacity, gaps skipped, old steps rejected,
// and never applied; it tells whether it wrote one of the resequencer's.
func (c Comparison) countRows(w io.Writer) bool {
	row := func(name string, f func(Side) int) bool {
		if f(c.Predicted) == 0 && f(c.FromActual) == 0 && f(c.Measured) == 0 {
			return false
		}
		fmt.Fprintf(w, "%s\t%d\t%d\t%d\t\n", name, f(c.Predicted), f(c.FromActual), f(c.Measured))
		return true
	}
	row("skipped as stale", func(s Side) int { return s.Skipped })
	reseq := false // a row of the resequencer's
	for _, r := range []struct {
		name string
		f    func(Side) int
	}{
		{"duplicates discarded", func(s Side) int { return s.Duplicates }},
		{"held for a gap", func(s Side) int { return s.Buffered }},
		{"most held at once", func(s Side) int { return s.MaxBuffered }},
		{"most held for a key", func(s Side) int { return s.MaxKeyBuffered }},
		{"released by timeout or capacity", func(s Side) int { return s.Forced }},
		{"gaps skipped", func(s Side) int { return s.GapsSkipped }},
		{"old steps rejected", func(s Side) int { return s.RejectedOld }},
		{"never applied", func(s Side) int { return s.NeverApplied }},
	} {
		reseq = row(r.name, r.f) || reseq
	}
	return reseq
}

// ms writes d in milliseconds, to the microsecond.
func ms(d time.Duration) string { return fmt.Sprintf("%.3f ms", float64(d)/1e6) }

// pct writes how much a is above or below b, in per cent.
func pct(a, b time.Duration) string {
	if b == 0 {
		return "n/a"
	}
	return fmt.Sprintf("%+.1f%%", 100*(float64(a)/float64(b)-1))
}

// Record is one side of the JSON comparison, named as the trace report's
// records (konvoy -format json) where the meaning is the same; times are
// in rounds of the replay's unit, fractional where measured.
type Record struct {
	Layout       string  `json:"layout"`
	Policy       string  `json:"policy"`
	Consumers    int     `json:"consumers"`
	Events       int     `json:"events"`
	Work         float64 `json:"work"`
	Rounds       float64 `json:"rounds"`
	Parallelism  float64 `json:"parallelism"`
	Skipped      int     `json:"skipped"`
	Duplicates   int     `json:"duplicates"`
	Buffered     int     `json:"buffered"`
	NeverApplied int     `json:"never_applied"`
	// Under the resequencer:
	MaxBuffered    int      `json:"max_buffered"`
	MaxKeyBuffered int      `json:"max_key_buffered"`
	GapsSkipped    int      `json:"gaps_skipped"`
	Forced         int      `json:"forced"`
	RejectedOld    int      `json:"rejected_old"`
	WaitP50        float64  `json:"wait_p50"`
	WaitP95        float64  `json:"wait_p95"`
	WaitP99        float64  `json:"wait_p99"`
	WaitMax        float64  `json:"wait_max"`
	WaitMean       float64  `json:"wait_mean"`
	ResponseP50    float64  `json:"response_p50"`
	ResponseP95    float64  `json:"response_p95"`
	ResponseP99    float64  `json:"response_p99"`
	ResponseMax    float64  `json:"response_max"`
	ResponseMean   float64  `json:"response_mean"`
	Throughput     *float64 `json:"throughput"`    // events per second; null for unbounded or n/a
	BlockedShare   float64  `json:"blocked_share"` // of consumers × makespan
}

// record is s as a Record under c, measured or predicted.
func (c Comparison) record(s Side, measured bool) Record {
	r := func(d time.Duration) float64 { return report.RoundAmount(float64(d) / float64(c.Config.Unit)) }
	rec := Record{Layout: c.Config.Layout.String(), Policy: c.Config.Policy.String(), Consumers: c.Config.Consumers, Events: s.Events,
		Work: r(s.Work), Rounds: r(s.Makespan), Skipped: s.Skipped, Duplicates: s.Duplicates, Buffered: s.Buffered, NeverApplied: s.NeverApplied,
		MaxBuffered: s.MaxBuffered, MaxKeyBuffered: s.MaxKeyBuffered, GapsSkipped: s.GapsSkipped, Forced: s.Forced, RejectedOld: s.RejectedOld,
		WaitP50: r(s.WaitP50), WaitP95: r(s.WaitP95), WaitP99: r(s.WaitP99), WaitMax: r(s.WaitMax), WaitMean: r(s.WaitMean),
		ResponseP50: r(s.ResponseP50), ResponseP95: r(s.ResponseP95), ResponseP99: r(s.ResponseP99), ResponseMax: r(s.ResponseMax), ResponseMean: r(s.ResponseMean),
		Throughput: jsonThroughput(s, measured), BlockedShare: report.RoundShare(s.BlockedShare(c.Config.Consumers))}
	if s.Makespan > 0 {
		rec.Parallelism = report.RoundAmount(float64(s.Work) / float64(s.Makespan))
	}
	return rec
}

// JSON is the comparison as one JSON object: the events covered and the
// trace's (stopped_early when fewer), those the reader dropped as late
// (late_dropped), the durations and arrivals it rounded (rounded), the
// events submitted late for want of room and by how long in all, the
// makespans in seconds
// (predicted_seconds, from_actual_seconds, measured_seconds), the planned
// and actual service times summed in seconds, the events covered, and a
// Record per side (predicted, from_actual, measured), each null when no
// event was submitted, as the text says nothing to predict or measure.
func (c Comparison) JSON() (string, error) {
	out := struct {
		Trace             string  `json:"trace"`
		Events            int     `json:"events"`
		TraceEvents       int     `json:"trace_events"`
		LateDropped       int     `json:"late_dropped"`  // dropped as late (-late drop), not in trace_events
		Rounded           int     `json:"rounded"`       // durations and arrivals rounded to whole rounds (-round)
		StoppedEarly      bool    `json:"stopped_early"` // events < trace_events: every figure covers the events alone
		LateEvents        int     `json:"late_events"`
		LateSeconds       float64 `json:"late_seconds"`
		UnitSeconds       float64 `json:"unit_seconds"`
		PredictedSeconds  float64 `json:"predicted_seconds"`
		FromActualSeconds float64 `json:"from_actual_seconds"`
		MeasuredSeconds   float64 `json:"measured_seconds"`
		PlannedService    float64 `json:"planned_service_seconds"`
		ActualService     float64 `json:"actual_service_seconds"`
		Predicted         *Record `json:"predicted"`
		FromActual        *Record `json:"from_actual"`
		Measured          *Record `json:"measured"`
	}{c.Name, c.Of, c.Total, c.Dropped, c.Rounded, c.Of < c.Total, c.Late, report.Seconds(c.LateBy), report.Seconds(c.Config.Unit), report.Seconds(c.Predicted.Makespan), report.Seconds(c.FromActual.Makespan), report.Seconds(c.Measured.Makespan),
		report.Seconds(c.Predicted.Work), report.Seconds(c.Measured.Work), nil, nil, nil}
	if c.Of > 0 {
		p, f, m := c.record(c.Predicted, false), c.record(c.FromActual, false), c.record(c.Measured, true)
		out.Predicted, out.FromActual, out.Measured = &p, &f, &m
	}
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // "<stdin>" as it is
	enc.SetIndent("", "  ")
	err := enc.Encode(out)
	return b.String(), err
}

// Render is the comparison in format "json" (JSON) or any other (Text).
func (c Comparison) Render(format string) (string, error) {
	if format == "json" {
		return c.JSON()
	}
	return c.Text(), nil
}
