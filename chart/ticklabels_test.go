package chart

// A picture's numbered ticks stand apart: these pictures are meant to read
// (a schedule "for small runs", latency lines that "read well from a
// handful of events to thousands"), and numbers printed over each other
// read as none. So intTicks chooses its step from the axis's length and
// its labels' widths, not from a count of ticks alone: at the default 16
// cm a schedule of 50,000 rounds could otherwise print "2000" over "4000",
// and latencies of 50,000 rounds "5000" over "10000". Labels are measured
// in the package's own font, as gonum/plot places them: an SVG <text>
// starts at its x.

import (
	"bytes"
	"regexp"
	"slices"
	"strconv"
	"testing"

	"gonum.org/v1/plot/vg"

	"github.com/sirali-konvoy/konvoy"
)

// checkNumbersApart checks that the numeric labels of svg on one baseline,
// each drawn from its left edge at x, do not overlap.
func checkNumbersApart(t *testing.T, what string, svg []byte) {
	t.Helper()
	type label struct {
		x    float64
		text string
	}
	rows := map[string][]label{}
	for _, m := range regexp.MustCompile(`<text x="([-0-9.e]+)" y="([-0-9.e]+)"[^>]*>\s*([0-9]+)\s*</text>`).FindAllSubmatch(svg, -1) {
		x, _ := strconv.ParseFloat(string(m[1]), 64)
		rows[string(m[2])] = append(rows[string(m[2])], label{x, string(m[3])})
	}
	sty := textStyle(tickSize)
	for y, row := range rows {
		slices.SortFunc(row, func(a, b label) int { return int(a.x*1000 - b.x*1000) })
		for i := 1; i < len(row); i++ {
			a, b := row[i-1], row[i]
			if end := a.x + float64(sty.Width(a.text)/vg.Points(1)); end > b.x+0.01 {
				t.Errorf("%s: the numbers %q and %q on the baseline y=%s overlap: %q ends at x=%.1f, %q starts at x=%.1f",
					what, a.text, b.text, y, a.text, end, b.text, b.x)
				break
			}
		}
	}
}

func TestScheduleTickNumbersDoNotOverlap(t *testing.T) {
	slots := []konvoy.Slot{
		{Key: "a", Consumer: 0, Arrival: 0, Taken: 0, Start: 0, Finish: 25000},
		{Key: "b", Consumer: 0, Arrival: 0, Taken: 25000, Start: 25000, Finish: 50000},
	}
	var b bytes.Buffer
	if err := Schedule(&b, SVG, "a schedule of 50000 rounds", slots, 1); err != nil {
		t.Fatal(err)
	}
	checkNumbersApart(t, "Schedule", b.Bytes())
}

func TestLatencyTickNumbersDoNotOverlap(t *testing.T) {
	slots := []konvoy.Slot{
		{Key: "a", Consumer: 0, Arrival: 0, Taken: 0, Start: 0, Finish: 25000},
		{Key: "b", Consumer: 0, Arrival: 0, Taken: 2500, Start: 25000, Finish: 50000},
	}
	var b bytes.Buffer
	if err := Latency(&b, SVG, []LatencySeries{{Layout: "convoy", Slots: slots}}); err != nil {
		t.Fatal(err)
	}
	checkNumbersApart(t, "Latency", b.Bytes())
}
