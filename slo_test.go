package konvoy_test

import (
	"errors"
	"fmt"
	"iter"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/lesson"
	"pgregory.net/rapid"
)

func TestPlanLatencyRejectsBadConfig(t *testing.T) {
	tooMany := konvoy.MaxConsumers
	tooMany++ // -1 where int has 32 bits: out of range too
	events := konvoy.Values(lesson.Events())
	for _, cfg := range []konvoy.LatencyConfig{
		{SLO: konvoy.SLO{Percentile: 99.95}}, {SLO: konvoy.SLO{Percentile: 49.99}}, {SLO: konvoy.SLO{Percentile: 99.005}},
		{SLO: konvoy.SLO{Percentile: math.NaN()}}, {SLO: konvoy.SLO{Percentile: 101}}, {SLO: konvoy.SLO{Percentile: 0}},
		{SLO: konvoy.SLO{Percentile: 99, Rounds: -1}}, {SLO: konvoy.SLO{Percentile: 99}, MaxConsumers: -1},
		{SLO: konvoy.SLO{Percentile: 99}, MaxConsumers: tooMany},
	} {
		if _, err := konvoy.PlanLatency(events, []konvoy.Layout{konvoy.Free}, cfg); err == nil || !strings.HasPrefix(err.Error(), "konvoy: ") {
			t.Errorf("%+v: error %v", cfg, err)
		}
	}
	for _, p := range []float64{50, 75.25, 99.9, 100} {
		if _, err := konvoy.PlanLatency(events, []konvoy.Layout{konvoy.Free}, konvoy.LatencyConfig{SLO: konvoy.SLO{Percentile: p}}); err != nil {
			t.Errorf("percentile %v: %v", p, err)
		}
	}
	bad := konvoy.Values([]konvoy.Event{{Key: "A", Duration: 1}, {Key: "", Duration: 1}})
	var ev *konvoy.EventError
	if _, err := konvoy.PlanLatency(bad, []konvoy.Layout{konvoy.Convoy}, konvoy.LatencyConfig{SLO: konvoy.SLO{Percentile: 99}}); !errors.As(err, &ev) || ev.Index != 1 {
		t.Errorf("an empty key: error %v", err)
	}
}

// Utilisation is the work over consumers × the rounds the events arrive
// over: two events ten rounds apart, which arrive over the eleven rounds 0
// to 10, keep one consumer busy four of eleven. Events that all arrive in
// one round have no such span: four events of two rounds at round 0 keep
// two consumers busy for the whole four rounds of the run.
func TestPlanLatencyUtilisation(t *testing.T) {
	for _, c := range []struct {
		events    []konvoy.Event
		slo       konvoy.SLO
		consumers int
		achieved  int
		busy      float64
	}{
		{[]konvoy.Event{{Key: "A", Duration: 2}, {Key: "B", Duration: 2}, {Key: "C", Duration: 2}, {Key: "D", Duration: 2}},
			konvoy.SLO{Percentile: 100, Rounds: 4}, 2, 4, 1},
		{[]konvoy.Event{{Key: "A", Duration: 2}, {Key: "A", Duration: 2, Arrival: 10}},
			konvoy.SLO{Percentile: 100, Rounds: 2}, 1, 2, 4.0 / 11},
		{[]konvoy.Event{{Key: "A", Duration: 2}, {Key: "B", Duration: 2}, {Key: "C", Duration: 2}, {Key: "D", Duration: 2}},
			konvoy.SLO{Percentile: 50, Wait: true, Rounds: 0}, 2, 0, 1},
	} {
		plans, err := konvoy.PlanLatency(konvoy.Values(c.events), []konvoy.Layout{konvoy.Free}, konvoy.LatencyConfig{SLO: c.slo})
		if err != nil {
			t.Fatal(err)
		}
		p := plans[0]
		if !p.Meets || p.Consumers != c.consumers || p.Achieved != c.achieved || math.Abs(p.Utilisation-c.busy) > 1e-12 {
			t.Errorf("%s: plan %+v; want %d consumers, %d rounds, utilisation %v", c.slo, p, c.consumers, c.achieved, c.busy)
		}
	}
}

