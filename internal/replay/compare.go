package replay

import (
	"encoding/json"
	"fmt"
	"math"
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
	Events   int           // the events handled, or to be
	Makespan time.Duration // from round 0 to the last finish
	Work     time.Duration // the service times, summed
	// Wait and Response are the model's percentiles (konvoy.Latency) in
	// wall time.
	WaitP50, WaitP99, WaitMax, ResponseP50, ResponseP99, ResponseMax time.Duration
	WaitMean, ResponseMean                                           time.Duration
	// Blocked is the time consumers held an item whose lane was busy,
	// summed over the consumers (head-of-line blocking).
	Blocked                                     time.Duration
	Skipped, Duplicates, Buffered, NeverApplied int
}

// Throughput is s's events per second of makespan, 0 for no makespan.
func (s Side) Throughput() float64 {
	if s.Makespan <= 0 {
		return 0
	}
	return float64(s.Events) / s.Makespan.Seconds()
}

// BlockedShare is the part of the consumers' time, consumers × Makespan,
// they spent blocked.
func (s Side) BlockedShare(consumers int) float64 {
	if s.Makespan <= 0 {
		return 0
	}
	return float64(s.Blocked) / (float64(consumers) * float64(s.Makespan))
}

// Predict runs the simulator on events under c and returns its measures in
// wall time. With actual nil, each event takes its Duration in rounds of
// c.Unit, as the trace plans. With actual, event i takes actual[i], the
// service time its handler took, simulated in rounds of a microsecond, and
// arrivals are scaled to match: the prediction for the times the handlers
// really took, so that a gap between the planned prediction and the
// measured run splits into timing (planned to actual) and dispatch (actual
// to measured). The simulator's errors are konvoy.EventErrors.
func Predict(events []konvoy.Event, c Config, actual []time.Duration) (Side, konvoy.Result, error) {
	if err := c.check(events); err != nil {
		return Side{}, konvoy.Result{}, err
	}
	round := c.Unit
	if actual != nil {
		round = tick
		scaled := make([]konvoy.Event, len(events))
		for i, e := range events {
			e.Arrival = int(int64(e.Arrival) * int64(c.Unit) / int64(tick))
			e.Duration = int((actual[i] + tick/2) / tick)
			scaled[i] = e
		}
		events = scaled
	}
	opts := []konvoy.Option{konvoy.WithPolicy(c.Policy), konvoy.WithSchedule(len(events))}
	if c.Assignor != 0 {
		opts = append(opts, konvoy.WithAssignor(c.Assignor))
	}
	r, err := konvoy.Simulate(events, c.Layout, c.Consumers, opts...)
	if err != nil {
		return Side{}, r, err
	}
	d := func(rounds float64) time.Duration { return time.Duration(math.Round(rounds * float64(round))) }
	s := Side{Events: r.Events, Makespan: d(float64(r.Rounds)), Work: d(float64(r.Work)),
		WaitP50: d(float64(r.Wait.P50)), WaitP99: d(float64(r.Wait.P99)), WaitMax: d(float64(r.Wait.Max)), WaitMean: d(r.Wait.Mean),
		ResponseP50: d(float64(r.Response.P50)), ResponseP99: d(float64(r.Response.P99)), ResponseMax: d(float64(r.Response.Max)),
		ResponseMean: d(r.Response.Mean), Skipped: r.Skipped, Duplicates: r.Duplicates, Buffered: r.Buffered, NeverApplied: r.NeverApplied}
	for _, slot := range r.Schedule {
		s.Blocked += d(float64(slot.Start - slot.Taken))
	}
	return s, r, nil
}

