package chart

// Schedule draws "one row per consumer, numbered from 1 at the top", for
// 1 to 64 consumers, and konvoy serve's page draws it at up to 64. At the
// default 10 cm height the plot has some 205 points for the rows, and each
// row's number is a 9-point label: from about 32 consumers on the numbers
// would stand closer than their own height, and at 64 they would be 3.2
// points apart, three numbers printed over each other wherever one is
// read. So where the rows crowd, only the first, the last and every k-th
// row have their numbers, which stand apart; where there is room, as in a
// picture 30 cm high, every row has its number.
// (Labels are measured in the package's font: a row's number is
// right-aligned at the axis, so labels of one axis end at the same x.)

import (
	"bytes"
	"maps"
	"math"
	"regexp"
	"slices"
	"strconv"
	"testing"

	"gonum.org/v1/plot/vg"

	"github.com/sirali-konvoy/konvoy"
)

// rowNumbers returns the baselines of the numbers on a schedule's consumer
// axis, by number: the numeric labels of svg that end at the same x, the
// most of them.
func rowNumbers(svg []byte) map[string]float64 {
	sty := textStyle(tickSize)
	byEnd := map[float64]map[string]float64{} // the labels' baselines by where they end
	for _, m := range regexp.MustCompile(`<text x="([-0-9.e]+)" y="([-0-9.e]+)"[^>]*>\s*([0-9]+)\s*</text>`).FindAllSubmatch(svg, -1) {
		x, _ := strconv.ParseFloat(string(m[1]), 64)
		y, _ := strconv.ParseFloat(string(m[2]), 64)
		end := math.Round((x + float64(sty.Width(string(m[3]))/vg.Points(1))) * 10)
		if byEnd[end] == nil {
			byEnd[end] = map[string]float64{}
		}
		byEnd[end][string(m[3])] = y
	}
	var rows map[string]float64
	for _, ys := range byEnd {
		if len(ys) > len(rows) {
			rows = ys
		}
	}
	return rows
}

func TestScheduleRowNumbersDoNotOverlap(t *testing.T) {
	const consumers = 64
	var slots []konvoy.Slot
	for c := range consumers {
		slots = append(slots, konvoy.Slot{Key: "k", Consumer: c, Finish: 3})
	}
	digits := float64(tickSize) * 0.7 // a digit's height, about 0.716 em in Liberation Sans
	for _, c := range []struct {
		height float64 // centimetres
		least  int     // numbers
	}{{DefaultHeight, consumers / 10}, {30, consumers}} {
		var b bytes.Buffer
		if err := Schedule(&b, SVG, "a schedule of 64 consumers", slots, consumers, WithSize(DefaultWidth, c.height)); err != nil {
			t.Fatal(err)
		}
		numbers := rowNumbers(b.Bytes())
		if _, ok := numbers["1"]; !ok || len(numbers) < c.least {
			t.Errorf("%v cm high: found %d row numbers on one axis, with 1: %v; want at least %d, with 1", c.height, len(numbers), ok, c.least)
		}
		if _, ok := numbers["64"]; !ok {
			t.Errorf("%v cm high: the last row, 64, has no number", c.height)
		}
		rows := slices.Sorted(maps.Values(numbers))
		for i := 1; i < len(rows); i++ {
			if gap := rows[i] - rows[i-1]; gap < digits {
				t.Errorf("%v cm high: the rows' numbers stand %.1f points apart; a number is %.1f points high, so they print over each other", c.height, gap, digits)
				break
			}
		}
	}
}