// A trace of no work has no load floor (LoadFloor 0) however many rounds
// its events arrive over, and its plan still says its utilisation is over
// those rounds, as it is: the words said "the run's rounds", as for a
// trace that arrives in one round (found by a review).
func TestPlanLatencyOfNoWorkSaysItsSpan(t *testing.T) {
	events := []konvoy.Event{{Key: "A"}, {Key: "B", Arrival: 1}, {Key: "C", Arrival: 2}}
	plans, err := konvoy.PlanLatency(konvoy.Values(events), []konvoy.Layout{konvoy.Free}, konvoy.LatencyConfig{SLO: konvoy.SLO{Percentile: 99, Rounds: 1}})
	if err != nil {
		t.Fatal(err)
	}
	p := plans[0]
	const want = "utilisation is the work over consumers × the 3 rounds the events arrive over"
	if p.LoadFloor != 0 || p.Span != 3 || p.Utilisation != 0 || !slices.ContainsFunc(p.Assumptions, func(a string) bool { return strings.HasPrefix(a, want) }) {
		t.Errorf("plan %+v; want load floor 0, span 3, utilisation 0, and the assumption %q", p, want)
	}
	// Events that arrive in one round, Span 1, are over the run's rounds.
	events = []konvoy.Event{{Key: "A", Duration: 2}, {Key: "B", Duration: 2}}
	if plans, err = konvoy.PlanLatency(konvoy.Values(events), []konvoy.Layout{konvoy.Free}, konvoy.LatencyConfig{SLO: konvoy.SLO{Percentile: 99, Rounds: 2}}); err != nil {
		t.Fatal(err)
	}
	const one = "utilisation is the work over consumers × the run's rounds"
	if p := plans[0]; p.Span != 1 || !slices.ContainsFunc(p.Assumptions, func(a string) bool { return strings.HasPrefix(a, one) }) {
		t.Errorf("one round's events: plan %+v; want span 1 and the assumption %q", p, one)
	}
}

// A lane whose own events, run back to back as they arrive, miss the
// objective misses it at every count: the plan says which, and tries none.
func TestPlanLatencyNamesTheLaneThatMisses(t *testing.T) {
	events := []konvoy.Event{{Key: "hot", Duration: 2}, {Key: "hot", Duration: 2}, {Key: "hot", Duration: 2}, {Key: "cold", Duration: 1}}
	slo := konvoy.SLO{Percentile: 100, Rounds: 5}
	plans, err := konvoy.PlanLatency(konvoy.Values(events), []konvoy.Layout{konvoy.Convoy, konvoy.Free}, konvoy.LatencyConfig{SLO: slo})
	if err != nil {
		t.Fatal(err)
	}
	convoy, free := plans[0], plans[1]
	if convoy.Meets || convoy.Consumers != 0 || convoy.Floor != 6 || convoy.FloorLane != "hot" || convoy.Achieved != 6 || len(convoy.Curve) != 0 {
		t.Errorf("convoy: %+v", convoy)
	}
	if !free.Meets || free.Consumers != 2 || free.Floor != 2 || free.FloorLane != "" {
		t.Errorf("free: %+v", free)
	}
	if got := slo.String(); got != "max=5 rounds of response" {
		t.Errorf("String: %q", got)
	}
	if got := (konvoy.SLO{Percentile: 99.9, Wait: true}).String(); got != "p99.9=0 rounds of wait" {
		t.Errorf("String: %q", got)
	}
}