// Measured returns the measures of run, a replay's measured run.
func Measured(run *Run) Side {
	st := run.Stats
	s := Side{Events: st.Done, Makespan: run.Makespan, Blocked: st.Blocked,
		WaitP50: time.Duration(st.Wait.P50), WaitP99: time.Duration(st.Wait.P99), WaitMax: time.Duration(st.Wait.Max),
		WaitMean:    time.Duration(math.Round(st.Wait.Mean)),
		ResponseP50: time.Duration(st.Response.P50), ResponseP99: time.Duration(st.Response.P99), ResponseMax: time.Duration(st.Response.Max),
		ResponseMean: time.Duration(math.Round(st.Response.Mean)),
		Skipped:      st.Skipped, Duplicates: st.Duplicates, Buffered: st.Buffered, NeverApplied: st.NeverApplied}
	for _, h := range run.Handled {
		if !h.Finish.IsZero() {
			s.Work += h.Finish.Sub(h.Start)
		}
	}
	return s
}

// Actual returns the service times run's handlers took, by event index: 0
// for an event not handled.
func Actual(run *Run) []time.Duration {
	out := make([]time.Duration, len(run.Handled))
	for i, h := range run.Handled {
		if !h.Finish.IsZero() {
			out[i] = h.Finish.Sub(h.Start)
		}
	}
	return out
}

// Comparison is a replay beside its predictions.
type Comparison struct {
	Name   string // the trace
	Config Config
	// Of and Total: the comparison covers the first Of of Total events (a
	// replay stopped early covers fewer).
	Of, Total int
	// Predicted is the simulator's prediction from the planned durations,
	// FromActual its prediction from the handlers' actual service times,
	// Measured the live run's measures.
	Predicted, FromActual, Measured Side
}

// Compare replays nothing itself: it predicts events[:run.Submitted] under
// c, from the planned and from the actual service times, and sets them
// beside run's measures.
func Compare(name string, events []konvoy.Event, c Config, run *Run) (Comparison, error) {
	cmp := Comparison{Name: name, Config: c, Of: run.Submitted, Total: len(events), Measured: Measured(run)}
	if run.Submitted == 0 {
		return cmp, nil
	}
	ran := events[:run.Submitted]
	var err error
	if cmp.Predicted, _, err = Predict(ran, c, nil); err != nil {
		return cmp, err
	}
	cmp.FromActual, _, err = Predict(ran, c, Actual(run)[:run.Submitted])
	return cmp, err
}

