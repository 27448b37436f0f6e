package konvoy_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/sirali-konvoy/konvoy"
)

// A resequencer's latency plan says that an event's latency ends as its
// handler finishes, not once it is applied: half the events here wait for
// a step 1 that never comes, held for ever, and the plan meets p99 of 2
// rounds on 1 consumer all the same. It says how many were held, and
// never applied, on the count it answers; where it runs no count (the
// floor misses a target of 0 rounds), it says so without counts. Other
// layouts hold nothing and say nothing of it. (Before, the plan said
// nothing of the 50 events never applied; found by a review.)
func TestAResequencersLatencyPlanSaysItsHoldsAreNotInIt(t *testing.T) {
	var events []konvoy.Event
	for i := range 100 {
		events = append(events, konvoy.Event{Key: fmt.Sprint("K", i), Step: 1 + i%2, Duration: 1, Arrival: i})
	}
	zero := konvoy.WithResequencer(konvoy.ResequencerConfig{Start: konvoy.StartZero})
	const ends = "the latency ends as an event's handler finishes, not once the resequencer applies it: "
	for _, c := range []struct {
		rounds int
		want   string
	}{
		{2, ends + "on 1 consumer, 50 events were held for a gap to fill, 50 of them never applied and the rest held 0 rounds in all, each counted at its handler's finish"},
		{0, ends + "the rounds an event is then held until its gap fills are not in it, and an event never applied counts all the same"},
	} {
		plans, err := konvoy.PlanLatency(konvoy.Values(events), []konvoy.Layout{konvoy.Resequencer, konvoy.Free}, konvoy.LatencyConfig{SLO: konvoy.SLO{Percentile: 99, Rounds: c.rounds}}, zero)
		if err != nil {
			t.Fatal(err)
		}
		if p := plans[0]; p.Meets != (c.rounds > 0) || p.Assumptions[len(p.Assumptions)-1] != c.want {
			t.Errorf("target %d: meets %v on %d; last assumption %q; want %q", c.rounds, p.Meets, p.Consumers, p.Assumptions[len(p.Assumptions)-1], c.want)
		}
		if all := strings.Join(plans[1].Assumptions, "\n"); strings.Contains(all, "resequencer applies") {
			t.Errorf("target %d: free's assumptions speak of holds: %q", c.rounds, plans[1].Assumptions)
		}
	}
}