// A small stream is read once and then held; a stream that fails fails the
// plan with its error.
func TestPlanLatencyReadsASmallStreamOnce(t *testing.T) {
	reads := 0
	events := lesson.Events()
	counted := func(yield func(konvoy.Event, error) bool) {
		reads++
		for e, err := range konvoy.Values(events) {
			if !yield(e, err) {
				return
			}
		}
	}
	plans, err := konvoy.PlanLatency(counted, lesson.Layouts(), konvoy.LatencyConfig{SLO: konvoy.SLO{Percentile: 99, Rounds: 6}})
	if err != nil || len(plans) != len(lesson.Layouts()) {
		t.Fatal(plans, err)
	}
	if reads != 1 {
		t.Errorf("the lesson's 20 events were read %d times; want once", reads)
	}
	boom := errors.New("boom")
	var failing iter.Seq2[konvoy.Event, error] = func(yield func(konvoy.Event, error) bool) {
		_ = yield(konvoy.Event{Key: "A", Duration: 1}, nil) && yield(konvoy.Event{}, boom)
	}
	if _, err := konvoy.PlanLatency(failing, []konvoy.Layout{konvoy.Free}, konvoy.LatencyConfig{SLO: konvoy.SLO{Percentile: 99}}); !errors.Is(err, boom) {
		t.Errorf("error %v; want boom", err)
	}
}

// The fewest consumers the work allows counts only the events that must
// meet the objective, and only their work that fits before the last
// arrival plus the target: a bound any higher would skip the answer.
func TestPlanLatencySkipsNoCountThatMeets(t *testing.T) {
	for _, c := range []struct {
		name   string
		events []konvoy.Event
		slo    konvoy.SLO
		want   int
	}{
		// p50 of 2 events is the faster one's response: one consumer
		// meets 1 round, though the other event's work is 1000.
		{"p50 ignores the slower half", []konvoy.Event{{Key: "A", Step: 1, Duration: 1}, {Key: "B", Step: 1, Duration: 1000}}, konvoy.SLO{Percentile: 50, Rounds: 1}, 1},
		// Four events of 1 round at round 0 within 2 rounds: two
		// consumers, the work 4 over the 2 rounds of room.
		{"max within 2 rounds", []konvoy.Event{{Key: "A", Step: 1, Duration: 1}, {Key: "B", Step: 1, Duration: 1}, {Key: "C", Step: 1, Duration: 1}, {Key: "D", Step: 1, Duration: 1}}, konvoy.SLO{Percentile: 100, Rounds: 2}, 2},
	} {
		plans, err := konvoy.PlanLatency(konvoy.Values(c.events), []konvoy.Layout{konvoy.Free}, konvoy.LatencyConfig{SLO: c.slo})
		if err != nil || len(plans) != 1 || !plans[0].Meets || plans[0].Consumers != c.want {
			t.Errorf("%s: %+v, %v; want %d consumers", c.name, plans, err, c.want)
		}
	}
}

// Only head-of-line dispatch, where a consumer more never delays an event,
// is bisected; the other policies try every count, and the plan says which.
func TestPlanLatencyBisectsOnlyUnderHeadOfLine(t *testing.T) {
	for _, p := range konvoy.Policies() {
		plans, err := konvoy.PlanLatency(konvoy.Values(lesson.Events()), []konvoy.Layout{konvoy.Convoy}, konvoy.LatencyConfig{SLO: konvoy.SLO{Percentile: 99, Rounds: 10}}, konvoy.WithPolicy(p))
		if err != nil || len(plans) != 1 || plans[0].Bisected != (p == konvoy.HeadOfLine) {
			t.Errorf("%v: %+v, %v; want Bisected only under head-of-line", p, plans, err)
		}
	}
}

// A search that tries every count goes on past its first pass until one
// meets: twelve events of 10 rounds at round 0 meet a maximum of 10 rounds
// only on twelve consumers, while a late event leaves the bound on the
// fewest consumers at one.
func TestPlanLatencyTriesEveryCountUntilOneMeets(t *testing.T) {
	var events []konvoy.Event
	for i := range 12 {
		events = append(events, konvoy.Event{Key: string(rune('A' + i)), Step: 1, Duration: 10})
	}
	events = append(events, konvoy.Event{Key: "late", Step: 1, Duration: 1, Arrival: 1000})
	for _, p := range konvoy.Policies() {
		plans, err := konvoy.PlanLatency(konvoy.Values(events), []konvoy.Layout{konvoy.Free}, konvoy.LatencyConfig{SLO: konvoy.SLO{Percentile: 100, Rounds: 10}}, konvoy.WithPolicy(p))
		if err != nil || len(plans) != 1 || !plans[0].Meets || plans[0].Consumers != 12 || plans[0].MinConsumers != 1 {
			t.Errorf("%v: %+v, %v; want 12 consumers, from a bound of 1", p, plans, err)
		}
	}
}

