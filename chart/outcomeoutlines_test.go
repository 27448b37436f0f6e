package chart

// Each outcome a schedule outlines has an outline of its own: Schedule's
// doc promises "one pattern per outcome", and the legend shows each
// outcome's pattern beside its name, so two outcomes drawn alike could not
// be told apart; a rejected-old box (the resequencer's RejectOld) in
// particular must not look like a skipped one (a version stamp's skip).

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
