package konvoy_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/sirali-konvoy/konvoy"
)

// A rate that would take more than 2^62 rounds to bring the events is
// refused with how long they would take, the events over the rate: two
// events at 2^-62 a round take 2^63 rounds, 9.223e+18, not their product
// with the rate (found by mutation testing: slo.go's message survived
// its quotient turned into a product).
func TestARefusedRateSaysHowLongItsEventsTakeToArrive(t *testing.T) {
	events := []konvoy.Event{{Key: "a", Step: 1, Duration: 1}, {Key: "b", Step: 1, Duration: 1, Arrival: 9}}
	cfg := konvoy.LatencyConfig{SLO: konvoy.SLO{Percentile: 100, Rounds: 5}, Rate: 0x1p-62}
	_, err := konvoy.PlanLatency(konvoy.Values(events), []konvoy.Layout{konvoy.Free}, cfg)
	const want = "konvoy: arrival rate 2.168404344971009e-19: its 2 events would take 9.223e+18 rounds to arrive; want a rate that brings them within 2^62"
	if err == nil || err.Error() != want {
		t.Errorf("error %v; want %q", err, want)
	}
}

// The consumer limit may be MaxConsumers itself: LatencyConfig's doc says
// "up to [MaxConsumers]", and a limit that high costs nothing on a small
// trace, whose search stops at its events (found by mutation testing:
// slo.go's check survived refusing a limit of MaxConsumers).
func TestPlanLatencyTakesALimitOfMaxConsumers(t *testing.T) {
	events := []konvoy.Event{{Key: "a", Step: 1, Duration: 2}, {Key: "b", Step: 1, Duration: 2}}
	cfg := konvoy.LatencyConfig{SLO: konvoy.SLO{Percentile: 100, Rounds: 2}, MaxConsumers: konvoy.MaxConsumers}
	plans, err := konvoy.PlanLatency(konvoy.Values(events), []konvoy.Layout{konvoy.Free}, cfg)
	if err != nil {
		t.Fatalf("a limit of MaxConsumers: %v; want a plan", err)
	}
	if p := plans[0]; !p.Meets || p.Consumers != 2 || p.MostConsumers != 2 {
		t.Errorf("plan %+v; want 2 consumers, the most that matter", p)
	}
}

// The fewest consumers the work allows counts the work of every event
// that must meet the objective, however many durations it spans: four
// events at round 0 of 3, 3, 1 and 1 rounds, all within 3 rounds, bring 8
// rounds of work that does not fit on 2 consumers by round 3, so
// MinConsumers is 3, not the 2 rounds of the shortest two alone, which
// would make it 1 (found by mutation testing: slo.go's fewest survived
// stopping after the shortest duration's events).
func TestTheFewestConsumersCountEveryDuration(t *testing.T) {
	events := []konvoy.Event{{Key: "A", Step: 1, Duration: 3}, {Key: "B", Step: 1, Duration: 3}, {Key: "C", Step: 1, Duration: 1}, {Key: "D", Step: 1, Duration: 1}}
	plans, err := konvoy.PlanLatency(konvoy.Values(events), []konvoy.Layout{konvoy.Free}, konvoy.LatencyConfig{SLO: konvoy.SLO{Percentile: 100, Rounds: 3}})
	if err != nil {
		t.Fatal(err)
	}
	if p := plans[0]; p.MinConsumers != 3 || !p.Meets || p.Consumers != 3 {
		t.Errorf("plan %+v; want MinConsumers 3, met on 3", p)
	}
}

