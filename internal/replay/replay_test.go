package replay

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/live"
)

// lanesTrace is n events over keys keys, dealt in turn, each of duration
// d rounds, all arriving at round 0: keys lanes of equal work, which keys
// consumers run side by side and one consumer runs one after another.
func lanesTrace(n, keys, d int) []konvoy.Event {
	events := make([]konvoy.Event, n)
	for i := range events {
		events[i] = konvoy.Event{Key: fmt.Sprintf("K%d", i%keys), Step: i/keys + 1, Duration: d}
	}
	return events
}

// replayed replays events under c, writing the -applied lines to applied
// unless nil, and returns the trace and the run, closed when the test
// ends.
func replayed(t *testing.T, ctx context.Context, events []konvoy.Event, c Config, applied io.Writer) (*Trace, *Run) {
	t.Helper()
	tr, err := TraceOf("t", events, c)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tr.Close() })
	run, err := Live(ctx, tr, c, applied, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { run.Close() })
	return tr, run
}

// TestSleepUntilNeverEarly wants SleepUntil to return no sooner than its
// deadline, whether the deadline is within the coarse margin or beyond it.
func TestSleepUntilNeverEarly(t *testing.T) {
	for _, d := range []time.Duration{0, 50 * time.Microsecond, 500 * time.Microsecond, 3 * time.Millisecond} {
		deadline := time.Now().Add(d)
		if err := SleepUntil(context.Background(), deadline); err != nil {
			t.Fatalf("SleepUntil(%v): %v", d, err)
		}
		if now := time.Now(); now.Before(deadline) {
			t.Errorf("SleepUntil(%v) returned %v early", d, deadline.Sub(now))
		}
	}
}

// TestSleepUntilEndsWithContext wants SleepUntil to return its context's
// error, long before a far deadline, once the context ends.
func TestSleepUntilEndsWithContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(5*time.Millisecond, cancel)
	if err := SleepUntil(ctx, time.Now().Add(time.Hour)); err != context.Canceled {
		t.Errorf("SleepUntil = %v; want context.Canceled", err)
	}
}

// TestLiveRunsLanesSideBySide replays four lanes of equal work on four
// consumers: the measured makespan is near the prediction from the
// handlers' actual times (within a factor of two, and 50ms), and the
// executor ran items of several lanes at once (MaxInFlight), where a
// dispatcher that ran one item at a time would not; the count, not the
// wall time, tells it, so that a loaded machine cannot fail the test.
func TestLiveRunsLanesSideBySide(t *testing.T) {
	events := lanesTrace(40, 4, 2)
	c := Config{Layout: konvoy.Convoy, Policy: konvoy.LaneAware, Consumers: 4, Unit: 500 * time.Microsecond}
	tr, run := replayed(t, context.Background(), events, c, nil)
	cmp, err := Compare(tr, c, run)
	if err != nil {
		t.Fatal(err)
	}
	if run.Submitted != len(events) || run.Stats.Done != len(events) || cmp.Of != len(events) {
		t.Fatalf("submitted %d, done %d, compared %d; want %d", run.Submitted, run.Stats.Done, cmp.Of, len(events))
	}
	if want := 10 * 2 * c.Unit; cmp.Predicted.Makespan != want {
		t.Errorf("predicted makespan %v; want %v (ten items of two rounds a lane)", cmp.Predicted.Makespan, want)
	}
	m, fa, work := cmp.Measured.Makespan, cmp.FromActual.Makespan, cmp.Measured.Work
	if m > 2*fa+50*time.Millisecond || 2*m < fa {
		t.Errorf("measured makespan %v; want within a factor of two of the prediction from actual times, %v", m, fa)
	}
	if run.Stats.MaxInFlight < 2 {
		t.Errorf("at most %d items ran at once; want several: four lanes run side by side", run.Stats.MaxInFlight)
	}
	if d := cmp.FromActual.Work - work; d < -time.Duration(len(events))*tick/2 || d > time.Duration(len(events))*tick/2 {
		t.Errorf("the prediction from actual times works %v; want the measured %v, to half a microsecond an event", cmp.FromActual.Work, work)
	}
	if min := time.Duration(len(events)) * 2 * c.Unit; work < min {
		t.Errorf("service times sum to %v; want at least the planned %v (no handler ends early)", work, min)
	}
}

