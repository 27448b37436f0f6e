package synth_test

import (
	"math"
	"strconv"
	"testing"

	"github.com/sirali-konvoy/konvoy/internal/seqtest"

	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/synth"
)

// small returns a valid configuration small enough for tests: 1,000 keys on
// 10 lines, 7 events per lifecycle of which 4 ordered, 20 in flight.
func small(events int) synth.Config {
	c := synth.Default()
	c.Events = events
	c.Keys = 1000
	c.Lines = 10
	c.InFlight = 20
	return c
}

// collect returns the stream of c as a slice.
func collect(t testing.TB, c synth.Config) []konvoy.Event {
	t.Helper()
	if err := c.Check(); err != nil {
		t.Fatalf("Check: %v", err)
	}
	return seqtest.Drain(synth.Events(c))
}

// byKey returns each key's events in stream order, and the keys in order of
// first appearance.
func byKey(events []konvoy.Event) (map[string][]konvoy.Event, []string) {
	m := map[string][]konvoy.Event{}
	var order []string
	for _, e := range events {
		if _, ok := m[e.Key]; !ok {
			order = append(order, e.Key)
		}
		m[e.Key] = append(m[e.Key], e)
	}
	return m, order
}

// orderedSteps returns the nonzero steps of events, in order.
func orderedSteps(events []konvoy.Event) []int {
	var s []int
	for _, e := range events {
		if e.Step != 0 {
			s = append(s, e.Step)
		}
	}
	return s
}

// keyName returns the name of the key of rank r among n keys.
func keyName(r, n int) string {
	s := strconv.Itoa(r)
	for len(s) < len(strconv.Itoa(n)) {
		s = "0" + s
	}
	return "K" + s
}

// zipfShares returns the Zipf shares of ranks 1 to n with exponent s.
func zipfShares(n int, s float64) []float64 {
	w := make([]float64, n)
	total := 0.0
	for r := range w {
		w[r] = math.Pow(float64(r+1), -s)
		total += w[r]
	}
	for r := range w {
		w[r] /= total
	}
	return w
}

// within fails t unless |got − want| ≤ tol.
func within(t *testing.T, what string, got, want, tol float64) {
	t.Helper()
	if math.Abs(got-want) > tol {
		t.Errorf("%s = %.6g; want %.6g ± %.3g", what, got, want, tol)
	}
}
