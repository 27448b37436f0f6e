package report

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/lesson"
)

func TestTableAlignsColumns(t *testing.T) {
	tb := &table{leftCols: 2, leftLast: true}
	tb.span(2, "counts")
	tb.add("layout", "policy", "n", "note")
	tb.add("free", "static", "12", "x")
	want := "                counts\n" +
		"layout  policy   n  note\n" +
		"free    static  12  x\n"
	if got := tb.String(); got != want {
		t.Errorf("table:\n%s\nwant:\n%s", got, want)
	}
}

func TestWrapBreaksBetweenPieces(t *testing.T) {
	got := wrap([]string{"aaa", "bbb", "ccc"}, 7)
	if want := "aaa bbb\n  ccc\n"; got != want {
		t.Errorf("wrap = %q; want %q", got, want)
	}
}

func TestRoundedNote(t *testing.T) {
	for _, tt := range []struct {
		n    int
		unit time.Duration
		want string
	}{
		{1, 0, "1 duration or arrival rounded to whole rounds"},
		{3, time.Millisecond, "3 durations and arrivals rounded to whole rounds of 1ms"},
	} {
		if got := RoundedNote(tt.n, tt.unit); got != tt.want {
			t.Errorf("RoundedNote(%d, %v) = %q; want %q", tt.n, tt.unit, got, tt.want)
		}
	}
}

// A trace's reports read the runs of its Results by layout, policy and
// consumers.
func TestTraceReports(t *testing.T) {
	events := lesson.Events()
	tr := &Trace{Name: "lesson.csv", Layouts: []konvoy.Layout{konvoy.Free, konvoy.Convoy},
		Policies: []konvoy.Policy{konvoy.HeadOfLine}, Consumers: 4, Counts: []int{2, 4}}
	for _, l := range tr.Layouts {
		for _, c := range tr.Counts {
			r, err := konvoy.Simulate(events, l, c)
			if err != nil {
				t.Fatal(err)
			}
			tr.Results = append(tr.Results, r)
		}
	}
	for _, e := range events {
		tr.Stats.Add(e)
	}
	if got := tr.Run(1, 0, 2); got.Rounds != tr.Results[2].Rounds {
		t.Errorf("Run(convoy, 2) = %d rounds; want %d", got.Rounds, tr.Results[2].Rounds)
	}
	text := TraceText(tr, TraceOptions{Latency: true})
	for _, want := range []string{"The trace lesson.csv: 20 events", "rounds by consumers", "latency by layout and dispatch policy at 4 consumers"} {
		if !strings.Contains(text, want) {
			t.Errorf("TraceText lacks %q:\n%s", want, text)
		}
	}
	csv, err := TraceCSV(tr)
	if err != nil {
		t.Fatal(err)
	}
	if lines := strings.Split(strings.TrimSpace(csv), "\n"); len(lines) != 5 || !strings.HasPrefix(lines[0], "layout,consumers,events,") {
		t.Errorf("TraceCSV: want a header and 4 records:\n%s", csv)
	}
}

