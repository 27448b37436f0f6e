package chart_test

import (
	"bytes"
	"fmt"
	"math"
	"strconv"
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

// TestALegendEntryWiderThanThePictureIsAnError checks that a legend entry
// wider than the room it has is refused, with nothing written, rather than
// drawn off the picture's edge with its figures cut (found by a review: a
// long layout name at the default size, or "convoy — p95: wait …" at 4 cm
// wide); and that the widest entry konvoy's own layouts and figures make,
// with 13-digit figures (10 where int has 32 bits), is drawn at the
// default size.
func TestALegendEntryWiderThanThePictureIsAnError(t *testing.T) {
	slot := []konvoy.Slot{{Start: 1234567, Finish: 7654321}}
	long := "layout-with-a-rather-long-descriptive-name-" + strings.Repeat("x", 40)
	for _, c := range []struct {
		name   string
		layout string
		opts   []chart.Option
	}{
		{"a long name at the default size", long, nil},
		{"convoy at 4 cm wide", "convoy", []chart.Option{chart.WithSize(4, 10)}},
	} {
		var b bytes.Buffer
		err := chart.Latency(&b, chart.SVG, []chart.LatencySeries{{Layout: c.layout, Slots: slot}}, c.opts...)
		if err == nil || !strings.Contains(err.Error(), "cm wide, wider than the") || b.Len() > 0 {
			t.Errorf("%s: error %v, %d bytes written; want the entry refused and nothing written", c.name, err, b.Len())
		}
	}
	var b bytes.Buffer
	err := chart.Rounds(&b, chart.SVG, 1<<30, []chart.RoundsSeries{{Layout: "convoy", Consumers: []int{1, 2}, Rounds: []int{1 << 30, 1 << 29}, HeaviestLane: 1 << 29}}, chart.WithSize(4, 10))
	if err == nil || !strings.Contains(err.Error(), "cm wide, wider than the") || b.Len() > 0 {
		t.Errorf("Rounds at 4 cm wide: error %v, %d bytes written; want the ceiling's entry refused", err, b.Len())
	}
	most := int(min(chartMost, math.MaxInt)) // the most a chart takes, or int's
	huge := []konvoy.Slot{{Start: most - 1, Finish: most}}
	b.Reset()
	if err := chart.Latency(&b, chart.SVG, []chart.LatencySeries{{Layout: "selective-convoy", Slots: huge}, {Layout: "partitioned:65536", Slots: huge}}); err != nil {
		t.Errorf("Latency with 13-digit figures at the default size: %v; want it drawn", err)
	}
}

// chartMost is the largest figure a chart takes, 2^40, as a variable: a
// constant would not fit where int has 32 bits.
var chartMost int64 = 1 << 40

// TestAPictureOfTheDefaultSizeGrowsForItsLegend checks that a picture of
// the default size whose legend would take more than half of it is drawn
// taller, not refused: twelve partitioned layouts, each with its ceiling's
// entry, 25 entries, the most the command draws (found by a review: 11 and
// 12 were refused); and that it stays as it was where the legend fits.
func TestAPictureOfTheDefaultSizeGrowsForItsLegend(t *testing.T) {
	var rounds []chart.RoundsSeries
	for i := range 12 {
		rounds = append(rounds, chart.RoundsSeries{Layout: fmt.Sprintf("partitioned:%d", i+1), Consumers: []int{1, 2, 4}, Rounds: []int{80, 40, 35}, HeaviestLane: 20 + i})
	}
	height := func(n int) float64 { // the SVG's height, in points
		var b bytes.Buffer
		if err := chart.Rounds(&b, chart.SVG, 80, rounds[:n]); err != nil {
			t.Fatalf("%d layouts at the default size: %v; want them drawn", n, err)
		}
		_, rest, _ := strings.Cut(b.String(), `height="`)
		pt, _, _ := strings.Cut(rest, `pt"`)
		h, err := strconv.ParseFloat(pt, 64)
		if err != nil {
			t.Fatalf("%d layouts: the SVG's height %q: %v", n, pt, err)
		}
		return h
	}
	if one, twelve := height(1), height(12); one != 283.46 || twelve <= one {
		t.Errorf("heights %vpt and %vpt for 1 and 12 layouts; want 10 cm (283.46pt) for one, taller for twelve", one, twelve)
	}
	var b bytes.Buffer
	if err := chart.Rounds(&b, chart.SVG, 80, rounds, chart.WithSize(16, 10)); err == nil || !strings.Contains(err.Error(), "more than half") {
		t.Errorf("twelve layouts at 16 by 10 cm set by WithSize: %v; want the legend's height refused", err)
	}
}
