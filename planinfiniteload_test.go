package konvoy_test

// PlanConsumers takes any positive finite peak and round length. When
// their product passes the largest float64, the most rounds that keep up,
// events / (peak · round length), is 0, and a trace whose events take no
// time has work 0: the lower bound on the consumers, ⌈work / that⌉, is
// 0/0, NaN, whose conversion to int Go leaves to the platform (the
// smallest int on amd64, which the bound's −1 wraps to the largest). The
// plan then says no count keeps up, though its own ceiling is +Inf events
// a second and one consumer runs the trace in 0 rounds, as the same trace
// planned at a peak of 1 shows. The answer must not depend on the product
// overflowing, nor on the platform.

import (
	"math"
	"testing"

	"github.com/sirali-konvoy/konvoy"
)

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
