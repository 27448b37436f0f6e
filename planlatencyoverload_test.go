package konvoy_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/sirali-konvoy/konvoy"
)

// hotLane is blocks×4 rounds of steady traffic: every 4 rounds the key H
// gets 4 events of hot rounds' work in all (hot−3, 1, 1, 1), one a round,
// and 3 keys of their own get an event of 1 round each: 3+hot rounds of
// work every 4, over 1 consumer's worth, so that LoadFloor is 2.
func hotLane(blocks, hot int) []konvoy.Event {
	var evs []konvoy.Event
	step := 0
	for b := range blocks {
		for i, d := range []int{hot - 3, 1, 1, 1} {
			step++
			evs = append(evs, konvoy.Event{Key: "H", Step: step, Duration: d, Arrival: 4*b + i})
			if i < 3 {
				evs = append(evs, konvoy.Event{Key: fmt.Sprint("k", b, "-", i), Step: 1, Duration: 1, Arrival: 4*b + i})
			}
		}
	}
	return evs
}

// A lane that carries more work than the rounds its events arrive over
// falls behind them whatever the consumers, since it runs one event at a
// time: no count meets an objective in a steady state, as none below the
// load floor does. Here H's lane carries 5 rounds of work every 4; on 40
// rounds, 2 consumers keep the max response at 11 rounds, but the same
// traffic for longer misses 11 at every count, the response growing with
// the trace. (Before, the plan answered 2 consumers, ShortTrace false;
// found by a review.) With 4 rounds every 4, H's lane keeps up, and the
// plan answers as before.
func TestALatencyPlanOfAnOverloadedLaneMeetsNoCount(t *testing.T) {
	short := hotLane(10, 5)
	two, err := konvoy.Simulate(short, konvoy.Convoy, 2)
	if err != nil {
		t.Fatal(err)
	}
	slo := konvoy.SLO{Percentile: 100, Rounds: two.Response.Max}
	long, err := konvoy.Simulate(hotLane(80, 5), konvoy.Convoy, 1<<10)
	if err != nil {
		t.Fatal(err)
	}
	if long.Response.Max <= slo.Rounds {
		t.Fatalf("construction: the long trace's max response with a consumer for every event is %d, within %v", long.Response.Max, slo)
	}
	plans, err := konvoy.PlanLatency(konvoy.Values(short), []konvoy.Layout{konvoy.Convoy}, konvoy.LatencyConfig{SLO: slo, Counts: []int{2}})
	if err != nil {
		t.Fatal(err)
	}
	p := plans[0]
	if p.Meets || p.Consumers != 0 || p.OverloadedLane != "H" || p.OverloadedWork != 50 || p.Span != 40 || p.LoadFloor != 2 {
		t.Errorf("plan: meets %v on %d consumers, overloaded lane %q of %d rounds over %d, load floor %d; want no count, lane H of 50 rounds over 40, load floor 2",
			p.Meets, p.Consumers, p.OverloadedLane, p.OverloadedWork, p.Span, p.LoadFloor)
	}
	want := "lane H carries 50 rounds of work over the 40 rounds the events arrive over, 1.25 consumers' worth, and runs one event at a time: " +
		"its backlog grows for as long as the traffic lasts, whatever the consumers, so no count meets the objective in a steady state"
	if last := p.Assumptions[len(p.Assumptions)-1]; last != want {
		t.Errorf("last assumption %q; want %q", last, want)
	}
	if len(p.Curve) != 1 || p.Curve[0] != (konvoy.LatencyPoint{Consumers: 2, Rounds: slo.Rounds}) || p.Achieved != slo.Rounds {
		t.Errorf("curve %v, achieved %d; want the count asked for, 2, at %d rounds, and that as the lowest reached", p.Curve, p.Achieved, slo.Rounds)
	}
	// A lane that keeps up: 4 rounds of work every 4.
	plans, err = konvoy.PlanLatency(konvoy.Values(hotLane(10, 4)), []konvoy.Layout{konvoy.Convoy}, konvoy.LatencyConfig{SLO: slo})
	if err != nil {
		t.Fatal(err)
	}
	if p := plans[0]; !p.Meets || p.OverloadedLane != "" || p.OverloadedWork != 0 || strings.Contains(strings.Join(p.Assumptions, "\n"), "runs one event at a time") {
		t.Errorf("a lane of 40 rounds over 40: meets %v on %d, overloaded lane %q of %d; want a count, no lane overloaded\n%q", p.Meets, p.Consumers, p.OverloadedLane, p.OverloadedWork, p.Assumptions)
	}
}