// TestAppliedLines wants Live's -applied lines to hold every handled
// event once, with its trace index, key, step, a consumer in range,
// attempt 1, its arrival, the run's start plus its arrival round × the
// unit, a start no sooner, and a handler that lasted at least its
// duration; the lines' longest wait, start_ns − arrival_ns, the run's own
// (both on the monotonic clock); and, the lines of a lane taken in offset
// order (the file is written in batches, not in finish order), none
// starting before the one before it finished.
func TestAppliedLines(t *testing.T) {
	events := lanesTrace(600, 3, 1)
	events[4].Duration, events[9].Duration = 0, 3
	for i := range events {
		events[i].Arrival = i / 4 // four at a time: some wait
	}
	c := Config{Layout: konvoy.Convoy, Policy: konvoy.HeadOfLine, Consumers: 2, Unit: 20 * time.Microsecond}
	var buf bytes.Buffer
	_, run := replayed(t, context.Background(), events, c, &buf)
	start, longest := run.Start.UnixNano(), int64(0)
	lines := make([]*appliedLine, len(events))
	sc := bufio.NewScanner(&buf)
	for sc.Scan() {
		var l map[string]any
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatalf("line %q: %v", sc.Text(), err)
		}
		for _, f := range []string{"partition", "offset", "key", "step", "consumer", "attempt", "arrival_ns", "start_ns", "finish_ns"} {
			if _, ok := l[f]; !ok {
				t.Fatalf("line %q has no %q", sc.Text(), f)
			}
		}
		a := new(appliedLine)
		if err := json.Unmarshal(sc.Bytes(), a); err != nil {
			t.Fatal(err)
		}
		if a.Offset < 0 || a.Offset >= int64(len(events)) {
			t.Fatalf("line %q: offset out of range", sc.Text())
		}
		e := events[a.Offset]
		switch {
		case lines[a.Offset] != nil:
			t.Errorf("offset %d written twice", a.Offset)
		case a.Key != e.Key || a.Step != e.Step || a.Partition != -1 || a.Attempt != 1:
			t.Errorf("line %q; want key %s, step %d, partition -1, attempt 1", sc.Text(), e.Key, e.Step)
		case a.Consumer < 0 || a.Consumer >= c.Consumers:
			t.Errorf("line %q: consumer out of range", sc.Text())
		case a.FinishNS-a.StartNS < int64(e.Duration)*int64(c.Unit):
			t.Errorf("line %q: handler lasted less than %d rounds", sc.Text(), e.Duration)
		case a.ArrivalNS != start+int64(e.Arrival)*int64(c.Unit):
			t.Errorf("line %q: arrival_ns is %d after the run's start; want %d rounds of %v", sc.Text(), a.ArrivalNS-start, e.Arrival, c.Unit)
		case a.StartNS < a.ArrivalNS:
			t.Errorf("line %q: started before it arrived", sc.Text())
		}
		longest = max(longest, a.StartNS-a.ArrivalNS)
		lines[a.Offset] = a
	}
	if got := latencyUnits(time.Duration(longest)); got != run.Wait.Max {
		t.Errorf("the lines' longest wait is %d (%v); want the run's, %d", got, time.Duration(longest), run.Wait.Max)
	}
	lastFinish, lastOffset := map[string]int64{}, map[string]int{}
	for i, a := range lines {
		if a == nil {
			t.Errorf("event %d has no line", i)
			continue
		}
		if prev, ok := lastOffset[a.Key]; ok && a.StartNS < lastFinish[a.Key] {
			t.Errorf("offset %d starts before %d of its lane finished", i, prev)
		}
		lastFinish[a.Key], lastOffset[a.Key] = a.FinishNS, i
	}
}

// cancelOnceSubmitted calls cancel once progress counts an event
// submitted, or ctx ended; it polls every millisecond.
func cancelOnceSubmitted(ctx context.Context, cancel func(), progress *Progress) {
	for progress.Submitted() < 1 && ctx.Err() == nil {
		time.Sleep(time.Millisecond)
	}
	cancel()
}