// Text is the comparison as a table, one row a measure, one column a side,
// and a line on how the gap between prediction and measure splits.
func (c Comparison) Text() string {
	var b strings.Builder
	cfg := c.Config
	fmt.Fprintf(&b, "replay of %s: %s, layout %s, policy %s, %s, one round %v\n", c.Name, report.Plural(c.Of, "event", "events"),
		cfg.Layout, cfg.Policy, report.Plural(cfg.Consumers, "consumer", "consumers"), cfg.Unit)
	if c.Of < c.Total {
		fmt.Fprintf(&b, "stopped early: %d of %d events submitted; every column covers those %d\n", c.Of, c.Total, c.Of)
	}
	w := tabwriter.NewWriter(&b, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(w, "measure\tpredicted\tfrom actual times\tmeasured\t")
	dur := func(name string, f func(Side) time.Duration) {
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\t\n", name, ms(f(c.Predicted)), ms(f(c.FromActual)), ms(f(c.Measured)))
	}
	dur("makespan", func(s Side) time.Duration { return s.Makespan })
	fmt.Fprintf(w, "throughput (events/s)\t%.1f\t%.1f\t%.1f\t\n", c.Predicted.Throughput(), c.FromActual.Throughput(), c.Measured.Throughput())
	dur("wait p50", func(s Side) time.Duration { return s.WaitP50 })
	dur("wait p99", func(s Side) time.Duration { return s.WaitP99 })
	dur("wait max", func(s Side) time.Duration { return s.WaitMax })
	dur("response p50", func(s Side) time.Duration { return s.ResponseP50 })
	dur("response p99", func(s Side) time.Duration { return s.ResponseP99 })
	dur("response max", func(s Side) time.Duration { return s.ResponseMax })
	n := cfg.Consumers
	fmt.Fprintf(w, "blocked share\t%.1f%%\t%.1f%%\t%.1f%%\t\n", 100*c.Predicted.BlockedShare(n), 100*c.FromActual.BlockedShare(n), 100*c.Measured.BlockedShare(n))
	dur("service time, total", func(s Side) time.Duration { return s.Work })
	w.Flush()
	fmt.Fprintf(&b, "measured makespan %s the prediction: timing (actual service times) %s, dispatch (measured against the prediction from actual times) %s\n",
		pct(c.Measured.Makespan, c.Predicted.Makespan), pct(c.FromActual.Makespan, c.Predicted.Makespan), pct(c.Measured.Makespan, c.FromActual.Makespan))
	return b.String()
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
	WaitP50      float64 `json:"wait_p50"`
	WaitP99      float64 `json:"wait_p99"`
	WaitMax      float64 `json:"wait_max"`
	WaitMean     float64 `json:"wait_mean"`
	ResponseP50  float64 `json:"response_p50"`
	ResponseP99  float64 `json:"response_p99"`
	ResponseMax  float64 `json:"response_max"`
	ResponseMean float64 `json:"response_mean"`
	Throughput   float64 `json:"throughput"`    // events per second
	BlockedShare float64 `json:"blocked_share"` // of consumers × makespan
}

// record is s as a Record under c.
func (c Comparison) record(s Side) Record {
	r := func(d time.Duration) float64 { return round3(float64(d) / float64(c.Config.Unit)) }
	rec := Record{Layout: c.Config.Layout.String(), Policy: c.Config.Policy.String(), Consumers: c.Config.Consumers, Events: s.Events,
		Work: r(s.Work), Rounds: r(s.Makespan), Skipped: s.Skipped, Duplicates: s.Duplicates, Buffered: s.Buffered, NeverApplied: s.NeverApplied,
		WaitP50: r(s.WaitP50), WaitP99: r(s.WaitP99), WaitMax: r(s.WaitMax), WaitMean: r(s.WaitMean),
		ResponseP50: r(s.ResponseP50), ResponseP99: r(s.ResponseP99), ResponseMax: r(s.ResponseMax), ResponseMean: r(s.ResponseMean),
		Throughput: round3(s.Throughput()), BlockedShare: round3(s.BlockedShare(c.Config.Consumers))}
	if s.Makespan > 0 {
		rec.Parallelism = round3(float64(s.Work) / float64(s.Makespan))
	}
	return rec
}

// round3 rounds x to three decimals.
func round3(x float64) float64 { return math.Round(x*1000) / 1000 }

// JSON is the comparison as one JSON object: the makespans in seconds
// (predicted_seconds, from_actual_seconds, measured_seconds), the planned
// and actual service times summed in seconds, the events covered, and a
// Record per side (predicted, from_actual, measured).
func (c Comparison) JSON() (string, error) {
	out := struct {
		Trace             string  `json:"trace"`
		Events            int     `json:"events"`
		TraceEvents       int     `json:"trace_events"`
		UnitSeconds       float64 `json:"unit_seconds"`
		PredictedSeconds  float64 `json:"predicted_seconds"`
		FromActualSeconds float64 `json:"from_actual_seconds"`
		MeasuredSeconds   float64 `json:"measured_seconds"`
		PlannedService    float64 `json:"planned_service_seconds"`
		ActualService     float64 `json:"actual_service_seconds"`
		Predicted         Record  `json:"predicted"`
		FromActual        Record  `json:"from_actual"`
		Measured          Record  `json:"measured"`
	}{c.Name, c.Of, c.Total, c.Config.Unit.Seconds(), c.Predicted.Makespan.Seconds(), c.FromActual.Makespan.Seconds(), c.Measured.Makespan.Seconds(),
		c.Predicted.Work.Seconds(), c.Measured.Work.Seconds(), c.record(c.Predicted), c.record(c.FromActual), c.record(c.Measured)}
	b, err := json.MarshalIndent(out, "", "  ")
	return string(b) + "\n", err
}

// Render is the comparison in format "json" (JSON) or any other (Text).
func (c Comparison) Render(format string) (string, error) {
	if format == "json" {
		return c.JSON()
	}
	return c.Text(), nil
}
