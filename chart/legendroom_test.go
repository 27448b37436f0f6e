package chart_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/chart"
)

// TestALegendTooTallForThePictureIsAnError checks that a picture whose
// legend would take more than half its height, twelve long names on a
// small picture, is refused, with nothing written, rather than drawn with
// the legend over its plots; and that the same series on the default size
// are drawn, names as long as partitioned:65536.
func TestALegendTooTallForThePictureIsAnError(t *testing.T) {
	var lat []chart.LatencySeries
	var rounds []chart.RoundsSeries
	for i := range 12 {
		name := fmt.Sprintf("layout-%02d-%s", i, strings.Repeat("x", 7))
		lat = append(lat, chart.LatencySeries{Layout: name, Slots: []konvoy.Slot{{Start: 1, Finish: 3}}})
		rounds = append(rounds, chart.RoundsSeries{Layout: name, Consumers: []int{1, 2}, Rounds: []int{8, 4}})
	}
	draws := map[string]func(*bytes.Buffer, ...chart.Option) error{
		"Latency": func(b *bytes.Buffer, o ...chart.Option) error { return chart.Latency(b, chart.SVG, lat, o...) },
		"Rounds":  func(b *bytes.Buffer, o ...chart.Option) error { return chart.Rounds(b, chart.SVG, 8, rounds, o...) },
	}
	for name, draw := range draws {
		var b bytes.Buffer
		err := draw(&b, chart.WithSize(8, 5))
		if err == nil || !strings.Contains(err.Error(), "chart: the legend's 1") || !strings.Contains(err.Error(), "of the picture's 5.0 cm height") || b.Len() > 0 {
			t.Errorf("%s at 8 by 5 cm: error %v, %d bytes written; want the legend's height refused and nothing written", name, err, b.Len())
		}
		b.Reset()
		if err := draw(&b); err != nil || b.Len() == 0 {
			t.Errorf("%s at the default size: error %v, %d bytes; want it drawn", name, err, b.Len())
		}
	}
}
