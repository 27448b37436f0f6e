package konvoy_test

import (
	"testing"

	"github.com/sirali-konvoy/konvoy"
)

// A layout without lanes holds no more events than its consumers under
// Static, as HoldsBacklog says and under the other policies: an event goes
// to the earliest free consumer, whose event before it has finished and
// is applied by then, so WithMaxBacklog of the consumers is never reached.
func TestStaticWithoutLanesHoldsNoMoreThanItsConsumers(t *testing.T) {
	burst := []konvoy.Event{
		{Key: "a", Step: 1, Duration: 5},
		{Key: "b", Step: 1, Duration: 5},
		{Key: "c", Step: 1, Duration: 5},
		{Key: "d", Step: 1, Duration: 5},
	}
	for _, l := range []konvoy.Layout{konvoy.Free, konvoy.VersionStamp, konvoy.NewLayout("none", nil)} {
		for _, p := range konvoy.Policies() {
			if l.HoldsBacklog(p) {
				t.Fatalf("%s under %s holds a backlog, it says; the test assumes not", l, p)
			}
			for c := 1; c <= 3; c++ {
				// WithSchedule keeps p's own dispatcher: without it a run
				// without lanes gets head-of-line's (see dispatchedAs).
				if _, err := konvoy.Simulate(burst, l, c, konvoy.WithPolicy(p), konvoy.WithMaxBacklog(c), konvoy.WithSchedule(len(burst))); err != nil {
					t.Errorf("%s, %s, %d consumers, WithMaxBacklog(%d): %v", l, p, c, c, err)
				}
			}
		}
	}
}