// TestLiveStopsSubmitting ends the replay's context between the first
// event's arrival and the second's, a second later (once the first is
// submitted, however long the replay took to start): one event submitted
// and run, the rest not, and the comparison covering that one.
func TestLiveStopsSubmitting(t *testing.T) {
	events := []konvoy.Event{{Key: "a", Duration: 1}, {Key: "b", Duration: 1, Arrival: 1000}, {Key: "c", Duration: 1, Arrival: 2000}}
	c := Config{Layout: konvoy.Convoy, Policy: konvoy.LaneAware, Consumers: 1, Unit: time.Millisecond}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	tr, err := TraceOf("t", events, c)
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	progress := new(Progress)
	go cancelOnceSubmitted(ctx, cancel, progress)
	run, err := Live(ctx, tr, c, nil, progress)
	if err != nil {
		t.Fatal(err)
	}
	defer run.Close()
	if run.Submitted != 1 || !run.Interrupted() || run.Stats.Done != 1 || run.Total != 3 {
		t.Fatalf("submitted %d of %d, done %d; want the first event alone", run.Submitted, run.Total, run.Stats.Done)
	}
	cmp, err := Compare(tr, c, run)
	if err != nil {
		t.Fatal(err)
	}
	if cmp.Of != 1 || cmp.Predicted.Events != 1 || cmp.Predicted.Makespan != c.Unit || !strings.Contains(cmp.Text(), "1 of 3 events submitted") {
		t.Errorf("comparison of %d events, predicted %d in %v; text:\n%s", cmp.Of, cmp.Predicted.Events, cmp.Predicted.Makespan, cmp.Text())
	}
	if s, err := cmp.JSON(); err != nil || !strings.Contains(s, `"stopped_early": true`) || !strings.Contains(s, `"trace_events": 3`) {
		t.Errorf("JSON %v:\n%s\nwants stopped_early true of 3 events", err, s)
	}
}

// TestPredictFromExactTimes wants the prediction from actual times to be
// the planned one when every handler took exactly its planned time: the
// rescaling to microseconds changes nothing else.
func TestPredictFromExactTimes(t *testing.T) {
	events := []konvoy.Event{{Key: "a", Duration: 2}, {Key: "a", Duration: 1, Step: 1}, {Key: "b", Duration: 1, Arrival: 1}, {Key: "c", Duration: 3, Arrival: 1}}
	c := Config{Layout: konvoy.Convoy, Policy: konvoy.HeadOfLine, Consumers: 2, Unit: 250 * time.Microsecond}
	actual := make([]time.Duration, len(events))
	for i, e := range events {
		actual[i] = time.Duration(e.Duration) * c.Unit
	}
	planned, err := Predict(events, c, nil)
	if err != nil {
		t.Fatal(err)
	}
	exact, err := Predict(events, c, actual)
	if err != nil {
		t.Fatal(err)
	}
	if planned != exact {
		t.Errorf("from exact times %+v; want the planned %+v", exact, planned)
	}
	// Under head-of-line the second consumer takes a's second item at 0
	// and holds it, blocked, until the first finishes at round 2; b and
	// c then wait for consumers: b runs at 2, c at 3 and ends at 6.
	if planned.Blocked != 2*c.Unit || planned.Makespan != 6*c.Unit {
		t.Errorf("blocked %v, makespan %v; want %v and %v", planned.Blocked, planned.Makespan, 2*c.Unit, 6*c.Unit)
	}
	// An actual time for each event, no fewer: an error, not a panic.
	if _, err := Predict(events, c, actual[:2]); err == nil || !strings.Contains(err.Error(), "2 actual times for 4 events") {
		t.Errorf("Predict with 2 actual times for 4 events: %v; want an error", err)
	}
}

