package konvoy_test

import (
	"testing"

	"github.com/sirali-konvoy/konvoy"
)

// When no count meets the objective but the floor does, Achieved is the
// lowest percentile of the counts tried from MinConsumers up, and that
// includes MinConsumers itself. Four events of one round arrive at round 0
// and a fifth at round 3, all on their own keys: the work is 5 over a span
// of 4 rounds, so LoadFloor is ⌈5/4⌉ = 2, and the work bound gives the same
// (5 rounds of work into last arrival 3 + 1 round: ⌈5/4⌉ = 2), so
// MinConsumers is 2 and no LoadFloor−1 run is made. With the limit at 2 the
// only count tried is 2, where the burst's third and fourth events wait a
// round: the largest response is 2 rounds, over the objective of 1. With a
// consumer for every event each finishes a round after it arrives, so the
// floor, 1, meets. The plan must say 2 rounds were achieved on 2 consumers,
// not fall back to the floor as if no count had been tried.
func TestAPlanThatMeetsAtNoCountAchievesWhatMinConsumersReaches(t *testing.T) {
	events := []konvoy.Event{
		{Key: "A", Duration: 1}, {Key: "B", Duration: 1}, {Key: "C", Duration: 1}, {Key: "D", Duration: 1},
		{Key: "E", Duration: 1, Arrival: 3},
	}
	for _, policy := range []konvoy.Policy{konvoy.HeadOfLine, konvoy.LaneAware} {
		plans, err := konvoy.PlanLatency(konvoy.Values(events), []konvoy.Layout{konvoy.Free},
			konvoy.LatencyConfig{SLO: konvoy.SLO{Percentile: 100, Rounds: 1}, MaxConsumers: 2}, konvoy.WithPolicy(policy))
		if err != nil {
			t.Fatal(err)
		}
		p := plans[0]
		if p.MinConsumers != 2 || p.MostConsumers != 2 || p.LoadFloor != 2 || p.Floor != 1 {
			t.Fatalf("%s: plan %+v; want MinConsumers, MostConsumers and LoadFloor 2, Floor 1", policy, p)
		}
		if len(p.Curve) != 1 || p.Curve[0] != (konvoy.LatencyPoint{Consumers: 2, Rounds: 2}) {
			t.Fatalf("%s: curve %v; want only 2 consumers at 2 rounds", policy, p.Curve)
		}
		if p.Meets || p.Consumers != 0 || p.AtFloor || p.Achieved != 2 {
			t.Errorf("%s: Meets %v, Consumers %d, AtFloor %v, Achieved %d; want false, 0, false, 2 (the run on MinConsumers)",
				policy, p.Meets, p.Consumers, p.AtFloor, p.Achieved)
		}
	}
}
