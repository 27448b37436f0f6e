package konvoy_test

import (
	"math"
	"testing"

	"github.com/sirali-konvoy/konvoy"
)

// PlanConsumers takes any positive finite peak and round length, their
// product past the largest float64 included: a trace whose events take no
// time keeps up on one consumer in 0 rounds, at a rate of +Inf, its
// ceiling, whatever the platform's conversion of a NaN or an infinity.
func TestPlanOfATraceThatTakesNoTimeKeepsUpAtAnyPeak(t *testing.T) {
	events := []konvoy.Event{{Key: "a", Step: 1}, {Key: "b", Step: 1}}
	cfg := konvoy.PlanConfig{Peak: 1e200, RoundSeconds: 1e200}
	plan, err := konvoy.PlanConsumers(konvoy.Values(events), konvoy.Convoy, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !math.IsInf(plan.Ceiling, 1) {
		t.Fatalf("ceiling %v; want +Inf for a trace whose events take no time", plan.Ceiling)
	}
	if plan.Consumers != 1 || plan.Rounds != 0 || !math.IsInf(plan.Rate, 1) {
		t.Errorf("peak %g, round %gs: %d consumers, %d rounds, rate %v; want 1 consumer, 0 rounds, +Inf (the ceiling is %v)",
			cfg.Peak, cfg.RoundSeconds, plan.Consumers, plan.Rounds, plan.Rate, plan.Ceiling)
	}
}