// TestComparisonJSON wants the JSON comparison's makespans in seconds and
// a record per side, named as the trace report's.
func TestComparisonJSON(t *testing.T) {
	c := Config{Layout: konvoy.Convoy, Policy: konvoy.LaneAware, Consumers: 2, Unit: time.Millisecond}
	cmp := Comparison{Name: "<stdin>", Config: c, Of: 3, Total: 3,
		Predicted:  Side{Events: 3, Makespan: 4 * time.Millisecond, Work: 6 * time.Millisecond, WaitP99: time.Millisecond},
		FromActual: Side{Events: 3, Makespan: 5 * time.Millisecond}, Measured: Side{Events: 3, Makespan: 4500 * time.Microsecond, Blocked: 900 * time.Microsecond}}
	s, err := cmp.JSON()
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Predicted, Measured float64        `json:"-"`
		PS                  float64        `json:"predicted_seconds"`
		MS                  float64        `json:"measured_seconds"`
		P                   map[string]any `json:"predicted"`
		M                   map[string]any `json:"measured"`
		F                   map[string]any `json:"from_actual"`
	}
	if err := json.Unmarshal([]byte(s), &got); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(s, `"trace": "<stdin>",`) || !strings.HasSuffix(s, "}\n") {
		t.Errorf("JSON names the trace escaped, or does not end its line:\n%s", s)
	}
	if got.PS != 0.004 || got.MS != 0.0045 || got.P["rounds"] != 4.0 || got.P["wait_p99"] != 1.0 || got.P["parallelism"] != 1.5 ||
		got.M["rounds"] != 4.5 || got.M["blocked_share"] != 0.1 || got.F["layout"] != "convoy" || got.M["policy"] != "lane-aware" || got.P["throughput"] != 750.0 {
		t.Errorf("JSON:\n%s", s)
	}
}

// TestComparisonJSONSecondsReadAsTheirDecimal wants a makespan whose
// seconds time.Duration.Seconds writes a unit in the last place off,
// 1.9550817710000001 (found by a review), written as its decimal.
func TestComparisonJSONSecondsReadAsTheirDecimal(t *testing.T) {
	c := Config{Layout: konvoy.Convoy, Policy: konvoy.LaneAware, Consumers: 2, Unit: time.Millisecond}
	cmp := Comparison{Name: "t", Config: c, Of: 1, Total: 1, Predicted: Side{Events: 1, Makespan: time.Millisecond},
		FromActual: Side{Events: 1, Makespan: time.Millisecond}, Measured: Side{Events: 1, Makespan: 1955081771}}
	if s, err := cmp.JSON(); err != nil || !strings.Contains(s, `"measured_seconds": 1.955081771,`) {
		t.Errorf("a makespan of 1955081771 ns: %v; want measured_seconds 1.955081771:\n%s", err, s)
	}
}

// TestLiveRejectsBadConfig wants an error, not a trace or a run, for no
// events, a unit under a microsecond, no consumers and a negative MaxHeld,
// and, for an event out of arrival order, an error that says so.
func TestLiveRejectsBadConfig(t *testing.T) {
	ok := Config{Layout: konvoy.Convoy, Consumers: 1, Unit: time.Millisecond}
	bad := map[string]Config{"unit": {Layout: konvoy.Convoy, Consumers: 1, Unit: time.Nanosecond}, "consumers": {Layout: konvoy.Convoy, Unit: time.Millisecond},
		"held": {Layout: konvoy.Convoy, Consumers: 1, Unit: time.Millisecond, MaxHeld: -1}}
	if _, err := TraceOf("t", nil, ok); err == nil || !strings.Contains(err.Error(), "t: the trace holds no events") {
		t.Errorf("no events: %v", err)
	}
	backwards := []konvoy.Event{{Key: "a", Duration: 1, Arrival: 2}, {Key: "b", Duration: 1, Arrival: 1}}
	if _, err := TraceOf("t", backwards, ok); !errors.Is(err, konvoy.ErrOrder) {
		t.Errorf("arrivals backwards: %v; want konvoy.ErrOrder", err)
	}
	tr, err := TraceOf("t", lanesTrace(2, 1, 1), ok)
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	for name, c := range bad {
		if _, err := TraceOf("t", lanesTrace(2, 1, 1), c); err == nil || !strings.Contains(err.Error(), "replay:") {
			t.Errorf("%s: TraceOf's error %v", name, err)
		}
		if _, err := Live(context.Background(), tr, c, nil, nil); err == nil || !strings.Contains(err.Error(), "replay:") {
			t.Errorf("%s: Live's error %v", name, err)
		}
	}
}