// A stream of exactly 65,536 events, the most PlanLatency holds, is held
// whole: read once, and the passes after the first run all of it. Events
// 0 to 65,534 arrive one a round, and the last arrives with the one
// before it, so one consumer makes one event wait a round: the curve's
// point at 1 consumer, asked for in Counts and run from the held events,
// is 2 rounds of response, 1 only if the last event were dropped (found
// by mutation testing: slo.go's planStream survived holding one event
// fewer than it says it holds, and holding a stream of exactly 65,536 not
// at all).
func TestPlanLatencyHoldsAStreamOfExactlyTheMostItHolds(t *testing.T) {
	const most = 1 << 16
	events := make([]konvoy.Event, most)
	for i := range events {
		events[i] = konvoy.Event{Key: fmt.Sprint(i), Step: 1, Duration: 1, Arrival: min(i, most-2)}
	}
	reads := 0
	counted := func(yield func(konvoy.Event, error) bool) {
		reads++
		for e, err := range konvoy.Values(events) {
			if !yield(e, err) {
				return
			}
		}
	}
	cfg := konvoy.LatencyConfig{SLO: konvoy.SLO{Percentile: 100, Rounds: 1}, Counts: []int{1}}
	plans, err := konvoy.PlanLatency(counted, []konvoy.Layout{konvoy.Free}, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if reads != 1 {
		t.Errorf("%d events were read %d times; want once", most, reads)
	}
	p := plans[0]
	if len(p.Curve) == 0 || p.Curve[0] != (konvoy.LatencyPoint{Consumers: 1, Rounds: 2}) {
		t.Errorf("curve %v; want 2 rounds at 1 consumer first", p.Curve)
	}
}

// A Rate whose load is exactly 2^63 consumers, one round of work in one
// event at 2^63 events a round, is past the largest int (2^63−1) too, and
// LoadFloor is math.MaxInt, as its doc says: 2^63 does not convert to an
// int (on amd64 it reads as the smallest int, and the load floor as 1)
// (found by mutation testing: slo.go's ceilInt survived capping only
// above 2^63).
func TestALoadOfExactly2To63IsPastTheLargestInt(t *testing.T) {
	events := []konvoy.Event{{Key: "a", Step: 1, Duration: 1}}
	plans, err := konvoy.PlanLatency(konvoy.Values(events), []konvoy.Layout{konvoy.Free},
		konvoy.LatencyConfig{SLO: konvoy.SLO{Percentile: 100, Rounds: 4}, Rate: 0x1p63})
	if err != nil {
		t.Fatal(err)
	}
	if p := plans[0]; p.LoadFloor != math.MaxInt || p.Meets {
		t.Errorf("LoadFloor %d, Meets %v; want math.MaxInt, false", p.LoadFloor, p.Meets)
	}
}

// A search one count after another, under a policy other than
// HeadOfLine, tries 2·4 counts a pass: nine events at round 0 of a round
// each, within 1 round, need 9 consumers, and a tenth event at round 100
// keeps the fewest the work allows at 1, so the first pass tries 1 to 8,
// which miss, and the second 9 and 10, the most that matter, both on the
// curve though 9 meets (found by mutation testing: slo.go's next
// survived trying 9 counts a pass, which ends the search at 9).
func TestALaneAwareSearchTriesEightCountsAPass(t *testing.T) {
	p := laneAwarePlan(t, 9, 100, 1)
	counts := triedCounts(p)
	if !p.Meets || p.Consumers != 9 || p.MinConsumers != 1 || counts != "[1 2 3 4 5 6 7 8 9 10]" {
		t.Errorf("plan %+v, counts tried %v; want 9 consumers, from 1, and 1 to 10 tried", p, counts)
	}
}

// Under HeadOfLine the first pass tries, from the fewest, up to 7 counts
// doubling, then the most: 1,024 events of a round each at round 0,
// within 1,024 rounds, are met on 1 consumer, and the first pass, which
// ends the search, tries 1, 2, 4, … 64 and 1,024, not 128 or 256 (found
// by mutation testing: slo.go's next survived trying 8 or 9 doublings).
func TestABisectedSearchsFirstPassTriesSevenDoublingsAndTheMost(t *testing.T) {
	events := make([]konvoy.Event, 1024)
	for i := range events {
		events[i] = konvoy.Event{Key: fmt.Sprint(i), Step: 1, Duration: 1}
	}
	plans, err := konvoy.PlanLatency(konvoy.Values(events), []konvoy.Layout{konvoy.Free}, konvoy.LatencyConfig{SLO: konvoy.SLO{Percentile: 100, Rounds: 1024}})
	if err != nil {
		t.Fatal(err)
	}
	p := plans[0]
	counts := triedCounts(p)
	if !p.Meets || p.Consumers != 1 || counts != "[1 2 4 8 16 32 64 1024]" {
		t.Errorf("meets %v on %d, counts tried %v; want 1 consumer, and 1 to 64 doubling and 1024 tried", p.Meets, p.Consumers, counts)
	}
}

// Under HeadOfLine each pass after the first tries 4 counts evenly
// between the bounds, lo + (hi−lo)·j/5 for j = 1 … 4: 1,024 events of a
// round each at round 0, and one at round 10,000 that keeps the fewest
// the work allows at 1, need 94 consumers to finish within 11 rounds
// (⌈1024/94⌉ = 11); the first pass leaves the bounds 64 and 1,024, and
// the passes after try 256, 448, 640, 832; 102, 140, 179, 217; 71, 79,
// 86, 94; 87, 89, 90, 92; and 93 (found by mutation testing: slo.go's
// next survived trying 3 counts a pass, or 2, or counts off the even
// spacing).
func TestABisectedSearchTriesFourCountsEvenlyBetweenItsBounds(t *testing.T) {
	events := make([]konvoy.Event, 1024, 1025)
	for i := range events {
		events[i] = konvoy.Event{Key: fmt.Sprint(i), Step: 1, Duration: 1}
	}
	events = append(events, konvoy.Event{Key: "late", Step: 1, Duration: 1, Arrival: 10000})
	plans, err := konvoy.PlanLatency(konvoy.Values(events), []konvoy.Layout{konvoy.Free}, konvoy.LatencyConfig{SLO: konvoy.SLO{Percentile: 100, Rounds: 11}})
	if err != nil {
		t.Fatal(err)
	}
	p := plans[0]
	counts := triedCounts(p)
	const want = "[1 2 4 8 16 32 64 71 79 86 87 89 90 92 93 94 102 140 179 217 256 448 640 832 1024]"
	if !p.Meets || p.Consumers != 94 || counts != want {
		t.Errorf("meets %v on %d, counts tried %v; want 94 consumers, and %s tried", p.Meets, p.Consumers, counts, want)
	}
}

// A search one count after another ends with the pass in which a count
// first meets the objective, even when that count is not the pass's last:
// 30 events of a round each at round 0, within 3 rounds, need 10
// consumers, and one at round 1,000 keeps the fewest the work allows at
// 1, so the first pass tries 1 to 8 and the second 9 to 16, where 10
// meets; no third pass runs 17 (found by mutation testing this stop's
// change to the search's end).
func TestALaneAwareSearchEndsWithThePassThatMeets(t *testing.T) {
	p := laneAwarePlan(t, 30, 1000, 3)
	counts := triedCounts(p)
	if !p.Meets || p.Consumers != 10 || counts != "[1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16]" {
		t.Errorf("plan %+v, counts tried %v; want 10 consumers, and 1 to 16 tried", p, counts)
	}
}

// triedCounts writes the consumer counts of p's curve, the counts its
// search tried, as fmt writes a slice: "[1 2 4]".
func triedCounts(p konvoy.LatencyPlan) string {
	var counts []int
	for _, pt := range p.Curve {
		counts = append(counts, pt.Consumers)
	}
	return fmt.Sprint(counts)
}

// laneAwarePlan plans, under LaneAware, the free layout of n events of a
// round each at round 0 and one more at round late, for their largest
// response within target rounds.
func laneAwarePlan(t *testing.T, n, late, target int) konvoy.LatencyPlan {
	t.Helper()
	var events []konvoy.Event
	for i := range n {
		events = append(events, konvoy.Event{Key: fmt.Sprint(i), Step: 1, Duration: 1})
	}
	events = append(events, konvoy.Event{Key: "late", Step: 1, Duration: 1, Arrival: late})
	plans, err := konvoy.PlanLatency(konvoy.Values(events), []konvoy.Layout{konvoy.Free},
		konvoy.LatencyConfig{SLO: konvoy.SLO{Percentile: 100, Rounds: target}}, konvoy.WithPolicy(konvoy.LaneAware))
	if err != nil {
		t.Fatal(err)
	}
	return plans[0]
}
