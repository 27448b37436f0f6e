package chart

// Schedule draws "one row per consumer, numbered from 1 at the top", for
// 1 to 64 consumers, and konvoy serve's page draws it at up to 64. At the
// default 10 cm height the plot has some 205 points for the rows, and each
// row's number is a 9-point label: from about 32 consumers on the numbers
// stand closer than their own height, and at 64 they are 3.2 points apart,
// three numbers printed over each other wherever one is read.
// (Labels are measured in the package's font: a row's number is
// right-aligned at the axis, so labels of one axis end at the same x.)

import (
	"bytes"
	"math"
	"regexp"
	"slices"
	"strconv"
	"testing"

	"gonum.org/v1/plot/vg"

	"github.com/sirali-konvoy/konvoy"
)

func TestScheduleRowNumbersDoNotOverlap(t *testing.T) {
	const consumers = 64
	var slots []konvoy.Slot
	for c := range consumers {
		slots = append(slots, konvoy.Slot{Key: "k", Consumer: c, Finish: 3})
	}
	var b bytes.Buffer
	if err := Schedule(&b, SVG, "a schedule of 64 consumers", slots, consumers); err != nil {
		t.Fatal(err)
	}
	sty := textStyle(tickSize)
	digits := float64(sty.Font.Size/vg.Points(1)) * 0.7 // a digit's height, about 0.716 em in Liberation Sans
	byEnd := map[float64][]float64{}                    // the labels' baselines by where they end
	for _, m := range regexp.MustCompile(`<text x="([-0-9.e]+)" y="([-0-9.e]+)"[^>]*>\s*([0-9]+)\s*</text>`).FindAllSubmatch(b.Bytes(), -1) {
		x, _ := strconv.ParseFloat(string(m[1]), 64)
		y, _ := strconv.ParseFloat(string(m[2]), 64)
		end := math.Round((x + float64(sty.Width(string(m[3]))/vg.Points(1))) * 10)
		byEnd[end] = append(byEnd[end], y)
	}
	var rows []float64
	for _, ys := range byEnd {
		if len(ys) > len(rows) {
			rows = ys
		}
	}
	if len(rows) != consumers {
		t.Fatalf("found %d row numbers on one axis; want %d", len(rows), consumers)
	}
	slices.Sort(rows)
	for i := 1; i < len(rows); i++ {
		if gap := rows[i] - rows[i-1]; gap < digits {
			t.Fatalf("the rows' numbers stand %.1f points apart; a number is %.1f points high, so they print over each other", gap, digits)
		}
	}
}