// TestClockNeverEarly has sixteen goroutines wait on one Clock for
// deadlines from 0 to 3ms, and wants none woken before its deadline, and
// every one woken.
func TestClockNeverEarly(t *testing.T) {
	c := NewClock()
	defer c.Close()
	errs := make(chan error, 16)
	for w := range 16 {
		go func() {
			for i := range 10 {
				deadline := time.Now().Add(time.Duration((w*10+i)%31) * 100 * time.Microsecond)
				if err := c.SleepUntil(context.Background(), deadline); err != nil {
					errs <- err
					return
				}
				if now := time.Now(); now.Before(deadline) {
					errs <- fmt.Errorf("woken %v early", deadline.Sub(now))
					return
				}
			}
			errs <- nil
		}()
	}
	for range 16 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}

// TestClockEndsWithContext wants a Clock's SleepUntil to return its
// context's error once the context ends, long before a far deadline, and
// the clock to wake a later, nearer deadline meanwhile.
func TestClockEndsWithContext(t *testing.T) {
	c := NewClock()
	defer c.Close()
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(5*time.Millisecond, cancel)
	far := make(chan error, 1)
	go func() { far <- c.SleepUntil(ctx, time.Now().Add(time.Hour)) }()
	if err := c.SleepUntil(context.Background(), time.Now().Add(time.Millisecond)); err != nil {
		t.Errorf("near deadline: %v", err)
	}
	if err := <-far; err != context.Canceled {
		t.Errorf("far deadline: %v; want context.Canceled", err)
	}
}

// TestTimesCache writes service times out of order, within the window,
// behind it and past it, again over a time written before, and to the
// first and last slots of a window, and wants each read back in trace order
// as written, and as not handled an event never written, before and after
// the last written.
func TestTimesCache(t *testing.T) {
	f, err := newTempFile()
	if err != nil {
		t.Fatal(err)
	}
	run := &Run{Total: 3*timesChunk + 5, actual: f}
	defer run.Close()
	want := map[int]time.Duration{5: 1, 3*timesChunk - 1: 2, 3: 3, timesChunk: 4, timesChunk - 1: 5, 2*timesChunk + 7: 6, 0: 7}
	c := &timesCache{f: f}
	for _, i := range []int{5, 3*timesChunk - 1, 3, timesChunk, timesChunk - 1, 2*timesChunk + 7, 0} {
		if err := c.put(i, want[i]); err != nil {
			t.Fatal(err)
		}
	}
	want[3] = 8
	if err := c.put(3, 8); err != nil {
		t.Fatal(err)
	}
	if err := c.flush(); err != nil {
		t.Fatal(err)
	}
	next := run.actualTimes()
	for i := range run.Total {
		got, handled, err := next()
		_, written := want[i]
		if err != nil || handled != written || handled && got != want[i] {
			t.Fatalf("event %d: %v, handled %v, %v; want %v, handled %v", i, got, handled, err, want[i], written)
		}
	}
}

// TestLiveLateCountsFromArrival holds one event at a time, on one
// consumer, of three that all arrive at round 0 and take two rounds each:
// the second and third are submitted at least two and four rounds late,
// once the one before them finished, and their waits are counted from
// their arrival, the last's at least four rounds, not from their late
// submission. (The first may be late too on a busy machine: the bounds
// are what the executor's room alone makes late.)
func TestLiveLateCountsFromArrival(t *testing.T) {
	events := lanesTrace(3, 3, 2)
	c := Config{Layout: konvoy.Convoy, Policy: konvoy.HeadOfLine, Consumers: 1, Unit: time.Millisecond, MaxHeld: 1}
	tr, run := replayed(t, context.Background(), events, c, nil)
	if run.Late < 2 || run.Late > 3 || run.LateBy < 6*c.Unit {
		t.Errorf("%d late by %v; want 2 or 3, by at least %v", run.Late, run.LateBy, 6*c.Unit)
	}
	if w := time.Duration(run.Wait.Max) * latencyUnit; w < 4*c.Unit {
		t.Errorf("longest wait %v; want at least %v, from arrival", w, 4*c.Unit)
	}
	cmp, err := Compare(tr, c, run)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(cmp.Text(), fmt.Sprintf("%d events submitted more than a round late", run.Late)) {
		t.Errorf("text:\n%s\nwants the late events named", cmp.Text())
	}
}

// gapNeverFills is a resequencer trace whose key a misses step 2: the
// model never applies a's step 3.
var gapNeverFills = []konvoy.Event{{Key: "a", Step: 1, Duration: 1}, {Key: "a", Step: 3, Duration: 1}, {Key: "b", Step: 1, Duration: 1, Arrival: 1}}

