package konvoy_test

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/lesson"
	"pgregory.net/rapid"
)

func TestPlanRejectsBadConfig(t *testing.T) {
	events := konvoy.Values(lesson.Events())
	for _, cfg := range []konvoy.PlanConfig{
		{Peak: 0, RoundSeconds: 1}, {Peak: math.Inf(1), RoundSeconds: 1}, {Peak: math.NaN(), RoundSeconds: 1},
		{Peak: 1, RoundSeconds: 0}, {Peak: 1, RoundSeconds: -1}, {Peak: 1, RoundSeconds: 1, MaxConsumers: -1},
	} {
		if _, err := konvoy.PlanConsumers(events, konvoy.Free, cfg); err == nil || !strings.HasPrefix(err.Error(), "konvoy: ") {
			t.Errorf("%+v: error %v", cfg, err)
		}
	}
	bad := konvoy.Values([]konvoy.Event{{Key: "A", Duration: 1}, {Key: "", Duration: 1}})
	if _, err := konvoy.PlanConsumers(bad, konvoy.Convoy, konvoy.PlanConfig{Peak: 1, RoundSeconds: 1}); err == nil {
		t.Error("an empty key was accepted")
	}
}

// A run that takes exactly the rounds the peak allows keeps up.
func TestPlanKeepsUpAtExactlyThePeak(t *testing.T) {
	// Free's ceiling on the lesson is its longest event, 4 rounds; 20 events
	// in 4 rounds of 1 s is 5 events/s.
	p, err := konvoy.PlanConsumers(konvoy.Values(lesson.Events()), konvoy.Free, konvoy.PlanConfig{Peak: 5, RoundSeconds: 1})
	if err != nil || p.Consumers == 0 || p.Rounds != 4 || p.CeilingRounds != 4 || p.Rate != 5 || p.Ceiling != 5 {
		t.Fatalf("%+v, %v", p, err)
	}
	want := "a run of the trace that lasts R rounds sustains 20/(R·1s) events/s, so keeping up means at most 4 rounds"
	if !slices.Contains(p.Assumptions, want) {
		t.Fatalf("assumptions %q lack %q", p.Assumptions, want)
	}
}

// A run that takes exactly the rounds the peak allows keeps up even where
// the rate's floating point falls short of the peak: 7 events in 7 rounds
// of 0.01 s is 100 events/s, which float64 writes 99.99999999999999, and
// the plan took 7 consumers for 6 rounds where 4 take 7, the budget its
// assumptions give (found by a review).
func TestPlanKeepsUpAtExactlyThePeakItsRateWritesShort(t *testing.T) {
	events := []konvoy.Event{
		{Key: "K1", Step: 1, Duration: 1}, {Key: "K0", Step: 1, Duration: 1},
		{Key: "K0", Step: 2, Duration: 4}, {Key: "K2", Step: 1, Duration: 1},
		{Key: "K2", Step: 2, Duration: 3}, {Key: "K2", Step: 3, Duration: 3},
		{Key: "K2", Step: 4, Duration: 6},
	}
	for c, want := range map[int]int{3: 10, 4: 7} {
		if r, err := konvoy.Simulate(events, konvoy.Free, c); err != nil || r.Rounds != want {
			t.Fatalf("%d consumers: %d rounds, %v; want %d", c, r.Rounds, err, want)
		}
	}
	p, err := konvoy.PlanConsumers(konvoy.Values(events), konvoy.Free, konvoy.PlanConfig{Peak: 100, RoundSeconds: 0.01})
	if err != nil || p.Consumers != 4 || p.Rounds != 7 {
		t.Errorf("plan: %d consumers, %d rounds, %v; want 4 and 7", p.Consumers, p.Rounds, err)
	}
}

