package chart

// Schedule's doc: a box whose event was written backward, skipped, held,
// discarded or never applied has a black outline, "one pattern per
// outcome", and the legend shows each outcome's pattern beside its name.
// Two outcomes drawn alike cannot be told apart in the picture: a
// rejected-old box (the resequencer's RejectOld) has exactly the skipped
// box's outline, dashes 3 and 2, so a reader cannot tell a version stamp's
// skip from a resequencer's rejection.

import (
	"slices"
	"testing"

	"github.com/sirali-konvoy/konvoy"
)

func TestEachOutcomeHasItsOwnOutline(t *testing.T) {
	var outcomes []konvoy.Outcome
	for o := range outlines {
		outcomes = append(outcomes, o)
	}
	slices.Sort(outcomes)
	for i, a := range outcomes {
		for _, b := range outcomes[i+1:] {
			la, lb := outlines[a], outlines[b]
			if la.Color == lb.Color && la.Width == lb.Width && slices.Equal(la.Dashes, lb.Dashes) && la.DashOffs == lb.DashOffs {
				t.Errorf("the outcomes %s and %s have the same outline (dashes %v): the schedule's boxes and legend cannot tell them apart", a, b, la.Dashes)
			}
		}
	}
}