// A gap that never fills is a measure, not a failure: the replay reports
// the step held as never applied, as the model does.
func TestLiveCountsAGapThatNeverFills(t *testing.T) {
	c := Config{Layout: konvoy.Resequencer, Policy: konvoy.LaneAware, Consumers: 2, Unit: time.Millisecond}
	tr, run := replayed(t, context.Background(), gapNeverFills, c, nil)
	cmp, err := Compare(tr, c, run)
	if err != nil {
		t.Fatal(err)
	}
	if cmp.Measured.NeverApplied != 1 || cmp.Predicted.NeverApplied != 1 {
		t.Errorf("never applied: measured %d, predicted %d; want 1 and 1", cmp.Measured.NeverApplied, cmp.Predicted.NeverApplied)
	}
}

// A replay whose executor fills with events held for gaps, which nothing
// can release (no timeout, no capacity below -max-held), ends at once with
// an error wrapping live.ErrGapsFull that names the event it could not
// submit, rather than wait for room until a signal: here the one event it
// may hold waits for a gap.
func TestLiveEndsWhenGapsFillTheExecutor(t *testing.T) {
	c := Config{Layout: konvoy.Resequencer, Policy: konvoy.LaneAware, Consumers: 2, Unit: time.Millisecond, MaxHeld: 1}
	tr, err := TraceOf("t", gapNeverFills, c)
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	run, err := Live(ctx, tr, c, nil, nil)
	if run != nil {
		run.Close()
	}
	if !errors.Is(err, live.ErrGapsFull) || !strings.Contains(fmt.Sprint(err), "replay: t: event 2 (counted from 0, as -applied's offsets): live: every item held") || ctx.Err() != nil {
		t.Fatalf("Live: %v; want at once an error wrapping live.ErrGapsFull naming event 2", err)
	}
}

// The measured side counts every event taken, as the model's Events does:
// a step the version stamp skips too, so that the throughputs compare.
func TestMeasuredCountsSkippedEvents(t *testing.T) {
	events := []konvoy.Event{{Key: "a", Step: 2, Duration: 1}, {Key: "a", Step: 1, Duration: 1}}
	c := Config{Layout: konvoy.VersionStamp, Policy: konvoy.LaneAware, Consumers: 1, Unit: time.Millisecond}
	tr, run := replayed(t, context.Background(), events, c, nil)
	cmp, err := Compare(tr, c, run)
	if err != nil {
		t.Fatal(err)
	}
	if cmp.Measured.Skipped != 1 || cmp.Measured.Events != 2 || cmp.Predicted.Events != 2 {
		t.Errorf("measured %d events, %d skipped; predicted %d; want 2, 1 and 2", cmp.Measured.Events, cmp.Measured.Skipped, cmp.Predicted.Events)
	}
}

// A stale step runs for its duration, as the model runs it, and only its
// write is skipped: the live run's work is at least the predicted work,
// its 20 rounds included, and the step is counted skipped. The executor's
// default store of versions skipped it unrun, and the replay put the whole
// gap, -82.6%, on dispatch (found by a review).
func TestAStaleStepRunsAsTheModelRunsIt(t *testing.T) {
	events := []konvoy.Event{{Key: "A", Step: 2, Duration: 1}, {Key: "A", Step: 1, Duration: 20, Arrival: 2}, {Key: "B", Step: 1, Duration: 1, Arrival: 3}}
	c := Config{Layout: konvoy.VersionStamp, Policy: konvoy.HeadOfLine, Consumers: 1, Unit: time.Millisecond}
	tr, run := replayed(t, context.Background(), events, c, nil)
	cmp, err := Compare(tr, c, run)
	if err != nil {
		t.Fatal(err)
	}
	if cmp.Measured.Work < cmp.Predicted.Work || cmp.Predicted.Work != 22*time.Millisecond || cmp.Measured.Skipped != 1 || cmp.Predicted.Skipped != 1 {
		t.Errorf("measured work %v, %d skipped; predicted %v, %d skipped; want at least the predicted 22ms, and 1 skipped on both sides",
			cmp.Measured.Work, cmp.Measured.Skipped, cmp.Predicted.Work, cmp.Predicted.Skipped)
	}
}