// When no count meets the objective, the plan gives the lowest percentile
// any count reached, and that run's figures at the fewest consumers among
// equals: four events of 10 rounds reach 20 rounds on two consumers and on
// three, and the run on two has its 40 rounds of work over 2 × 1001
// consumer-rounds, the events arriving over rounds 0 to 1000.
func TestPlanLatencyThatMissesReportsTheFewestAmongEquals(t *testing.T) {
	var events []konvoy.Event
	for i := range 4 {
		events = append(events, konvoy.Event{Key: string(rune('A' + i)), Step: 1, Duration: 10})
	}
	events = append(events, konvoy.Event{Key: "late", Step: 1, Arrival: 1000})
	plans, err := konvoy.PlanLatency(konvoy.Values(events), []konvoy.Layout{konvoy.Free}, konvoy.LatencyConfig{SLO: konvoy.SLO{Percentile: 100, Rounds: 10}, MaxConsumers: 3})
	if err != nil || len(plans) != 1 {
		t.Fatalf("%+v, %v", plans, err)
	}
	if p := plans[0]; p.Meets || p.Consumers != 0 || p.Achieved != 20 || p.Utilisation != 40.0/(2*1001) {
		t.Errorf("%+v; want no count meeting it, 20 rounds reached, at two consumers' utilisation 0.02", p)
	}
	// The counts tried are kept in a map, whose order varies from run to
	// run: the curve must come sorted every time.
	for range 10 {
		plans, err := konvoy.PlanLatency(konvoy.Values(events), []konvoy.Layout{konvoy.Free}, konvoy.LatencyConfig{SLO: konvoy.SLO{Percentile: 100, Rounds: 10}, MaxConsumers: 3})
		if err != nil {
			t.Fatal(err)
		}
		if want := []konvoy.LatencyPoint{{Consumers: 1, Rounds: 40}, {Consumers: 2, Rounds: 20}, {Consumers: 3, Rounds: 20}}; !slices.Equal(plans[0].Curve, want) {
			t.Fatalf("curve %v; want %v, by consumers", plans[0].Curve, want)
		}
	}
}

// A run that takes no time has no utilisation to speak of: 0, as the field's
// doc says, not the NaN of 0 work over 0 consumer-rounds.
func TestPlanLatencyUtilisationOfARunThatTakesNoTime(t *testing.T) {
	events := []konvoy.Event{{Key: "A", Step: 1}, {Key: "B", Step: 1}}
	plans, err := konvoy.PlanLatency(konvoy.Values(events), []konvoy.Layout{konvoy.Free}, konvoy.LatencyConfig{SLO: konvoy.SLO{Percentile: 99, Rounds: 0}})
	if err != nil || len(plans) != 1 || !plans[0].Meets || plans[0].Consumers != 1 || plans[0].Utilisation != 0 {
		t.Errorf("%+v, %v; want 1 consumer at utilisation 0", plans, err)
	}
}

// The assumptions say how few consumers the work allows only when that
// rules some out: above one.
func TestPlanLatencySaysTheFewestOnlyAboveOne(t *testing.T) {
	four := []konvoy.Event{{Key: "A", Step: 1, Duration: 1}, {Key: "B", Step: 1, Duration: 1}, {Key: "C", Step: 1, Duration: 1}, {Key: "D", Step: 1, Duration: 1}}
	for _, c := range []struct {
		rounds int
		want   string
	}{{2, "fewer than 2 consumers cannot meet it"}, {8, ""}} {
		plans, err := konvoy.PlanLatency(konvoy.Values(four), []konvoy.Layout{konvoy.Free}, konvoy.LatencyConfig{SLO: konvoy.SLO{Percentile: 100, Rounds: c.rounds}})
		if err != nil || len(plans) != 1 {
			t.Fatalf("%+v, %v", plans, err)
		}
		said := ""
		for _, a := range plans[0].Assumptions {
			if strings.HasPrefix(a, "fewer than") {
				said = a
			}
		}
		if !strings.HasPrefix(said, c.want) || (c.want == "") != (said == "") {
			t.Errorf("within %d rounds: the assumptions say %q of the fewest consumers; want %q", c.rounds, said, c.want)
		}
	}
}

