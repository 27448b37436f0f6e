package chart_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/sirali-konvoy/konvoy/chart"
)

// TestOneRoundIsOneRound checks that a picture's words give one round in
// the singular, as konvoy's reports do: the SLO picture's target of 1
// round read "1 rounds" (found by a review), and so did a series from 1
// round and a heaviest lane of 1 round in the words of both pictures.
func TestOneRoundIsOneRound(t *testing.T) {
	var b bytes.Buffer
	slo := &chart.SLOPicture{Percentile: 99, Target: 1,
		Series: []chart.SLOSeries{{Layout: "free", Consumers: []int{1, 2}, Rounds: []int{1, 1}}}}
	if err := chart.SLO(&b, chart.SVG, slo); err != nil {
		t.Fatal(err)
	}
	svg := b.String()
	b.Reset()
	if err := chart.Rounds(&b, chart.SVG, 1, []chart.RoundsSeries{{Layout: "convoy", Consumers: []int{1, 2}, Rounds: []int{1, 1}, HeaviestLane: 1}}); err != nil {
		t.Fatal(err)
	}
	svg += b.String()
	for _, want := range []string{"target, 1 round", "target: 1 round", "free from 1 round at", "convoy from 1 round at", "heaviest lane 1 round (dashed)"} {
		if !strings.Contains(svg, want) {
			t.Errorf("no %q in the pictures", want)
		}
	}
	if strings.Contains(svg, "1 rounds") {
		t.Errorf("the pictures say %q", "1 rounds")
	}
}