// The text comparison writes a throughput with one decimal, and
// "unbounded" for events a prediction takes in no time, never 0.0
// events/s for them; a measured run with no makespan ran no handler, and
// its throughput is "n/a", not unbounded. The JSON's throughput is null
// for both, where it said 0 events/s (found by a review).
func TestThroughputOfNoTimeIsUnbounded(t *testing.T) {
	for _, tt := range []struct {
		s        Side
		measured bool
		want     string
		json     string
	}{
		{Side{Events: 3, Makespan: 0}, false, "unbounded", "null"},
		{Side{Events: 0, Makespan: 0}, false, "0.0", ""}, // no record: nothing submitted
		{Side{Events: 3, Makespan: 2 * time.Second}, false, "1.5", "1.5"},
		{Side{Events: 3, Makespan: 0}, true, "n/a", "null"},
		{Side{Events: 0, Makespan: 0}, true, "n/a", ""},
		{Side{Events: 3, Makespan: 2 * time.Second}, true, "1.5", "1.5"},
	} {
		if got := throughput(tt.s, tt.measured); got != tt.want {
			t.Errorf("throughput(%+v, measured %v) = %q; want %q", tt.s, tt.measured, got, tt.want)
		}
		c := Comparison{Name: "t", Config: Config{Layout: konvoy.Convoy, Consumers: 1, Unit: time.Millisecond}, Of: tt.s.Events, Total: tt.s.Events}
		if tt.measured {
			c.Measured = tt.s
		} else {
			c.Predicted = tt.s
		}
		js, err := c.JSON()
		if err != nil {
			t.Fatal(err)
		}
		var out struct{ Predicted, Measured map[string]json.RawMessage }
		if err := json.Unmarshal([]byte(js), &out); err != nil {
			t.Fatal(err)
		}
		side := out.Predicted
		if tt.measured {
			side = out.Measured
		}
		if tt.json == "" && side != nil {
			t.Errorf("%+v, measured %v: a record %s; want null, no event submitted", tt.s, tt.measured, js)
		}
		if got := string(side["throughput"]); tt.json != "" && got != tt.json {
			t.Errorf("%+v, measured %v: JSON throughput %s; want %s", tt.s, tt.measured, got, tt.json)
		}
	}
}

// A trace whose times would pass what a time.Duration holds is refused at
// the event that passes it, its rounds written in whole digits.
func TestTraceLongerThanADurationIsRefusedInDigits(t *testing.T) {
	_, err := TraceOf("t", []konvoy.Event{{Key: "A", Step: 1, Duration: 3_000_000}}, Config{Layout: konvoy.Convoy, Consumers: 1, Unit: time.Hour})
	if err == nil || !strings.Contains(err.Error(), "3000000 rounds of 1h0m0s each") {
		t.Errorf("TraceOf: %v; want an error naming 3000000 rounds of 1h0m0s", err)
	}
}

// The text comparison shows the events the resequencer set apart, as the
// JSON does, in a row a count that a side has, with a line on how the live
// resequencer differs from the model's; a measured run in which no handler
// ran says so, and has no throughput. (Found by a review: the text showed
// none of the counts, and an empty measured run as unbounded throughput.)
func TestTextShowsTheEventsTheResequencerSetApart(t *testing.T) {
	cfg := Config{Layout: konvoy.Resequencer, Policy: konvoy.HeadOfLine, Consumers: 2, Unit: time.Millisecond}
	side := Side{Events: 2, Makespan: 3 * time.Millisecond, Work: 4 * time.Millisecond, Buffered: 2, NeverApplied: 2}
	c := Comparison{Name: "ng.csv", Config: cfg, Of: 2, Total: 2, Predicted: side, FromActual: side,
		Measured: Side{Events: 2, Buffered: 2, NeverApplied: 2}}
	text := c.Text()
	for _, want := range []string{
		"held for a gap          2                  2         2",
		"never applied          2                  2         2",
		"the live resequencer holds an event before its handler runs",
		"no handler ran in the measured run",
		"666.7              666.7       n/a",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("Text lacks %q:\n%s", want, text)
		}
	}
	for _, absent := range []string{"duplicates discarded", "skipped as stale", "unbounded"} {
		if strings.Contains(text, absent) {
			t.Errorf("Text has %q, a count no side has:\n%s", absent, text)
		}
	}
	c.Measured = side
	c.Predicted.Buffered, c.FromActual.Buffered, c.Measured.Buffered = 0, 0, 0
	c.Predicted.NeverApplied, c.FromActual.NeverApplied, c.Measured.NeverApplied = 0, 0, 0
	if text := c.Text(); strings.Contains(text, "resequencer holds") || strings.Contains(text, "no handler ran") {
		t.Errorf("Text of a run with nothing set apart, whose handlers ran:\n%s", text)
	}
}