// Under a wait objective, the assumption that rules counts out says what
// the bound rests on: the events within the objective start, not finish,
// by the last arrival plus the target, and each consumer's last of them
// may run its longest duration past it.
func TestPlanLatencyWaitBoundSaysTheEventsStartByIt(t *testing.T) {
	four := []konvoy.Event{{Key: "A", Step: 1, Duration: 1}, {Key: "B", Step: 1, Duration: 1}, {Key: "C", Step: 1, Duration: 1}, {Key: "D", Step: 1, Duration: 1}}
	plans, err := konvoy.PlanLatency(konvoy.Values(four), []konvoy.Layout{konvoy.Free}, konvoy.LatencyConfig{SLO: konvoy.SLO{Percentile: 100, Rounds: 1, Wait: true}})
	if err != nil || len(plans) != 1 {
		t.Fatalf("%+v, %v", plans, err)
	}
	want := "fewer than 2 consumers cannot meet it: the events within the objective start by round 1 (the last arrival plus the target), " +
		"each consumer's last of them running 1 round at most past it, and their work does not fit on fewer"
	if !slices.Contains(plans[0].Assumptions, want) {
		t.Errorf("assumptions %q; want %q among them", plans[0].Assumptions, want)
	}
}

// A latency plan never answers fewer consumers than carry the offered
// load, the work over the rounds the events arrive over: fewer fall
// behind the arrivals, and their backlog grows for as long as the traffic
// lasts, whatever the trace's end hides. Utilisation, against those
// rounds, is then at most 1.
func TestLatencyPlanCarriesTheLoad(t *testing.T) {
	t.Parallel()
	rapid.Check(t, func(t *rapid.T) {
		events := arriving.Draw(t, "events")
		l := layoutGen.Draw(t, "layout")
		p := rapid.SampledFrom(konvoy.Policies()).Draw(t, "policy")
		slo := konvoy.SLO{Percentile: rapid.SampledFrom([]float64{50, 99, 100}).Draw(t, "percentile"), Rounds: rapid.IntRange(0, 40).Draw(t, "target")}
		plans, err := konvoy.PlanLatency(konvoy.Values(events), []konvoy.Layout{l}, konvoy.LatencyConfig{SLO: slo, MaxConsumers: 64}, konvoy.WithPolicy(p))
		if err != nil {
			t.Fatal(err)
		}
		plan := plans[0]
		if len(events) == 0 || events[0].Arrival == events[len(events)-1].Arrival || !plan.Meets {
			return
		}
		work, span := 0, events[len(events)-1].Arrival-events[0].Arrival+1
		for _, e := range events {
			work += e.Duration
		}
		if plan.Consumers*span < work || plan.Utilisation > 1 {
			t.Fatalf("%s under %s, %s: %d consumers over %d rounds carry less than the work %d (utilisation %v)", l, p, slo, plan.Consumers, span, work, plan.Utilisation)
		}
	})
}