// A plan's Rate and Ceiling are the peak or more when its budget is met,
// even where a run's seconds pass float64's range: 2 events in 2 rounds
// of 1e308 s is 1e-308 events/s, which the rounds times the round length
// made 0 (found by a review).
func TestPlanRateOfARunPastFloat64sSeconds(t *testing.T) {
	events := []konvoy.Event{{Key: "a", Step: 1, Duration: 1}, {Key: "b", Step: 1, Duration: 1}}
	cfg := konvoy.PlanConfig{Peak: 1e-308, RoundSeconds: 1e308}
	p, err := konvoy.PlanConsumers(konvoy.Values(events), konvoy.Free, cfg)
	if err != nil || p.Consumers != 1 || p.Rounds != 2 {
		t.Fatalf("plan %+v, %v; want 1 consumer, 2 rounds", p, err)
	}
	if p.Rate != 1e-308 || p.Ceiling != 2e-308 {
		t.Fatalf("Rate %v, Ceiling %v; want 1e-308 and 2e-308, the peak or more", p.Rate, p.Ceiling)
	}
}

// The plan names the lane that sets its ceiling, says which, and states its
// assumptions in words: on the lesson's data, the convoy's ceiling is key
// TR-2214's lane, a topic of five partitions is held back by partition 2,
// free consumption has no lane to blame, one event is one event, of one
// round, and a key that would not read as one name is quoted.
func TestPlanNamesItsCeilingAndAssumptions(t *testing.T) {
	events := lesson.Events()
	cfg := konvoy.PlanConfig{Peak: lesson.PeakRate, RoundSeconds: 0.01, MaxConsumers: 64}
	for _, c := range []struct {
		events  []konvoy.Event
		layout  konvoy.Layout
		lane    string
		ceiling string // the last assumption
	}{
		{events, konvoy.Convoy, "TR-2214", "no consumer count beats 8 rounds: lane TR-2214 must run its events one after another"},
		{events, konvoy.LineConvoy, "H2", "no consumer count beats 14 rounds: lane H2 must run its events one after another"},
		{events, konvoy.Partitioned(5), "2", "no consumer count beats 8 rounds: partition 2 must run its events one after another"},
		{events, konvoy.Free, "", "consumers are dispatched head-of-line, where a consumer more never makes a run longer, and at most 64 are tried"},
		{events[:1], konvoy.Convoy, "TR-4821", "no consumer count beats 1 round: lane TR-4821 must run its events one after another"},
		// Two lanes finish last together: the ceiling is the lane of the
		// first event, in input order, to finish last.
		{[]konvoy.Event{{Key: "A", Duration: 2}, {Key: "B", Duration: 5}, {Key: "A", Duration: 3}}, konvoy.Convoy, "B",
			"no consumer count beats 5 rounds: lane B must run its events one after another"},
		// A key that holds a newline, or bytes that are not UTF-8, is
		// quoted, so that the sentence names one lane on one line.
		{[]konvoy.Event{{Key: "a\nb", Duration: 5}, {Key: "c", Duration: 1}}, konvoy.Convoy, "a\nb",
			`no consumer count beats 5 rounds: lane "a\nb" must run its events one after another`},
		{[]konvoy.Event{{Key: "\xff", Duration: 5}, {Key: "c", Duration: 1}}, konvoy.Convoy, "\xff",
			`no consumer count beats 5 rounds: lane "\xff" must run its events one after another`},
		// A lane whose events take no time sets no ceiling, and is not
		// named (see TestNoLaneSetsACeilingOfNoWork).
		{[]konvoy.Event{{Key: "A"}, {Key: "A"}}, konvoy.Convoy, "", "consumers are dispatched head-of-line, where a consumer more never makes a run longer, and at most 64 are tried"},
	} {
		p, err := konvoy.PlanConsumers(konvoy.Values(c.events), c.layout, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if p.CeilingLane != c.lane || p.Assumptions[len(p.Assumptions)-1] != c.ceiling {
			t.Errorf("%s on %d events: ceiling lane %q, last assumption %q; want %q, %q", c.layout, len(c.events), p.CeilingLane, p.Assumptions[len(p.Assumptions)-1], c.lane, c.ceiling)
		}
		sample := fmt.Sprintf("the %d events of the trace are a fair sample of the traffic at the peak of %g events/s", len(c.events), cfg.Peak)
		if len(c.events) == 1 {
			sample = fmt.Sprintf("the one event of the trace is a fair sample of the traffic at the peak of %g events/s", cfg.Peak)
		}
		if p.Assumptions[0] != sample {
			t.Errorf("%s: first assumption %q; want %q", c.layout, p.Assumptions[0], sample)
		}
		budget := fmt.Sprintf("a run of the trace that lasts R rounds sustains %d/(R·0.01s) events/s, so keeping up means at most %s rounds",
			len(c.events), cutToFourDigits(float64(len(c.events))/(cfg.Peak*0.01)))
		if p.Assumptions[2] != budget {
			t.Errorf("%s: third assumption %q; want %q", c.layout, p.Assumptions[2], budget)
		}
	}
}

// A bad event in the trace is an error that names it by its input index,
// as everywhere else.
func TestPlanNamesTheBadEvent(t *testing.T) {
	events := append(slices.Clone(lesson.Events()[:3]), konvoy.Event{Key: "X", Duration: -1})
	_, err := konvoy.PlanConsumers(konvoy.Values(events), konvoy.Convoy, konvoy.PlanConfig{Peak: 1, RoundSeconds: 1})
	if want := `konvoy: event 3 (key "X"): Duration is -1; want 0 or more rounds`; err == nil || err.Error() != want {
		t.Fatalf("error %v; want %s", err, want)
	}
}

// p2 is the trace where more consumers than events shorten a run:
// under static dispatch with range assignment, K7 and K0 fall in
// partitions 0 and 1 of 3, which share a consumer on 1 or 2 consumers (12
// rounds) and not on 3 (6 rounds).
var p2 = []konvoy.Event{{Key: "K7", Line: "L", Step: 1, Duration: 6}, {Key: "K0", Line: "L", Step: 1, Duration: 6}}

// The planner tries counts beyond the events where they can matter: under
// static dispatch on partition lanes, up to the partitions. p2 keeps up
// with 2.5 events/s at rounds of 0.1 s (8 rounds) only on 3 consumers.
func TestPlanTriesAConsumerForEveryPartition(t *testing.T) {
	for c, want := range map[int]int{1: 12, 2: 12, 3: 6} {
		if r, err := konvoy.Simulate(p2, konvoy.Partitioned(3), c, konvoy.WithPolicy(konvoy.Static)); err != nil || r.Rounds != want {
			t.Fatalf("%d consumers: %d rounds, %v; want %d", c, r.Rounds, err, want)
		}
	}
	p, err := konvoy.PlanConsumers(konvoy.Values(p2), konvoy.Partitioned(3), konvoy.PlanConfig{Peak: 2.5, RoundSeconds: 0.1}, konvoy.WithPolicy(konvoy.Static))
	if err != nil || p.Consumers != 3 || p.Rounds != 6 {
		t.Errorf("%+v, %v; want 3 consumers, 6 rounds", p, err)
	}
}

// The trace: a's three events at round 0 take 3 rounds, b's one
// event arrives at round 100. The ceiling, 101 rounds, is that arrival
// plus its round of work, not lane b's load, and the plan says so.
func TestPlanCeilingNamesTheArrivalThatSetsIt(t *testing.T) {
	events := []konvoy.Event{{Key: "a", Step: 1, Duration: 1}, {Key: "a", Step: 2, Duration: 1}, {Key: "a", Step: 3, Duration: 1}, {Key: "b", Step: 1, Duration: 1, Arrival: 100}}
	for _, c := range []struct {
		layout konvoy.Layout
		lane   string
		said   string
	}{
		{konvoy.Convoy, "b", "no consumer count beats 101 rounds: the arrival at round 100 plus the 1 round of work lane b then runs one after another"},
		{konvoy.Free, "", "no consumer count beats 101 rounds: the arrival at round 100 plus the 1 round the event that ends last takes"},
	} {
		p, err := konvoy.PlanConsumers(konvoy.Values(events), c.layout, konvoy.PlanConfig{Peak: 1, RoundSeconds: 0.01})
		if err != nil {
			t.Fatal(err)
		}
		if p.CeilingRounds != 101 || p.CeilingFrom != 100 || p.CeilingLane != c.lane || p.Assumptions[len(p.Assumptions)-1] != c.said {
			t.Errorf("%s: ceiling %d rounds from %d, lane %q, last assumption %q; want 101 from 100, %q, %q",
				c.layout, p.CeilingRounds, p.CeilingFrom, p.CeilingLane, p.Assumptions[len(p.Assumptions)-1], c.lane, c.said)
		}
	}
}

// The ceiling is an arrival plus the work that then runs without a break:
// in the run with a consumer for every event, an event of the ceiling's
// lane (or, with no lane, the event that ends last) starts on arrival at
// CeilingFrom, and the lane's events from then on run back to back to the
// end. It holds because each event there starts as soon as it has arrived
// and its lane is free, so a lane idles only while no event of it is due.
func TestPlanCeilingIsAnArrivalPlusBackToBackWork(t *testing.T) {
	t.Parallel()
	rapid.Check(t, func(t *rapid.T) {
		events := arriving.Draw(t, "events")
		l := layoutGen.Draw(t, "layout")
		plan, err := konvoy.PlanConsumers(konvoy.Values(events), l, konvoy.PlanConfig{Peak: 1, RoundSeconds: 1})
		if err != nil {
			t.Fatal(err)
		}
		if plan.CeilingRounds == 0 {
			return
		}
		r, err := konvoy.Simulate(events, l, len(events), konvoy.WithSchedule(len(events)))
		if err != nil {
			t.Fatal(err)
		}
		startsOnArrival, busy := false, 0
		for _, s := range r.Schedule {
			ours := plan.CeilingLane != "" && s.Lane == plan.CeilingLane || plan.CeilingLane == "" && s.Finish == plan.CeilingRounds
			if ours && s.Start == plan.CeilingFrom && s.Arrival == s.Start {
				startsOnArrival = true
			}
			if ours && s.Start >= plan.CeilingFrom && (plan.CeilingLane != "" || s.Start == plan.CeilingFrom) {
				busy += s.Finish - s.Start
			}
		}
		if !startsOnArrival || plan.CeilingLane != "" && busy != plan.CeilingRounds-plan.CeilingFrom {
			t.Fatalf("%s: ceiling %d rounds from %d, lane %q: an event starts there on arrival %v, busy %d rounds after",
				l, plan.CeilingRounds, plan.CeilingFrom, plan.CeilingLane, startsOnArrival, busy)
		}
	})
}

// cutToFourDigits writes x, above 0, as its decimal expansion cut (not
// rounded) after four significant digits, and from 1000 on after the
// point: what a budget of "at most x rounds" may say without passing x,
// or the rounds of the plan's own answer.
func cutToFourDigits(x float64) string {
	d := strconv.FormatFloat(x, 'f', 12, 64)
	if whole, _, _ := strings.Cut(d, "."); len(whole) >= 4 {
		return whole
	}
	var out []byte
	for i, sig := 0, 0; i < len(d); i++ {
		c := d[i]
		if sig == 4 && c != '.' && !strings.Contains(string(out), ".") {
			c = '0' // an integer part longer than four digits keeps its length
		} else if sig == 4 {
			break
		}
		out = append(out, c)
		if c >= '1' && c <= '9' || c == '0' && sig > 0 {
			sig++
		}
	}
	v, _ := strconv.ParseFloat(string(out), 64)
	return strconv.FormatFloat(v, 'g', 4, 64)
}

// A budget of rounds in the assumptions is never rounded up: 20 events at
// 95.2399 events/s and 0.01 s a round may take 20.9996 rounds, which reads
// 20.99, not 21, since a run of 21 rounds does not keep up; a whole
// budget stays whole. (Found by a review of konvoy plan.)
func TestPlanBudgetIsNeverRoundedUp(t *testing.T) {
	for peak, want := range map[float64]string{95.2399: "20.99", 100: "20", 1000.0 / 3: "6"} {
		events := make([]konvoy.Event, 20)
		for i := range events {
			events[i] = konvoy.Event{Key: strconv.Itoa(i), Step: 1, Duration: 1}
		}
		p, err := konvoy.PlanConsumers(konvoy.Values(events), konvoy.Convoy, konvoy.PlanConfig{Peak: peak, RoundSeconds: 0.01})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasSuffix(p.Assumptions[2], "at most "+want+" rounds") {
			t.Errorf("peak %v: %q; want a budget of at most %s rounds", peak, p.Assumptions[2], want)
		}
	}
	// From 1000 rounds on, the whole rounds in full: four digits cut
	// 123456.7 to 1.234e+05, 123,400 rounds, below the 123,450 that the
	// plan answers as keeping up (found by a review); past every run's
	// rounds, float64's shortest form.
	for _, c := range []struct {
		peak, round float64
		rounds      int
		want        string
		consumers   int
		planRounds  int
	}{
		{10 / 123456.7 / 0.01, 0.01, 12345, "123456", 1, 123450},
		{10 / 9999.9999 / 0.01, 0.01, 999, "9999", 1, 9990},
		{10 / 1000.5 / 0.01, 0.01, 100, "1000", 1, 1000},
		{math.Ldexp(1, -70), 1, 1, "1.180e+22", 1, 10},                  // 10·2^70, past every run's rounds: four digits, down
		{8.470329472543007e-22, 1, 1, "1.180e+22", 1, 10},               // whose shortest form, 1.1805916207174109e+22, is above it
		{1e-300, 1, 1, "9.999e+300", 1, 10},                             // 10/1e-300 is 9.999999999999999e+300, not 1e+301
		{10 / 0x1p63, 1, 1, "9.223e+18", 1, 10},                         // 2^63: no run has so many rounds
		{10 / 0x1.fffffffffffffp62, 1, 1, "9223372036854773760", 1, 10}, // below 2^63: whole rounds in full
	} {
		events := make([]konvoy.Event, 10)
		for i := range events {
			events[i] = konvoy.Event{Key: "k", Step: i + 1, Duration: c.rounds}
		}
		p, err := konvoy.PlanConsumers(konvoy.Values(events), konvoy.Convoy, konvoy.PlanConfig{Peak: c.peak, RoundSeconds: c.round})
		if err != nil || !strings.HasSuffix(p.Assumptions[2], "at most "+c.want+" rounds") || p.Consumers != c.consumers || p.Rounds != c.planRounds {
			t.Errorf("peak %v: %q, %d consumers for %d rounds, %v; want a budget of at most %s rounds, %d consumer for %d rounds",
				c.peak, p.Assumptions[2], p.Consumers, p.Rounds, err, c.want, c.consumers, c.planRounds)
		}
	}
	p, err := konvoy.PlanConsumers(konvoy.Values([]konvoy.Event{}), konvoy.Convoy, konvoy.PlanConfig{Peak: 5, RoundSeconds: 0.01})
	if err != nil || !strings.HasSuffix(p.Assumptions[2], "at most 0 rounds") {
		t.Errorf("no events: %q, %v; want a budget of at most 0 rounds", p.Assumptions[2], err)
	}
}

// A plan's budget of rounds is written in its assumptions, rounded down to
// four digits, however small: below 1e-305 the scale to four digits was
// past float64's range, and the budget read NaN (found by a review).
func TestPlanWritesATinyBudget(t *testing.T) {
	events := []konvoy.Event{{Key: "a", Step: 1, Duration: 1}}
	for _, tt := range []struct {
		peak, round float64
		want        string
	}{
		{1e300, 1e6, "at most 1e-306 rounds"},
		{3e300, 1e6, "at most 3.333e-307 rounds"},
		{1e300, 1e7, "at most 1e-307 rounds"},
		{2.5, 0.01, "at most 40 rounds"},
		// A budget a hair below 1 is below 1: a slack of 1e-12 of it
		// wrote 1, which a run of 1 round does not keep.
		{1.0000000000005, 1, "at most 0.9999 rounds"},
	} {
		p, err := konvoy.PlanConsumers(konvoy.Values(events), konvoy.Free, konvoy.PlanConfig{Peak: tt.peak, RoundSeconds: tt.round})
		if err != nil {
			t.Fatal(err)
		}
		if all := strings.Join(p.Assumptions, "\n"); !strings.Contains(all, tt.want) {
			t.Errorf("peak %v, round %v s: assumptions\n%s\nwant %q", tt.peak, tt.round, all, tt.want)
		}
	}
}

// A run's rounds are compared with the budget as whole numbers: as
// float64s, a run of 2^60+100 rounds read as 2^60 and kept up with a
// budget of 2^60 (found by a review). Where int has 32 bits every run's
// rounds are exact in a float64, and the test does not run.
func TestPlanComparesRoundsWithTheBudgetExactly(t *testing.T) {
	if math.MaxInt>>53 == 0 {
		t.Skip("int has 32 bits")
	}
	for _, extra := range []int64{100, 0} {
		long := int64(1)<<60 + extra
		events := []konvoy.Event{{Key: "a", Step: 1, Duration: int(long)}}
		p, err := konvoy.PlanConsumers(konvoy.Values(events), konvoy.Free, konvoy.PlanConfig{Peak: math.Ldexp(1, -60), RoundSeconds: 1})
		if keeps := extra == 0; err != nil || (p.Consumers == 1) != keeps {
			t.Errorf("a run of 2^60+%d rounds, a budget of 2^60: %d consumers for %d rounds, %v; want it to keep up: %v", extra, p.Consumers, p.Rounds, err, keeps)
		}
	}
	// A budget of 2^63 rounds, past every int, keeps every run.
	events := []konvoy.Event{{Key: "a", Step: 1, Duration: math.MaxInt - 1}}
	if p, err := konvoy.PlanConsumers(konvoy.Values(events), konvoy.Free, konvoy.PlanConfig{Peak: math.Ldexp(1, -63), RoundSeconds: 1}); err != nil || p.Consumers != 1 {
		t.Errorf("a run of the largest int's rounds, a budget of 2^63: %d consumers, %v; want 1", p.Consumers, err)
	}
}

// Under Static a consumer more can make a run longer, so a plan's answer
// is the fewest consumers that keep up, and a count above it need not:
// seven events of a convoy run 12 rounds on 2 consumers, 16 on 3 and 8 on
// 4 (found by a review, as a plan that said nothing of it). The plan says
// so; under head-of-line, where a consumer more never makes a run longer,
// it says that instead.
func TestAPlanSaysWhetherACountAboveItKeepsUp(t *testing.T) {
	events := []konvoy.Event{{Key: "k2", Step: 2, Duration: 2}, {Key: "k1", Step: 2, Duration: 4}, {Key: "k0", Step: 3, Duration: 4},
		{Key: "k2", Step: 3, Duration: 2}, {Key: "k3", Step: 3, Duration: 5}, {Key: "k3", Step: 1, Duration: 3}, {Key: "k2", Step: 1, Duration: 4}}
	rounds := func(c int) int {
		r, err := konvoy.Simulate(events, konvoy.Convoy, c, konvoy.WithPolicy(konvoy.Static))
		if err != nil {
			t.Fatal(err)
		}
		return r.Rounds
	}
	if r2, r3 := rounds(2), rounds(3); r2 != 12 || r3 != 16 {
		t.Fatalf("rounds on 2 and 3 consumers: %d and %d; want 12 and 16", r2, r3)
	}
	cfg := konvoy.PlanConfig{Peak: 0.5, RoundSeconds: 1, MaxConsumers: 8} // at most 14 rounds
	for _, c := range []struct {
		policy konvoy.Policy
		want   string
	}{
		{konvoy.Static, "consumers are dispatched static, where a consumer more need not make a run shorter: a count above the plan's may not keep up; at most 8 are tried"},
		{konvoy.HeadOfLine, "consumers are dispatched head-of-line, where a consumer more never makes a run longer, and at most 8 are tried"},
	} {
		p, err := konvoy.PlanConsumers(konvoy.Values(events), konvoy.Convoy, cfg, konvoy.WithPolicy(c.policy))
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Contains(p.Assumptions, c.want) {
			t.Errorf("%s: assumptions %q; want one saying %q", c.policy, p.Assumptions, c.want)
		}
		if c.policy == konvoy.Static && p.Consumers != 2 {
			t.Errorf("static: %d consumers; want 2, the fewest that keep up", p.Consumers)
		}
	}
}

// PlanConsumers refuses a policy it does not know, as Simulate does, even
// when it runs no count: for no events, or a ceiling past the peak.
// (Before, it answered a plan "dispatched Policy(9)"; found by a review.)
func TestPlanConsumersRefusesAnUnknownPolicy(t *testing.T) {
	for _, events := range [][]konvoy.Event{nil, {{Key: "a", Duration: 10}}} {
		_, err := konvoy.PlanConsumers(konvoy.Values(events), konvoy.Convoy, konvoy.PlanConfig{Peak: 1000, RoundSeconds: 1}, konvoy.WithPolicy(konvoy.Policy(9)))
		if err == nil || err.Error() != "konvoy: unknown Policy(9)" {
			t.Errorf("%d events: %v; want the policy refused", len(events), err)
		}
	}
}

// A count whose run outgrows WithMaxBacklog (an event held for each
// consumer that has taken one) does not end the search when a smaller
// count keeps up: six events of free, each of a round, need 3 consumers
// to keep within 2 rounds, which hold 3; head-of-line's doubling ran 4,
// which hold 4 of the 3 the backlog may, and the plan failed where the
// other policies, trying each count in turn, answered 3 (found by a
// review). Where the count just above those that do not keep up outgrows
// the backlog, the answer is its error, since it may have kept up.
func TestPlanPassesOverACountThatOutgrowsTheBacklog(t *testing.T) {
	var events []konvoy.Event
	for i := range 6 {
		events = append(events, konvoy.Event{Key: strconv.Itoa(i), Step: 1, Duration: 1})
	}
	cfg := konvoy.PlanConfig{Peak: 3, RoundSeconds: 1} // 6 events in at most 2 rounds
	for _, p := range konvoy.Policies() {
		plan, err := konvoy.PlanConsumers(konvoy.Values(events), konvoy.Free, cfg, konvoy.WithPolicy(p), konvoy.WithMaxBacklog(3))
		if err != nil || plan.Consumers != 3 || plan.Rounds != 2 {
			t.Errorf("%s: %d consumers for %d rounds, %v; want 3 for 2", p, plan.Consumers, plan.Rounds, err)
		}
		_, err = konvoy.PlanConsumers(konvoy.Values(events), konvoy.Free, cfg, konvoy.WithPolicy(p), konvoy.WithMaxBacklog(2))
		if !errors.Is(err, konvoy.ErrBacklog) {
			t.Errorf("%s, a backlog of 2: %v; want the error of 3 consumers, which hold 3", p, err)
		}
	}
}

// An error other than ErrBacklog in the bisection ends the plan with it,
// though a smaller count keeps up: here the trace's stream fails on its
// fourth reading, the count of 6 that head-of-line's bisection tries
// between 4, which does not keep 40 events within 8 rounds, and 8, which
// does; 5 would.
func TestPlanEndsAtAnErrorOfTheBisection(t *testing.T) {
	var events []konvoy.Event
	for i := range 40 {
		events = append(events, konvoy.Event{Key: strconv.Itoa(i), Step: 1, Duration: 1})
	}
	broken := errors.New("the fourth reading fails")
	readings := 0
	stream := func(yield func(konvoy.Event, error) bool) {
		if readings++; readings == 4 {
			yield(konvoy.Event{}, broken)
			return
		}
		for _, e := range events {
			if !yield(e, nil) {
				return
			}
		}
	}
	p, err := konvoy.PlanConsumers(stream, konvoy.Free, konvoy.PlanConfig{Peak: 5, RoundSeconds: 1})
	if !errors.Is(err, broken) || readings != 4 {
		t.Errorf("%d consumers, %v, after %d readings; want the fourth reading's error", p.Consumers, err, readings)
	}
}
