package chart

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// RoundsSeries is one layout's rounds (makespan) at several consumer counts,
// as [konvoy.Simulate] measures them: Rounds[i] at Consumers[i], the
// consumer counts rising. HeaviestLane is the layout's heaviest lane
// ([konvoy.Result].HeaviestLane), the ceiling that no number of consumers
// lifts; 0, for a layout without lanes, draws no ceiling.
type RoundsSeries struct {
	Layout       string
	Consumers    []int
	Rounds       []int
	HeaviestLane int
}

// glyphs mark the points of series in order, so that overlapping series, or
// series whose colours repeat, still differ.
var glyphs = []draw.GlyphDrawer{
	draw.CircleGlyph{}, draw.BoxGlyph{}, draw.PyramidGlyph{},
	draw.RingGlyph{}, draw.SquareGlyph{}, draw.TriangleGlyph{},
}

// Rounds writes to w, in format f, the picture of rounds against consumers:
// one line per series, its heaviest-lane ceiling as a dashed line in the
// same colour, and the lower bound work/consumers as a dotted curve, where
// work is the run's total work ([konvoy.Result].Work; 0 draws no bound, nor
// does a single consumer count, where the curve would be a point). It
// shows what the lesson argues: free consumption follows work/consumers
// while a convoy flattens at its heaviest lane.
//
// Rounds returns an error, and writes nothing, when series is empty or
// holds more than 12 series; when a series has no name, repeats another's,
// has no points, Consumers and Rounds of different lengths, a consumer count
// below 1 or not rising, or a negative figure; or when a series goes below a
// bound it cannot break, rounds below work/consumers or below its heaviest
// lane, which means the figures come from different runs. Like every
// function here, it also fails on a figure of rounds or consumers above
// 2^40 (1099511627776; math.MaxInt where an int has 32 bits), past any
// real run, which keeps every figure exact as a float64 and its products
// from overflowing; on an unknown [Format], an [Option] out of
// range, a legend that would take more than half the height of a picture
// of a size [WithSize] sets, or of 100 cm (the default size grows taller
// for its legend), or a failing writer.
func Rounds(w io.Writer, f Format, work int, series []RoundsSeries, opts ...Option) error {
	if err := checkRounds(work, series); err != nil {
		return err
	}
	p, leg := roundsPlot(work, series)
	return render(w, f, opts, about{p.Title.Text, roundsDesc(work, series)}, func(c draw.Canvas) error { return drawWithLegend(c, p, leg) })
}

// maxSeries bounds the series of one picture, beyond which its lines and
// legend no longer read.
const maxSeries = 12

// maxValue bounds every figure a picture takes, far above any real run, so
// that every one is exact as a float64 and products cannot overflow; where
// an int has 32 bits, MaxInt bounds it.
const maxValue = min(1<<40, math.MaxInt)

// checkRounds checks the arguments of [Rounds]: the number of series, the
// work, and then each series in order, returning the first problem found.
func checkRounds(work int, series []RoundsSeries) error {
	if len(series) == 0 || len(series) > maxSeries {
		return fmt.Errorf("chart: Rounds: %d series: want 1 to %d", len(series), maxSeries)
	}
	if work < 0 || work > maxValue {
		return fmt.Errorf("chart: Rounds: work %d: want 0 to %d", work, maxValue)
	}
	seen := make(map[string]bool, len(series))
	for i, s := range series {
		if err := checkLayout("Rounds", i, s.Layout, seen); err != nil {
			return err
		}
		if err := checkRoundsSeries(work, s); err != nil {
			return err
		}
	}
	return nil
}

// checkRoundsSeries checks one series of [Rounds] whose layout is checked:
// its shape and ceiling, and then each of its points in order.
func checkRoundsSeries(work int, s RoundsSeries) error {
	at := fmt.Sprintf("chart: Rounds: series %q", s.Layout)
	if len(s.Consumers) == 0 {
		return fmt.Errorf("%s: no points", at)
	}
	if len(s.Consumers) != len(s.Rounds) {
		return fmt.Errorf("%s: %d consumer counts but %d rounds", at, len(s.Consumers), len(s.Rounds))
	}
	if s.HeaviestLane < 0 || s.HeaviestLane > maxValue {
		return fmt.Errorf("%s: HeaviestLane %d: want 0 to %d", at, s.HeaviestLane, maxValue)
	}
	for j := range s.Consumers {
		if err := checkRoundsPoint(at, work, s, j); err != nil {
			return err
		}
	}
	return nil
}