// The trace of 2,000 events of 3 rounds, 10 arriving a round, is
// 30 consumers' load: 26 met p99 ≤ 40 rounds on it only because it ends
// before their backlog grows past that. The plan answers 30, and says the
// trace is too short to show a steady state, as 29 meet it too.
func TestPlanLatencyOfAShortTraceIsTheLoad(t *testing.T) {
	var events []konvoy.Event
	for i := range 2000 {
		events = append(events, konvoy.Event{Key: fmt.Sprint("K", i), Step: 1, Duration: 3, Arrival: i / 10})
	}
	plans, err := konvoy.PlanLatency(konvoy.Values(events), []konvoy.Layout{konvoy.Free, konvoy.Convoy}, konvoy.LatencyConfig{SLO: konvoy.SLO{Percentile: 99, Rounds: 40}})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range plans {
		if !p.Meets || p.Consumers != 30 || p.LoadFloor != 30 || p.Work != 6000 || p.Span != 200 || !p.ShortTrace || p.Utilisation != 1 {
			t.Errorf("%s: %+v; want 30 consumers, the load, on a trace too short to show a steady state", p.Layout, p)
		}
		if !slices.ContainsFunc(p.Assumptions, func(a string) bool {
			return strings.HasPrefix(a, "the trace is too short to show a steady state: it meets the objective at 29 consumers too")
		}) {
			t.Errorf("%s: assumptions %q do not say the trace is too short", p.Layout, p.Assumptions)
		}
	}
	// A limit of 29, one below the load, rules 29 in: the plan meets at no
	// count, and says the trace is too short all the same.
	plans, err = konvoy.PlanLatency(konvoy.Values(events), []konvoy.Layout{konvoy.Free}, konvoy.LatencyConfig{SLO: konvoy.SLO{Percentile: 99, Rounds: 40}, MaxConsumers: 29})
	if err != nil {
		t.Fatal(err)
	}
	if p := plans[0]; p.Meets || !p.ShortTrace {
		t.Errorf("a limit of 29: meets %v, short trace %v; want no count, and a trace too short", p.Meets, p.ShortTrace)
	}
}

// PlanLatency tries counts beyond the events where they can matter: p2
// (see plan_test.go) meets a maximum of 6 rounds under static dispatch on
// three partitions only with 3 consumers, one more than its events.
func TestPlanLatencyTriesAConsumerForEveryPartition(t *testing.T) {
	plans, err := konvoy.PlanLatency(konvoy.Values(p2), []konvoy.Layout{konvoy.Partitioned(3)}, konvoy.LatencyConfig{SLO: konvoy.SLO{Percentile: 100, Rounds: 6}}, konvoy.WithPolicy(konvoy.Static))
	if err != nil || !plans[0].Meets || plans[0].Consumers != 3 || plans[0].MostConsumers != 3 {
		t.Errorf("%+v, %v; want 3 consumers of at most 3", plans, err)
	}
}

// A trace whose events all arrive in one round has no span to spread its
// work over: it is one burst, shows no steady state, and has no load
// floor; the plan says so and plans the burst alone. Over two rounds the
// same work has a floor: four events of 3 rounds over rounds 0 and 1 are
// 6 consumers' worth, the least answered though 4 meet max ≤ 3.
func TestPlanLatencyOfABurstHasNoLoadFloor(t *testing.T) {
	burst := []konvoy.Event{{Key: "A", Duration: 3}, {Key: "B", Duration: 3}, {Key: "C", Duration: 3}, {Key: "D", Duration: 3}}
	plans, err := konvoy.PlanLatency(konvoy.Values(burst), []konvoy.Layout{konvoy.Free}, konvoy.LatencyConfig{SLO: konvoy.SLO{Percentile: 100, Rounds: 3}})
	if err != nil {
		t.Fatal(err)
	}
	p := plans[0]
	said := slices.Contains(p.Assumptions, "every event arrives in round 0: the trace is one burst and shows no steady state, so the plan is for that burst alone")
	if p.LoadFloor != 0 || p.Span != 1 || p.Consumers != 4 || !said {
		t.Errorf("%+v; want no load floor, 4 consumers, and the burst said", p)
	}
	spread := slices.Clone(burst)
	spread[2].Arrival, spread[3].Arrival = 1, 1
	plans, err = konvoy.PlanLatency(konvoy.Values(spread), []konvoy.Layout{konvoy.Free}, konvoy.LatencyConfig{SLO: konvoy.SLO{Percentile: 100, Rounds: 3}})
	if err != nil {
		t.Fatal(err)
	}
	if p := plans[0]; p.LoadFloor != 6 || p.Span != 2 || p.Consumers != 6 || !p.ShortTrace || p.MostConsumers != 6 {
		t.Errorf("%+v; want a load floor of 6, answered, on a trace too short to show it", p)
	}
	// The span runs from the first arrival, not from round 0: the same
	// trace 100 rounds later has the same floor.
	for i := range spread {
		spread[i].Arrival += 100
	}
	plans, err = konvoy.PlanLatency(konvoy.Values(spread), []konvoy.Layout{konvoy.Free}, konvoy.LatencyConfig{SLO: konvoy.SLO{Percentile: 100, Rounds: 3}})
	if err != nil || plans[0].LoadFloor != 6 || plans[0].Span != 2 || plans[0].Consumers != 6 {
		t.Errorf("100 rounds later: %+v, %v; want the same floor of 6 over 2 rounds", plans, err)
	}
}

