package konvoy_test

import (
	"testing"

	"github.com/sirali-konvoy/konvoy"
)

// TestNeedsLineIsTrueForLineConvoyAlone pins Layout.NeedsLine's doc: "true
// for [LineConvoy] alone". It is the one layout whose lanes are lines
// (Layout.Lane errs on an event without a Line under it and no other), so
// every other built-in, Recorded and a NewLayout with or without lanes
// says false. (A mutant that negated it lived: no test of the root package
// called NeedsLine.)
func TestNeedsLineIsTrueForLineConvoyAlone(t *testing.T) {
	byLetter := func(e konvoy.Event) (string, bool) { return e.Key[:1], true }
	layouts := append(konvoy.AllLayouts(4), konvoy.Recorded(2), konvoy.NewLayout("mine", byLetter), konvoy.NewLayout("none", nil), konvoy.Layout{})
	for _, l := range layouts {
		want := l.Equal(konvoy.LineConvoy)
		if got := l.NeedsLine(); got != want {
			t.Errorf("%s.NeedsLine() = %v; want %v", l, got, want)
		}
		// The same, as Lane tells it: only a layout that needs a line errs
		// on an event without one.
		if _, _, err := l.Lane(konvoy.Event{Key: "k", Step: 1}); (err != nil) != want {
			t.Errorf("%s.Lane of an event without a Line: error %v; NeedsLine %v", l, err, want)
		}
	}
}
