package chart

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/sirali-konvoy/konvoy"
)

// LatencySeries is one layout's run, by its schedule: the Slots of a run
// made with [konvoy.WithSchedule], whose latencies [Latency] draws.
type LatencySeries struct {
	Layout string
	Slots  []konvoy.Slot
}

// Latency writes to w, in format f, the distribution of latencies per
// layout, in two panels: wait, from an event's arrival to its start, and
// response, from its arrival to its finish. Each layout is a step line, its
// empirical cumulative distribution: at x rounds, the share of its events
// whose latency is at most x. A line further left and higher is faster; the
// legend gives each layout's p95 wait and response as [konvoy.Latency]
// gives them (exact below [konvoy.ExactLatency] rounds, a bucket's largest
// value above, within 1/1024), the figures of a run's report. The step lines read well from a handful of events to
// thousands, and lines that coincide still show by their dash patterns.
//
// Latency returns an error, and writes nothing, when series is empty or
// holds more than 12 series, a series has no name, repeats another's or has
// no slots, or a slot has a negative Arrival, a Start before its Arrival,
// a Finish before its Start, or a response (Finish − Arrival) above 2^40
// rounds; and as every function here does (see [Rounds]). Arrivals
// themselves may be as late as an int holds: only latencies are drawn.
func Latency(w io.Writer, f Format, series []LatencySeries, opts ...Option) error {
	if err := checkLatency(series); err != nil {
		return err
	}
	waits := make([][]int, len(series))
	responses := make([][]int, len(series))
	end := 1
	for i, s := range series {
		for _, sl := range s.Slots {
			waits[i] = append(waits[i], sl.Start-sl.Arrival)
			responses[i] = append(responses[i], sl.Finish-sl.Arrival)
		}
		slices.Sort(waits[i])
		slices.Sort(responses[i])
		end = max(end, responses[i][len(responses[i])-1])
	}
	// A margin right of the largest latency keeps its step off the frame.
	xMax := float64(end) + max(0.5, float64(end)/50)
	plots := []*plot.Plot{
		ecdfPlot("Wait: arrival to start", waits, xMax),
		ecdfPlot("Response: arrival to finish", responses, xMax),
	}
	plots[1].Y.Label.Text = ""
	leg := newFlowLegend()
	var figures []string
	for i, s := range series {
		l := ecdfLine(nil, i)
		wait, response := p95(waits[i]), p95(responses[i])
		leg.add(l, fmt.Sprintf("%s — p95: wait %d, response %d", s.Layout, wait, response))
		figures = append(figures, fmt.Sprintf("%s %d and %d", s.Layout, wait, response))
	}
	a := about{"Wait and response latency by layout", "Two panels, one step line per layout: the share of events (up) that started, " +
		"on the left (wait), or finished, on the right (response), within x rounds of their arrival (across). " +
		"p95 wait and response, in rounds: " + strings.Join(figures, "; ") + "."}
	return render(w, f, opts, a, func(c draw.Canvas) error {
		tiles := draw.Tiles{Rows: 1, Cols: 2, PadX: vg.Points(12), PadTop: vg.Points(2), PadRight: vg.Points(8)}
		h, err := leg.room(c, c.Max.X-c.Min.X-2*legendIndent)
		if err != nil {
			return err
		}
		top := c
		top.Min.Y += h + 2*legendGap
		var canvases [][]draw.Canvas
		for range 2 { // the panels are aligned by their axes, which their fitted ticks change
			canvases = plot.Align([][]*plot.Plot{plots}, tiles, top)
			for j, p := range plots {
				fitTitle(p, canvases[0][j])
				fitTicks(p, canvases[0][j])
			}
		}
		for j, p := range plots {
			p.Draw(canvases[0][j])
		}
		bottom := c
		bottom.Min.X += legendIndent
		bottom.Max.X -= legendIndent
		bottom.Max.Y = c.Min.Y + h + legendGap
		leg.draw(bottom)
		return nil
	})
}