// checkCurvePoint checks point j of a curve, rounds[j] at consumers[j],
// whose messages begin with at: its consumer count in range and rising,
// its rounds in range.
func checkCurvePoint(at string, consumers, rounds []int, j int) error {
	c, r := consumers[j], rounds[j]
	switch {
	case c < 1 || c > maxValue:
		return fmt.Errorf("%s: Consumers[%d] = %d: want 1 to %d", at, j, c, maxValue)
	case j > 0 && c <= consumers[j-1]:
		return fmt.Errorf("%s: Consumers[%d] = %d after %d: want rising consumer counts", at, j, c, consumers[j-1])
	case r < 0 || r > maxValue:
		return fmt.Errorf("%s: Rounds[%d] = %d: want 0 to %d", at, j, r, maxValue)
	}
	return nil
}

// checkRoundsPoint checks point j of series s, whose messages begin with
// at: its consumer count in range and rising, its rounds in range and not
// below the bounds of work/consumers and the heaviest lane.
func checkRoundsPoint(at string, work int, s RoundsSeries, j int) error {
	if err := checkCurvePoint(at, s.Consumers, s.Rounds, j); err != nil {
		return err
	}
	c, r := s.Consumers[j], s.Rounds[j]
	switch {
	case r < (work+c-1)/c:
		return fmt.Errorf("%s: Rounds[%d] = %d at %s is below work/consumers = %d/%d: are work and series from different runs?", at, j, r, plural(c, "consumer", "consumers"), work, c)
	case r < s.HeaviestLane:
		return fmt.Errorf("%s: Rounds[%d] = %d is below HeaviestLane %d: are they from different runs?", at, j, r, s.HeaviestLane)
	}
	return nil
}

// roundsPlot builds the picture of checked series and its legend.
func roundsPlot(work int, series []RoundsSeries) (*plot.Plot, *flowLegend) {
	p := newPlot("Rounds against consumers (work "+plural(work, "round", "rounds")+")", "consumers", "rounds")

	var counts []int
	top := 1
	for _, s := range series {
		counts = append(counts, s.Consumers...)
		top = max(top, slices.Max(s.Rounds), s.HeaviestLane)
	}
	slices.Sort(counts)
	counts = slices.Compact(counts)
	lo, hi := counts[0], counts[len(counts)-1]
	if work > 0 {
		top = max(top, (work+lo-1)/lo)
	}

	margin := 0.5
	if hi > lo {
		margin = 0.03 * float64(hi-lo)
	}
	p.X.Min, p.X.Max = float64(lo)-margin, float64(hi)+margin
	p.Y.Min, p.Y.Max = 0, float64(top)*1.06
	p.Y.Tick.Marker = intTicks{}
	p.X.Tick.Marker = intTicks{}
	if len(counts) <= 16 {
		p.X.Tick.Marker = countTicks{counts: counts}
	}
	p.Add(&gridLines{vertical: true, horizontal: true})

	// Ceilings and the bound are drawn first, so that the series lie on
	// top, and listed after them.
	leg := newFlowLegend()
	var later []legendEntry
	for i, s := range series {
		if s.HeaviestLane == 0 {
			continue
		}
		l := hline(p.X.Min, p.X.Max, float64(s.HeaviestLane))
		l.LineStyle = draw.LineStyle{Color: colour(i), Width: vg.Points(1.2), Dashes: []vg.Length{vg.Points(5), vg.Points(3)}}
		p.Add(l)
		later = append(later, legendEntry{l, fmt.Sprintf("%s ceiling: heaviest lane %d", printable(s.Layout), s.HeaviestLane)})
	}
	if work > 0 && hi > lo {
		fn := plotter.NewFunction(func(x float64) float64 { return float64(work) / x })
		fn.XMin, fn.XMax, fn.Samples = float64(lo), float64(hi), 120
		fn.LineStyle = draw.LineStyle{Color: black, Width: vg.Points(1), Dashes: []vg.Length{vg.Points(1.5), vg.Points(2)}}
		p.Add(fn)
		later = append(later, legendEntry{fn, fmt.Sprintf("work/consumers = %d/c", work)})
	}
	for i, s := range series {
		addSeries(p, leg, i, s.Layout, s.Consumers, s.Rounds)
	}
	leg.entries = append(leg.entries, later...)
	return p, leg
}