// The plan of the lesson answers what konvoy.ExamplePlanConsumers does.
func TestNewPlanOfTheLesson(t *testing.T) {
	events := lesson.Events()
	src := &PlanSource{Name: "the lesson", Lesson: true, Events: konvoy.Values(events)}
	for _, e := range events {
		src.Stats.Add(e)
		src.Work += e.Duration
	}
	p, err := NewPlan(src, PlanOptions{
		Layouts:  func(int) ([]konvoy.Layout, error) { return []konvoy.Layout{konvoy.Free, konvoy.LineConvoy}, nil },
		Policies: []konvoy.Policy{konvoy.HeadOfLine}, Peak: lesson.PeakRate, Round: 10 * time.Millisecond,
		MaxConsumers: 64, Collision: 0.05, MaxPartitions: 16,
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := []int{p.plans[0][0].Consumers, p.plans[1][0].Consumers}; got[0] != 2 || got[1] != 4 {
		t.Errorf("consumers free, line-convoy = %v; want [2 4]", got)
	}
	if !strings.HasPrefix(PlanText(p), "The capacity plan for the lesson: 20 events") {
		t.Errorf("PlanText:\n%s", PlanText(p))
	}
	if _, err := PlanJSON(p); err != nil {
		t.Error(err)
	}
}

// The selective convoy is costed on the events as keeping up takes them:
// for a trace whose events arrive over time, at hand, so that its free run
// at the keep-up plan's consumers is that plan's. On the trace's own
// arrivals every layout would last as long as the arrivals, and every
// multiplier would read x1.
func TestSelectiveCostsTheEventsAsKeepingUpTakesThem(t *testing.T) {
	var events []konvoy.Event
	for i := range 600 {
		events = append(events, konvoy.Event{Key: fmt.Sprint("K", i%5), Step: 1 + i/5, Duration: 1 + i%3, Arrival: 4 * i})
	}
	src := &PlanSource{Name: "t.csv", Events: konvoy.Values(events), LastArrival: events[len(events)-1].Arrival}
	for _, e := range events {
		src.Stats.Add(e)
		src.Work += e.Duration
	}
	p, err := NewPlan(src, PlanOptions{
		Layouts:  func(int) ([]konvoy.Layout, error) { return []konvoy.Layout{konvoy.Free, konvoy.Convoy}, nil },
		Policies: []konvoy.Policy{konvoy.HeadOfLine}, Peak: 400, PeakGiven: true, Round: 10 * time.Millisecond,
		MaxConsumers: 64, Collision: 0.05, MaxPartitions: 16,
	})
	if err != nil {
		t.Fatal(err)
	}
	if !p.timed() || p.free.Consumers == 0 || p.consumers != p.free.Consumers {
		t.Fatalf("timed %v, free keeps up with %d consumers, selective at %d; the test wants a timed trace costed at free's count", p.timed(), p.free.Consumers, p.consumers)
	}
	if got, want := p.selective.Free.Rounds, p.free.Rounds; got != want {
		t.Errorf("the selective comparison's free run lasts %d rounds; keeping up's at the same consumers, %d", got, want)
	}
	if p.selective.Convoy.Rounds <= p.selective.Free.Rounds {
		t.Errorf("convoy %d rounds, free %d: want the convoy's cost to show", p.selective.Convoy.Rounds, p.selective.Free.Rounds)
	}
}

// A trace's JSON and CSV records carry what the text report's notes say:
// the resequencer's gaps skipped, events forced and old steps rejected,
// run by run, and the events dropped as late, the same in every record.
func TestRecordsCarryTheResequencersCountsAndTheLateDropped(t *testing.T) {
	// Key A's step 2 comes long after step 3, which the timeout applies
	// first, skipping 2; step 2 then arrives as an old step, rejected.
	events := []konvoy.Event{
		{Key: "A", Step: 1, Duration: 1}, {Key: "A", Step: 3, Duration: 1},
		{Key: "B", Step: 1, Duration: 1}, {Key: "A", Step: 2, Duration: 1, Arrival: 10},
	}
	tr := &Trace{Name: "t.csv", Layouts: []konvoy.Layout{konvoy.Free, konvoy.Resequencer},
		Policies: []konvoy.Policy{konvoy.HeadOfLine}, Consumers: 1, Counts: []int{1}, Dropped: 2}
	for _, l := range tr.Layouts {
		r, err := konvoy.Simulate(events, l, 1, konvoy.WithResequencer(konvoy.ResequencerConfig{Timeout: 1, RejectOld: true}))
		if err != nil {
			t.Fatal(err)
		}
		tr.Results = append(tr.Results, r)
	}
	for _, e := range events {
		tr.Stats.Add(e)
	}
	if r := tr.Results[1]; r.GapsSkipped == 0 || r.Forced == 0 || r.RejectedOld == 0 {
		t.Fatalf("the resequencer skipped %d gaps, forced %d, rejected %d; the test wants each above 0", r.GapsSkipped, r.Forced, r.RejectedOld)
	}
	want := func(i int) map[string]int {
		r := tr.Results[i]
		return map[string]int{"gaps_skipped": r.GapsSkipped, "forced": r.Forced, "rejected_old": r.RejectedOld, "late_dropped": 2}
	}

	js, err := TraceJSON(tr)
	if err != nil {
		t.Fatal(err)
	}
	var objects []map[string]any
	if err := json.Unmarshal([]byte(js), &objects); err != nil || len(objects) != 2 {
		t.Fatalf("TraceJSON: %v, %d records:\n%s", err, len(objects), js)
	}
	for i, o := range objects {
		for name, n := range want(i) {
			if got, ok := o[name].(float64); !ok || got != float64(n) {
				t.Errorf("JSON record %d: %s is %v; want %d", i, name, o[name], n)
			}
		}
	}

	text, err := TraceCSV(tr)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(strings.NewReader(text)).ReadAll()
	if err != nil || len(rows) != 3 {
		t.Fatalf("TraceCSV: %v, %d rows:\n%s", err, len(rows), text)
	}
	for i, row := range rows[1:] {
		for name, n := range want(i) {
			if col := slices.Index(rows[0], name); col < 0 || row[col] != strconv.Itoa(n) {
				t.Errorf("CSV record %d: %s is in column %d of %q; want %d", i, name, col, row, n)
			}
		}
	}
}

// The text report names the assignor by which static dispatch deals a
// topic's partitions to consumers, the default or the one given, when
// static is among the policies run, and only then.
func TestTraceTextNamesTheStaticAssignor(t *testing.T) {
	events := lesson.Events()
	run := func(policies []konvoy.Policy, a konvoy.Assignor) string {
		tr := &Trace{Name: "lesson.csv", Layouts: []konvoy.Layout{konvoy.Free, konvoy.Partitioned(3)},
			Policies: policies, Consumers: 2, Counts: []int{2}, Assignor: a}
		for _, l := range tr.Layouts {
			for _, p := range policies {
				r, err := konvoy.Simulate(events, l, 2, Dispatch(p, a)...)
				if err != nil {
					t.Fatal(err)
				}
				tr.Results = append(tr.Results, r)
			}
		}
		for _, e := range events {
			tr.Stats.Add(e)
		}
		return TraceText(tr, TraceOptions{})
	}
	for _, c := range []struct {
		policies []konvoy.Policy
		assignor konvoy.Assignor
		want     string
	}{
		{[]konvoy.Policy{konvoy.Static}, 0, "under static dispatch, the range assignor deals the partitions to consumers\n"},
		{[]konvoy.Policy{konvoy.HeadOfLine, konvoy.Static}, konvoy.RoundRobinAssignor, "under static dispatch, the round-robin assignor deals"},
		{[]konvoy.Policy{konvoy.Static}, konvoy.FirstSeenAssignor, "under static dispatch, the first-seen assignor deals"},
		{[]konvoy.Policy{konvoy.HeadOfLine, konvoy.LaneAware}, 0, ""},
	} {
		text := run(c.policies, c.assignor)
		if got := strings.Contains(text, "assignor"); c.want == "" && got || c.want != "" && !strings.Contains(text, c.want) {
			t.Errorf("policies %v, assignor %v: want %q in the report, or no assignor named:\n%s", c.policies, c.assignor, c.want, text)
		}
	}
}

// formatAmount writes two decimals where they mean something: a small
// amount above 0 never reads as 0.00, and a huge one is not written out in
// hundreds of digits; each reads back within its printed precision; -0 is
// written as 0 is.
func TestFormatAmountKeepsEveryValueReadable(t *testing.T) {
	for x, want := range map[float64]string{0: "0.00", 1: "1.00", 2.345: "2.35", 0.004: "0.004", 2e-305: "2e-305",
		999999999999999: "999999999999999.00", 1e15: "1e+15", 1e308: "1e+308", 1.5e300: "1.5e+300"} {
		if got := formatAmount(x); got != want {
			t.Errorf("formatAmount(%g) = %q; want %q", x, got, want)
		}
	}
	if got := formatRate(math.Inf(1)); got != "unbounded" {
		t.Errorf("formatRate(+Inf) = %q", got)
	}
	if got := formatAmount(math.Copysign(0, -1)); got != "0.00" {
		t.Errorf("formatAmount(-0) = %q; want 0.00, as 0, which it equals", got)
	}
}

// RoundAmount keeps three decimals, or below 0.1 three significant
// digits, so that a rate or a budget above 0 never reads as 0 in the JSON
// reports; a huge amount is kept as it is.
func TestRoundAmountKeepsSmallAmountsAboveZero(t *testing.T) {
	for x, want := range map[float64]float64{0: 0, 1.23456: 1.235, 0.1: 0.1, 0.0123456: 0.0123, 0.0004166: 0.000417,
		2e-305: 2e-305, 1e300: 1e300} {
		if got := RoundAmount(x); got != want {
			t.Errorf("RoundAmount(%g) = %g; want %g", x, got, want)
		}
	}
}

// A most that may not be passed, the keep-up budget, is written and kept
// to the digits of formatAmount and RoundAmount, but rounded down: never
// above what it was, so that a budget of 20.9996 rounds does not read 21,
// which a run of 21 rounds does not keep. (Found by a review of konvoy
// plan.)
func TestABudgetIsNeverRoundedUp(t *testing.T) {
	// A large budget is rounded down too: 2e14 stayed 2e14+200 under a
	// slack relative to the budget (found by a review); 10 by floating
	// point, 7/(7·0.1), is still 10.
	peak, round := 7.0, 0.1
	ten := 7 / (peak * round)
	if ten == 10 {
		t.Fatalf("7/(7·0.1) is 10 exactly in float64; the check needs a budget a hair below a whole number")
	}
	// From 10^15 on every digit: float64's shortest form of 2^60 (found by a
	// review), 1.152921504606847e+18, reads 24 rounds above it.
	// Below, two decimals never above x: 999999999999999.875 read .88, and
	// 1000000000000.0078 read .01, by floorNear's slack in x·100's last
	// place (found by a review); from 10^12 on, whole rounds as the planner
	// counts them, floorNear's: near 10^15, where a unit in the last place
	// is an eighth of a round, 999999999999999.875 is 10^15 (a review found
	// the header a round below the planner and the assumptions).
	for x, want := range map[float64]string{20.9996: "20.99", 21: "21.00", 0.00499: "0.0049", 0: "0.00", 1e15: "1000000000000000",
		2e14: "200000000000000", 2e12 + 1: "2000000000001", ten: "10.00", 5.5866e-305: "5.5e-305", 0.9999999999995: "0.99",
		0x1p60: "1152921504606846976", 1e15 + 0.75: "1000000000000001", 999999999999999.875: "1000000000000000", 1e15 + 0.25: "1000000000000001",
		1000000000000.0078: "1000000000000", 99999999999.999: "99999999999.99", 999999999999.99: "999999999999.99",
		0x1p63: "9.223e+18", 0x1.fffffffffffffp62: "9223372036854774784", 1.9999999999999997e303: "1.999e+303", math.MaxFloat64: "1.797e+308"} {
		if got := formatAtMost(x); got != want {
			t.Errorf("formatAtMost(%g) = %q; want %q", x, got, want)
		}
	}
	for x, want := range map[float64]float64{20.9996: 20.999, 20.99999: 20.999, 21: 21, 0.0123456: 0.0123, 0.0004169: 0.000416, 1e300: 1e300,
		2e14: 2e14, 2e12 + 1: 2e12 + 1, ten: 10, 5.5866e-305: 5.58e-305, 0.9999999999995: 0.999} {
		if got := roundAtMost(x); got != want {
			t.Errorf("roundAtMost(%g) = %g; want %g", x, got, want)
		}
	}
}

// checkJSONText finds a string that is not UTF-8 wherever a JSON report's
// document holds it, in a field, a slice, a map's key or value, or behind a
// pointer, and names its field; UTF-8 text and nil pointers pass.
func TestCheckJSONTextFindsEveryStringThatIsNotUTF8(t *testing.T) {
	type inner struct {
		Lane string `json:"lane"`
	}
	type doc struct {
		Keys  []string          `json:"keys"`
		Costs map[string]string `json:"costs"`
		In    *inner            `json:"in,omitempty"`
	}
	if err := checkJSONText(doc{Keys: []string{"é", "a\nb"}, Costs: map[string]string{"k": "v"}}); err != nil {
		t.Errorf("UTF-8 text: %v", err)
	}
	for _, c := range []struct {
		doc  doc
		want string
	}{
		{doc{Keys: []string{"a", "\xff"}}, `"\xff" (keys)`},
		{doc{Costs: map[string]string{"\xfe": "v"}}, `"\xfe" (costs)`},
		{doc{Costs: map[string]string{"k": "\xfe"}}, `"\xfe" (costs)`},
		{doc{In: &inner{Lane: "\xc3"}}, `"\xc3" (in.lane)`},
	} {
		if err := checkJSONText(c.doc); err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%+v: error %v; want one starting %s", c.doc, err, c.want)
		}
	}
}

// Round3, the JSON reports' rounding of ratios, rounds as the text
// reports print them (multiplier, %.3f): 17/16 is exactly 1.0625, a tie,
// which both say 1.062, and 1.2625, a little below it in binary, is
// 1.262; math.Round(x·1000) said 1.063 and 1.263.
func TestRound3AgreesWithTheText(t *testing.T) {
	for _, x := range []float64{17.0 / 16, 1.2625, 1.3125, 2.0 / 3, -17.0 / 16, 0, 123456.0005, 1e15, math.Inf(1)} {
		text := multiplier(x)
		if x == 0 {
			text = "0.000"
		}
		if got := Round3(x); strconv.FormatFloat(got, 'f', 3, 64) != text {
			t.Errorf("Round3(%v) = %v; the text prints %s", x, got, text)
		}
	}
	if got := Round3(math.NaN()); !math.IsNaN(got) {
		t.Errorf("Round3(NaN) = %v", got)
	}
}

// Percent writes the share JSON gives (Round3) in percent, with no more
// decimals than it needs: 1/16 is 6.2%, as JSON's 0.062, where it said
// 6.3% (math.Round of 62.5 tenths) beside it.
func TestPercentIsTheJSONsShare(t *testing.T) {
	// A share above 0 that three decimals would make 0 keeps three
	// significant digits, in the text and the JSON alike (found by a
	// review: a utilisation of 1.1e-5 read 0% and 0).
	for s, want := range map[float64]string{1.0 / 16: "6.2%", 0.5: "50%", 0.05: "5%", 1: "100%", 0: "0%", 2.0 / 3: "66.7%", 0.0005: "0.1%",
		1.1e-5: "0.0011%", 0.00049: "0.049%", 1.23456e-9: "1.23e-07%", 0.0004999: "0.05%"} {
		if got := Percent(s); got != want {
			t.Errorf("Percent(%v) = %s; want %s", s, got, want)
		}
	}
	for s, want := range map[float64]float64{1.0 / 16: 0.062, 0: 0, 1.1e-5: 1.1e-5, 0.00049: 0.00049, 0.0004999: 0.0005, 1.23456e-9: 1.23e-9} {
		if got := RoundShare(s); got != want {
			t.Errorf("RoundShare(%v) = %v; want %v", s, got, want)
		}
	}
}

// givenPercent writes a share the user gave at its own precision, as JSON
// holds it: -collision 0.0625 is 6.25%, not percent's 6.2%, and 0.0004 is
// 0.04%, not 0% (found by a review).
func TestGivenPercentKeepsTheUsersDigits(t *testing.T) {
	for s, want := range map[float64]string{0.0625: "6.25%", 0.0004: "0.04%", 0.05: "5%", 0.07: "7%", 1: "100%", 0: "0%", 1e-7: "0.00001%"} {
		if got := givenPercent(s); got != want {
			t.Errorf("givenPercent(%v) = %s; want %s", s, got, want)
		}
	}
}

// The resequencer's note never says every key's steps finished in step
// order beside old steps it wrote backward, which its table counts: a
// key's step 1 after its step 2, under -start first-seen, is an old step
// written backward without being held (found by a review); the note
// counts such writes wherever it says what the resequencer held.
func TestResequencerNoteCountsBackwardWrites(t *testing.T) {
	for _, tt := range []struct {
		r    konvoy.Result
		want string
	}{
		{konvoy.Result{BackwardWrites: 1}, "resequencer held no event and discarded none\n  1 old step written backward, setting a key back (-reject-old discards old steps)\n"},
		{konvoy.Result{}, "resequencer held no event: every key's steps finished in step order, and none came twice\n"},
		{konvoy.Result{Buffered: 1, HeldRounds: 3, MaxBuffered: 1, MaxKeyBuffered: 1, BackwardWrites: 2}, "  2 old steps written backward, setting a key back"},
		{konvoy.Result{Buffered: 1, Forced: 1, BackwardWrites: 1}, "  1 old step written backward, setting a key back"},
	} {
		if got := resequencerNote(konvoy.Resequencer, tt.r); !strings.Contains(got, tt.want) {
			t.Errorf("%+v: note\n%s\nwant it to hold\n%s", tt.r, got, tt.want)
		}
	}
}

// floorNear takes a value up to 16 units in its last place below a whole
// number as that number, and one 17 below as below it; a whole number, as
// every float64 from 2^53 on is, stays as it is.
func TestFloorNearTakesSixteenUnitsInTheLastPlace(t *testing.T) {
	below := func(v float64, n int) float64 {
		for range n {
			v = math.Nextafter(v, 0)
		}
		return v
	}
	for v, want := range map[float64]float64{below(10, 16): 10, below(10, 17): 9, 10: 10, 9.5: 9, below(2e16, 16): 2e16 - 64} {
		if got := floorNear(v); got != want {
			t.Errorf("floorNear(%v) = %v; want %v", v, got, want)
		}
	}
}

// A budget below float64's smallest normal number, as konvoy plan -peak
// 1.7e305 -round-time 1000s gives a one-event trace (1/1.7e308), keeps the
// digits the docs promise, two in the text and three in the JSON, rounded
// down: math.Log10 misread a subnormal's decade, and the text said 5e-309
// beside the JSON's 5.8e-309 (found by a review).
func TestASubnormalBudgetKeepsItsDigits(t *testing.T) {
	x := 1 / (1.7e305 * 1000) // 5.88235294117647e-309
	if got, want := formatAtMost(x), "5.8e-309"; got != want {
		t.Errorf("formatAtMost(%v) = %s; want %s", x, got, want)
	}
	if got, want := roundAtMost(x), 5.88e-309; got != want {
		t.Errorf("roundAtMost(%v) = %v; want %v", x, got, want)
	}
	for x, want := range map[float64]float64{5e-324: -324, 1e-310: -310, 2.2e-308: -308, 1e-300: -300, 0.5: -1, 10: 1} {
		if got := decade(x); got != want {
			t.Errorf("decade(%v) = %v; want %v", x, got, want)
		}
	}
}
