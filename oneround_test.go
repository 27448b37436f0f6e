package konvoy_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/lesson"
)

// oneRounds finds "1 rounds", not "0.1 rounds".
var oneRounds = regexp.MustCompile(`(^|[^0-9.])1 rounds\b`)

// A plan's assumptions write an amount of one round in the singular: a
// budget of at most 1 round (the lesson's 20 events at 2000 events/s, a
// round of 10ms), and the 1 round events take to arrive at their rate.
// (They wrote "1 rounds"; found by a review.)
func TestAPlansAssumptionsWriteOneRoundInTheSingular(t *testing.T) {
	p, err := konvoy.PlanConsumers(konvoy.Values(lesson.Events()), konvoy.Convoy, konvoy.PlanConfig{Peak: 2000, RoundSeconds: 0.01})
	if err != nil {
		t.Fatal(err)
	}
	says(t, "PlanConsumers", p.Assumptions, "keeping up means at most 1 round")
	events := []konvoy.Event{{Key: "A", Line: "x", Step: 1, Duration: 5}, {Key: "A", Line: "x", Step: 2, Duration: 5}}
	plans, err := konvoy.PlanLatency(konvoy.Values(events), []konvoy.Layout{konvoy.Convoy}, konvoy.LatencyConfig{SLO: konvoy.SLO{Percentile: 99, Rounds: 100}, Rate: 2})
	if err != nil {
		t.Fatal(err)
	}
	says(t, "PlanLatency", plans[0].Assumptions, "the 1 round its 2 events take to arrive at 2 a round")
}

// says checks that the assumptions of what name planned hold want, and
// no "1 rounds".
func says(t *testing.T, name string, assumptions []string, want string) {
	t.Helper()
	all := strings.Join(assumptions, "\n")
	if !strings.Contains(all, want) {
		t.Errorf("%s's assumptions do not say %q:\n%s", name, want, all)
	}
	if m := oneRounds.FindStringIndex(all); m != nil {
		t.Errorf("%s's assumptions write %q; want \"1 round\"", name, all[max(0, m[0]-40):m[1]])
	}
}