// Predict refuses events whose planned times would pass what a
// time.Duration holds, as TraceOf does, naming the event, with the
// planned times and with actual ones: it gave a negative makespan, and
// took the arrivals into ticks with a product that wrapped (found by a
// review).
func TestPredictRefusesTimesPastADuration(t *testing.T) {
	c := Config{Layout: konvoy.Convoy, Policy: konvoy.HeadOfLine, Consumers: 1, Unit: time.Hour}
	events := []konvoy.Event{{Key: "a", Duration: 1, Arrival: 2}, {Key: "b", Duration: 1, Arrival: 1 << 30}}
	if _, err := TraceOf("t", events, c); err == nil || !strings.Contains(err.Error(), "take longer than a replay can") {
		t.Fatalf("TraceOf: %v; want the trace refused", err)
	}
	for _, actual := range [][]time.Duration{nil, {time.Hour, time.Hour}} {
		if actual != nil && strconv.IntSize < 64 {
			continue // an hour of 1µs rounds passes a 32-bit int: event 0 is refused for it first
		}
		s, err := Predict(events, c, actual)
		if err == nil || !strings.Contains(err.Error(), "1073741826 rounds of 1h0m0s each, to this event, take longer than a replay can: want at most 1281023h53m38.427387903s in all, half the longest time.Duration: event 1 (key \"b\")") {
			t.Errorf("Predict(actual %v): %+v, %v; want event 1 refused", actual, s, err)
		}
	}
}

// The text has the p95 rows the JSON has, and any row of the
// resequencer's brings the note on how the live resequencer differs from
// the model's: old steps rejected alone, say (found by a review).
func TestTextHasP95AndTheResequencersNoteForAnyOfItsRows(t *testing.T) {
	cfg := Config{Layout: konvoy.Resequencer, Policy: konvoy.LaneAware, Consumers: 2, Unit: time.Millisecond}
	s := Side{Events: 2, Makespan: 3 * time.Millisecond, Work: 4 * time.Millisecond, WaitP95: 7 * time.Millisecond, ResponseP95: 9 * time.Millisecond, RejectedOld: 1}
	text := Comparison{Name: "t.csv", Config: cfg, Of: 2, Total: 2, Predicted: s, FromActual: s, Measured: s}.Text()
	flat := strings.Join(strings.Fields(text), " ")
	for _, want := range []string{"wait p95 7.000 ms 7.000 ms 7.000 ms", "response p95 9.000 ms", "old steps rejected 1 1 1", "the live resequencer holds an event before its handler runs"} {
		if !strings.Contains(flat, want) {
			t.Errorf("the text lacks %q:\n%s", want, text)
		}
	}
}

// A measured latency counts in latencyUnit, nanoseconds, or microseconds
// where int has 32 bits, and a latency below 0 as 0 and past an int as
// math.MaxInt: where int has 32 bits a wait past 2.1 s of nanoseconds
// wrapped below 0, and the latency counter panicked (GOARCH=386 go test
// ./cmd/konvoy found it).
func TestAMeasuredLatencyFitsAnInt(t *testing.T) {
	for _, d := range []time.Duration{-1, 0, time.Microsecond, 3 * time.Second, time.Hour, math.MaxInt64} {
		want := max(d, 0) / latencyUnit
		if want > time.Duration(math.MaxInt) {
			want = time.Duration(math.MaxInt)
		}
		if got := latencyUnits(d); got < 0 || time.Duration(got) != want {
			t.Errorf("latencyUnits(%v) = %d; want %d", d, got, want)
		}
	}
	if strconv.IntSize < 64 && latencyUnits(time.Minute) != 60_000_000 {
		t.Errorf("a minute where int has 32 bits: %d units; want 60000000 µs", latencyUnits(time.Minute))
	}
}
