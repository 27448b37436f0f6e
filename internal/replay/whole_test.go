package replay

import (
	"math"
	"testing"
	"time"

	"github.com/sirali-konvoy/konvoy"
)

// An instant or a time past an int's range in the predictions' rounds,
// where int has 32 bits (about 35 minutes of microseconds), becomes
// math.MaxInt, which the simulator refuses, not a wrapped value it could
// take as a real one. Where int has 64 bits no replay reaches it (tooLong):
// run this with GOARCH=386 to see it fail without whole.
func TestRoundsPastAnIntsRangeAreNotWrapped(t *testing.T) {
	const at, took = 40 * time.Minute, 50 * time.Minute
	want := func(d time.Duration) int { return int(min(int64(d), math.MaxInt)) }
	e := fromActual(konvoy.Event{Key: "a"}, at, took)
	if e.Arrival != want(at/tick) || e.Duration != want(took/tick) {
		t.Errorf("fromActual: arrival %d, duration %d; want %d and %d", e.Arrival, e.Duration, want(at/tick), want(took/tick))
	}
	p := plannedAt(konvoy.Event{Key: "a", Duration: 3000}, at, time.Second, time.Microsecond)
	if p.Arrival != want(at/time.Microsecond) || p.Duration != want(3000*time.Second/time.Microsecond) {
		t.Errorf("plannedAt: arrival %d, duration %d; want %d and %d", p.Arrival, p.Duration, want(at/time.Microsecond), want(3000*time.Second/time.Microsecond))
	}
	if math.MaxInt == math.MaxInt32 {
		s, err := konvoy.NewSimulator(konvoy.Convoy, 1)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Add(e); err == nil {
			t.Errorf("the simulator took an arrival of math.MaxInt ticks")
		}
	}
}
