package konvoy_test

import (
	"testing"

	"github.com/sirali-konvoy/konvoy"
)

// PlanLatency runs LoadFloor−1 consumers once when no other bound rules
// that count out, a consumer limit of exactly LoadFloor−1 included, which
// leaves no count from the load floor up to search; when they meet the
// objective all the same, the plan says the trace is too short to show a
// steady state (LatencyPlan.ShortTrace).
func TestLatencyPlanAtALimitBelowTheLoadStillTellsAShortTrace(t *testing.T) {
	// Work 10 arriving over rounds 0 to 2: a load floor of ⌈10/3⌉ = 4.
	events := []konvoy.Event{
		{Key: "a", Duration: 1},
		{Key: "a", Duration: 2},
		{Key: "a", Duration: 7, Arrival: 2},
	}
	slo := konvoy.SLO{Percentile: 50, Rounds: 40}
	plans, err := konvoy.PlanLatency(konvoy.Values(events), []konvoy.Layout{konvoy.Free}, konvoy.LatencyConfig{SLO: slo, MaxConsumers: 3})
	if err != nil {
		t.Fatal(err)
	}
	plan := plans[0]
	if plan.LoadFloor != 4 {
		t.Fatalf("load floor %d; want 4", plan.LoadFloor)
	}
	r, err := konvoy.Simulate(events, konvoy.Free, 3)
	if err != nil {
		t.Fatal(err)
	}
	if r.Response.P50 > slo.Rounds {
		t.Fatalf("3 consumers reach p50 %d; the test needs them to meet %d", r.Response.P50, slo.Rounds)
	}
	if !plan.ShortTrace {
		t.Errorf("3 consumers (LoadFloor−1, within the limit of 3) meet %s, yet the plan does not say the trace is short: %+v", slo, plan)
	}
}

// LoadFloor−1 is run when it is 1, the fewest consumers there are: two
// events, 3 rounds of work arriving over rounds 0 and 1, make a load
// floor of 2, and one consumer meets p50 ≤ 40 all the same: the trace is
// short.
func TestLatencyPlanTriesOneConsumerBelowALoadFloorOfTwo(t *testing.T) {
	events := []konvoy.Event{{Key: "a", Duration: 2}, {Key: "b", Duration: 1, Arrival: 1}}
	plans, err := konvoy.PlanLatency(konvoy.Values(events), []konvoy.Layout{konvoy.Free}, konvoy.LatencyConfig{SLO: konvoy.SLO{Percentile: 50, Rounds: 40}})
	if err != nil {
		t.Fatal(err)
	}
	if p := plans[0]; p.LoadFloor != 2 || !p.ShortTrace {
		t.Errorf("load floor %d, short trace %v; want 2 and true: one consumer meets p50 ≤ 40\n%+v", p.LoadFloor, p.ShortTrace, p)
	}
}