// countTicks marks each of a picture's consumer counts, rising, on an axis
// length points long, and labels those whose labels stand apart (see
// spaced): the last count always, the first unless the axis is too short
// for both (a picture near WithSize's smallest width), and of counts that
// crowd together, each one clear of the label before it. Its length is 0,
// which labels every count, until fitTicks sets it.
type countTicks struct {
	counts []int
	length vg.Length
}

func (t countTicks) fitted(length vg.Length, _ bool) plot.Ticker {
	t.length = length
	return t
}

func (t countTicks) Ticks(lo, hi float64) []plot.Tick {
	var ticks []plot.Tick
	for _, c := range t.counts {
		ticks = append(ticks, plot.Tick{Value: float64(c), Label: fmt.Sprint(c)})
	}
	if t.length <= 0 || !(hi > lo) {
		return ticks
	}
	return spaced(ticks, func(v float64) vg.Length { return t.length * vg.Length((v-lo)/(hi-lo)) }, false)
}

// addSeries draws series i of a picture, rounds[j] at consumers[j], as a
// line with points in the series' colour and glyph, and names it layout in
// leg.
func addSeries(p *plot.Plot, leg *flowLegend, i int, layout string, consumers, rounds []int) {
	pts := make(plotter.XYs, len(consumers))
	for j := range consumers {
		pts[j] = plotter.XY{X: float64(consumers[j]), Y: float64(rounds[j])}
	}
	line, points, _ := plotter.NewLinePoints(pts)
	line.LineStyle = draw.LineStyle{Color: colour(i), Width: vg.Points(1.6)}
	points.GlyphStyle = draw.GlyphStyle{Color: colour(i), Radius: vg.Points(2.6), Shape: glyphs[i%len(glyphs)]}
	p.Add(line, points)
	leg.add(thumbs{line, points}, layout)
}

// hline returns a horizontal line at y from x0 to x1.
func hline(x0, x1, y float64) *plotter.Line {
	l, _ := plotter.NewLine(plotter.XYs{{X: x0, Y: y}, {X: x1, Y: y}})
	return l
}

// roundsDesc describes the picture of rounds against consumers in words:
// each series from its first count to its last, its ceiling, and the bound.
func roundsDesc(work int, series []RoundsSeries) string {
	var b strings.Builder
	b.WriteString("Rounds (up) against consumers (across), one line per layout:")
	for i, s := range series {
		last := len(s.Rounds) - 1
		if last == 0 { // a point: no "from … to"
			fmt.Fprintf(&b, " %s %s at %s", s.Layout, plural(s.Rounds[0], "round", "rounds"), plural(s.Consumers[0], "consumer", "consumers"))
		} else {
			fmt.Fprintf(&b, " %s from %s at %s to %d at %d", s.Layout, plural(s.Rounds[0], "round", "rounds"), plural(s.Consumers[0], "consumer", "consumers"),
				s.Rounds[last], s.Consumers[last])
		}
		if s.HeaviestLane > 0 {
			fmt.Fprintf(&b, ", its heaviest lane %s (dashed)", plural(s.HeaviestLane, "round", "rounds"))
		}
		if i < len(series)-1 {
			b.WriteString(";")
		}
	}
	b.WriteString(".")
	if work > 0 && boundDrawn(series) {
		fmt.Fprintf(&b, " The dotted curve is the bound work/consumers, %d/c.", work)
	}
	return b.String()
}

// boundDrawn tells whether series span more than one consumer count, so
// that the picture draws the bound work/consumers (see Rounds).
func boundDrawn(series []RoundsSeries) bool {
	first := series[0].Consumers[0]
	for _, s := range series {
		for _, c := range s.Consumers {
			if c != first {
				return true
			}
		}
	}
	return false
}