// legendIndent is the margin either side of a legend below plots.
var legendIndent = vg.Points(12)

func checkLatency(series []LatencySeries) error {
	if len(series) == 0 || len(series) > maxSeries {
		return fmt.Errorf("chart: Latency: %d series: want 1 to %d", len(series), maxSeries)
	}
	seen := make(map[string]bool, len(series))
	for i, s := range series {
		if err := checkLayout("Latency", i, s.Layout, seen); err != nil {
			return err
		}
		if len(s.Slots) == 0 {
			return fmt.Errorf("chart: Latency: series %q: no slots (was the run made WithSchedule?)", s.Layout)
		}
		for j, sl := range s.Slots {
			at := fmt.Sprintf("chart: Latency: series %q: slot %d", s.Layout, j)
			switch {
			case sl.Arrival < 0:
				return fmt.Errorf("%s: Arrival %d: want 0 or more", at, sl.Arrival)
			case sl.Start < sl.Arrival:
				return fmt.Errorf("%s: Start %d before Arrival %d", at, sl.Start, sl.Arrival)
			case sl.Finish < sl.Start:
				return fmt.Errorf("%s: Finish %d before Start %d", at, sl.Finish, sl.Start)
			case sl.Finish-sl.Arrival > maxValue: // the picture draws latencies alone, whenever they came
				return fmt.Errorf("%s: Arrival %d, Finish %d: want a response, Finish - Arrival, of 0 to %d", at, sl.Arrival, sl.Finish, maxValue)
			}
		}
	}
	return nil
}

// ecdfPlot returns a panel of one step line per sorted sample, x from 0 to
// end rounds.
func ecdfPlot(title string, samples [][]int, end float64) *plot.Plot {
	p := newPlot(title, "rounds", "share of events within x rounds")
	p.X.Min, p.X.Max = 0, end
	p.X.Tick.Marker = intTicks{most: 12}
	p.Y.Min, p.Y.Max = 0, 1.02
	p.Y.Tick.Marker = plot.ConstantTicks{
		{Value: 0, Label: "0%"}, {Value: 0.25, Label: "25%"}, {Value: 0.5, Label: "50%"},
		{Value: 0.75, Label: "75%"}, {Value: 1, Label: "100%"},
	}
	p.Add(&gridLines{vertical: true, horizontal: true})
	for i, v := range samples {
		p.Add(ecdfLine(ecdf(v, end), i))
	}
	return p
}

// ecdfLine returns the step line through pts of the i-th series.
func ecdfLine(pts plotter.XYs, i int) *plotter.Line {
	return &plotter.Line{
		XYs:       pts,
		StepStyle: plotter.PostStep,
		LineStyle: draw.LineStyle{Color: colour(i), Width: vg.Points(1.6), Dashes: dash(i)},
	}
}

// ecdf returns the corners of the empirical cumulative distribution of the
// sorted values v, as a post-step line from (0, 0) to (end, 1).
func ecdf(v []int, end float64) plotter.XYs {
	pts := plotter.XYs{{X: 0, Y: 0}}
	n := float64(len(v))
	for i, x := range v {
		if i+1 < len(v) && v[i+1] == x {
			continue
		}
		pts = append(pts, plotter.XY{X: float64(x), Y: float64(i+1) / n})
	}
	return append(pts, plotter.XY{X: end, Y: 1})
}

// p95 returns the p95 of the values v as [konvoy.Latency] gives it,
// counted by a [konvoy.LatencyCounter]: the nearest rank, exact below
// [konvoy.ExactLatency] and a bucket's largest value above, so that the
// legend agrees with a run's Wait and Response, which reports print.
func p95(v []int) int {
	var c konvoy.LatencyCounter
	for _, x := range v {
		c.Add(x)
	}
	return c.Latency().P95
}
