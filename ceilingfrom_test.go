package konvoy_test

import (
	"testing"

	"github.com/sirali-konvoy/konvoy"
)

// Plan.CeilingFrom "is the arrival from which CeilingLane is busy without a
// break until the run ends", and "a ceiling with CeilingFrom above 0 is set
// by the arrivals as much as by the lane"; issue 23 (item 3) asks the plan
// to name what sets the floor. Lane a's first event runs from round 0 to 5
// and its second, arriving at 5, from 5 to 10: the lane is busy without a
// break from round 0, and the ceiling of 10 rounds is the lane's load
// alone, as it is when the second event arrives at 4. An event that
// arrives exactly when its lane frees must not start a new stretch, or the
// plan blames "the arrival at round 5" for a ceiling no arrival sets.
func TestALaneBusyBackToBackSetsTheCeilingFromItsStart(t *testing.T) {
	events := []konvoy.Event{
		{Key: "a", Step: 1, Duration: 5},
		{Key: "a", Step: 2, Duration: 5, Arrival: 5},
	}
	p, err := konvoy.PlanConsumers(konvoy.Values(events), konvoy.Convoy, konvoy.PlanConfig{Peak: 0.1, RoundSeconds: 1})
	if err != nil {
		t.Fatal(err)
	}
	if p.CeilingRounds != 10 || p.CeilingLane != "a" || p.CeilingFrom != 0 {
		t.Errorf("ceiling %d rounds from round %d in lane %q; want 10 from round 0 in lane a, busy without a break from its first event\nassumptions: %q",
			p.CeilingRounds, p.CeilingFrom, p.CeilingLane, p.Assumptions)
	}
}

// Plan.CeilingLane is "" when no lane sets the ceiling: when the events
// that end last take no rounds, the ceiling is the last arrival (or 0),
// which no lane's work sets, and the plan's words blame the arrival, not
// a lane of no work. (Before, the lane of the first event to finish last
// was named all the same: "a", at round 0, of a trace of durations 0,
// found by a review.)
func TestNoLaneSetsACeilingOfNoWork(t *testing.T) {
	for _, c := range []struct {
		name   string
		events []konvoy.Event
		rounds int
	}{
		{"every duration 0", []konvoy.Event{{Key: "a", Step: 1}, {Key: "b", Step: 1}}, 0},
		{"the last arrival's event of no work", []konvoy.Event{{Key: "a", Step: 1, Duration: 2}, {Key: "b", Step: 1, Arrival: 5}}, 5},
	} {
		p, err := konvoy.PlanConsumers(konvoy.Values(c.events), konvoy.Convoy, konvoy.PlanConfig{Peak: 0.1, RoundSeconds: 1})
		if err != nil {
			t.Fatal(err)
		}
		if p.CeilingRounds != c.rounds || p.CeilingLane != "" || p.CeilingFrom != c.rounds {
			t.Errorf("%s: ceiling %d rounds from round %d in lane %q; want %d from round %d in no lane\nassumptions: %q",
				c.name, p.CeilingRounds, p.CeilingFrom, p.CeilingLane, c.rounds, c.rounds, p.Assumptions)
		}
		if last := p.Assumptions[len(p.Assumptions)-1]; c.rounds > 0 && last != "no consumer count beats 5 rounds: the arrival at round 5 plus the 0 rounds the event that ends last takes" {
			t.Errorf("%s: last assumption %q; want the arrival at round 5 named", c.name, last)
		}
	}
}
