package chart

import (
	"math"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
)

// The powers of two on an SLO picture's logarithmic axis of consumer
// counts are labelled only where their labels stand apart, the top always:
// over 1 to 154,854 on 10 cm, 16384, 32768, 65536 and 154854 overlapped
// (found by a review). Unfitted, every mark is labelled.
func TestPowersOfTwoLabelsStandApart(t *testing.T) {
	const lo, hi = 1.0, 154854.0
	if n := labelled(powersOfTwo{}.Ticks(lo, hi)); n != 18 {
		t.Errorf("unfitted: %d labels; want 18, every mark", n)
	}
	length := 10 * vg.Centimeter
	ticks := powersOfTwo{}.fitted(length, false).Ticks(lo, hi)
	at := func(v float64) vg.Length { return length * vg.Length(math.Log(v/lo)/math.Log(hi/lo)) }
	prev := -1
	for i, tk := range ticks {
		if tk.Label == "" {
			continue
		}
		if prev >= 0 && at(tk.Value)-at(ticks[prev].Value) < labelRoom(ticks[prev].Label, tk.Label, false) {
			t.Errorf("labels %s and %s crowd each other", ticks[prev].Label, tk.Label)
		}
		prev = i
	}
	if last := ticks[len(ticks)-1]; last.Label != "154854" {
		t.Errorf("the top is labelled %q; want 154854", last.Label)
	}
	if n := labelled(ticks); n < 8 {
		t.Errorf("%d labels; want most of the 18 marks labelled on 10 cm", n)
	}
}

// labelled counts the ticks with labels.
func labelled(ticks []plot.Tick) int {
	n := 0
	for _, tk := range ticks {
		if tk.Label != "" {
			n++
		}
	}
	return n
}