// The assumptions speak of the load only when it rules a count out: a
// floor of one consumer, the least there is, goes unsaid; a floor of two
// is said.
func TestPlanLatencySaysTheLoadOnlyAboveOne(t *testing.T) {
	for _, c := range []struct {
		duration int
		want     string
	}{{1, ""}, {11, "fewer than 2 consumers do not carry the offered load: the work, 22 rounds, arrives over the 11 rounds 0 to 10"}} {
		events := []konvoy.Event{{Key: "A", Duration: c.duration}, {Key: "B", Duration: c.duration, Arrival: 10}}
		plans, err := konvoy.PlanLatency(konvoy.Values(events), []konvoy.Layout{konvoy.Free}, konvoy.LatencyConfig{SLO: konvoy.SLO{Percentile: 100, Rounds: 100}})
		if err != nil {
			t.Fatal(err)
		}
		said := ""
		for _, a := range plans[0].Assumptions {
			if strings.Contains(a, "carry the offered load") {
				said = a
			}
		}
		if !strings.HasPrefix(said, c.want) || (c.want == "") != (said == "") {
			t.Errorf("durations of %d: the assumptions say %q of the load; want %q", c.duration, said, c.want)
		}
	}
}

// A Rate whose load passes the largest int caps LoadFloor there, as its
// doc says, and the assumption says that no count carries the load, with
// the load in full, not that fewer than the cap do not: 6 rounds of work
// in 2 events at 1e19 events a round is 3e19 consumers' worth.
func TestALoadPastTheLargestIntIsSaidInFull(t *testing.T) {
	events := []konvoy.Event{{Key: "a", Step: 1, Duration: 3}, {Key: "b", Step: 2, Duration: 3}}
	plans, err := konvoy.PlanLatency(konvoy.Values(events), []konvoy.Layout{konvoy.Free},
		konvoy.LatencyConfig{SLO: konvoy.SLO{Percentile: 50, Rounds: 4}, Rate: 1e19})
	if err != nil {
		t.Fatal(err)
	}
	p := plans[0]
	if p.LoadFloor != math.MaxInt || p.Meets {
		t.Errorf("LoadFloor %d, Meets %v; want math.MaxInt, false", p.LoadFloor, p.Meets)
	}
	said := ""
	for _, a := range p.Assumptions {
		if strings.Contains(a, "the offered load") {
			said = a
		}
	}
	want := fmt.Sprintf("no count up to the largest int, %d, carries the offered load: the work, 6 rounds, arrives over the 2e-19 rounds its 2 events take to arrive at 1e+19 a round, 3e+19 consumers' worth; with any of them", math.MaxInt)
	if !strings.HasPrefix(said, want) {
		t.Errorf("the assumptions say %q of the load; want %q…", said, want)
	}
}

// A trace of no events meets any objective with no consumers, as
// LatencyPlan's doc says: none is needed, whatever MinConsumers says.
func TestAnEmptyTraceMeetsWithNoConsumers(t *testing.T) {
	none := func(func(konvoy.Event, error) bool) {}
	plans, err := konvoy.PlanLatency(none, []konvoy.Layout{konvoy.Convoy}, konvoy.LatencyConfig{SLO: konvoy.SLO{Percentile: 99, Rounds: 10}})
	if err != nil || len(plans) != 1 {
		t.Fatalf("PlanLatency: %v, %v", plans, err)
	}
	if p := plans[0]; !p.Meets || p.Consumers != 0 || p.Events != 0 {
		t.Errorf("Meets %v with %d consumers for %d events; want true with 0 for 0", p.Meets, p.Consumers, p.Events)
	}
}

// A plan's first assumption says how its percentile is counted: by
// nearest rank, within 1/1024 above ExactLatency rounds, or, for the
// objective's max, exactly, as LatencyCounter keeps the largest.
func TestAPlanSaysHowItsPercentileIsCounted(t *testing.T) {
	one := func(yield func(konvoy.Event, error) bool) { yield(konvoy.Event{Key: "a", Step: 1, Duration: 1}, nil) }
	for p, want := range map[float64]string{
		99:  "p99 is by nearest rank, exact below 2048 rounds and above it within 1/1024",
		100: "max is the largest, exact",
	} {
		plans, err := konvoy.PlanLatency(one, []konvoy.Layout{konvoy.Convoy}, konvoy.LatencyConfig{SLO: konvoy.SLO{Percentile: p, Rounds: 10}})
		if err != nil || len(plans) != 1 || len(plans[0].Assumptions) == 0 {
			t.Fatalf("PlanLatency: %v, %v", plans, err)
		}
		if got := plans[0].Assumptions[0]; !strings.HasSuffix(got, "; "+want) {
			t.Errorf("percentile %v: %q; want it to end %q", p, got, want)
		}
	}
}

// Every layout plans under every policy, with a backlog limit as konvoy
// plan sets one or without, and a count it answers meets the objective
// when simulated on its own: under Static the search reads each consumer's
// dealt work off the run (pinnedMost), which a layout without lanes, the
// resequencer's, has none of, where it panicked under a backlog limit
// (found by a review of konvoy plan -slo).
func TestPlanLatencyPlansEveryLayoutUnderEveryPolicy(t *testing.T) {
	var events []konvoy.Event
	for i := range 40 {
		k := fmt.Sprintf("k%d", i%5)
		events = append(events, konvoy.Event{Key: k, Line: fmt.Sprintf("l%d", i%2), Step: i/5 + 1, Duration: 1 + i%3, Arrival: i})
	}
	events[7].Step, events[12].Step = events[12].Step, events[7].Step // keys k2, out of order
	slo := konvoy.SLO{Percentile: 99, Rounds: 6}
	for _, opts := range [][]konvoy.Option{nil, {konvoy.WithMaxBacklog(1 << 20)}} {
		for _, p := range konvoy.Policies() {
			planEveryLayout(t, events, slo, append(opts, konvoy.WithPolicy(p)))
		}
	}
}

// planEveryLayout plans every layout of AllLayouts(3) for slo with opts,
// and checks a count each plan answers on its own.
func planEveryLayout(t *testing.T, events []konvoy.Event, slo konvoy.SLO, opts []konvoy.Option) {
	t.Helper()
	plans, err := konvoy.PlanLatency(konvoy.Values(events), konvoy.AllLayouts(3), konvoy.LatencyConfig{SLO: slo}, opts...)
	if err != nil {
		t.Fatalf("%d options: %v", len(opts), err)
	}
	for _, plan := range plans {
		if !plan.Meets {
			continue
		}
		l, err := konvoy.ParseLayout(plan.Layout)
		if err != nil {
			t.Fatal(err)
		}
		r, err := konvoy.Simulate(events, l, plan.Consumers, opts...)
		if err != nil || r.Response.P99 > slo.Rounds {
			t.Errorf("%s under %s, %d options: %d consumers, whose p99 is %d rounds, %v; want at most %d",
				plan.Layout, plan.Policy, len(opts), plan.Consumers, r.Response.P99, err, slo.Rounds)
		}
	}
}
