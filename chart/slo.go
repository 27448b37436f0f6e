package chart

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/sirali-konvoy/konvoy"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// SLOSeries is one layout's latency percentile, in rounds, at several
// consumer counts: Rounds[i] at Consumers[i], the counts rising.
type SLOSeries struct {
	Layout    string
	Consumers []int
	Rounds    []int
}

// SLOPicture is what [SLO] draws: the percentile Percentile (100 for the
// largest) of each series against consumers, and the Target, in rounds,
// as a horizontal line; Wait says the latency is the wait, not the
// response. Round is how long a round lasts, 0 when unknown: the target's
// label gives it as time too, which must fit a [time.Duration].
type SLOPicture struct {
	Percentile float64
	Wait       bool
	Target     int
	Round      time.Duration
	Series     []SLOSeries
}

// SLOOf returns what SLO draws of plans, each one's Curve, all of one
// objective, at rounds of round; a plan that tried no count is left out.
func SLOOf(plans []konvoy.LatencyPlan, round time.Duration) *SLOPicture {
	p := &SLOPicture{Round: round}
	for _, pl := range plans {
		p.Percentile, p.Wait, p.Target = pl.SLO.Percentile, pl.SLO.Wait, pl.SLO.Rounds
		if len(pl.Curve) == 0 {
			continue
		}
		s := SLOSeries{Layout: pl.Layout}
		for _, pt := range pl.Curve {
			s.Consumers = append(s.Consumers, pt.Consumers)
			s.Rounds = append(s.Rounds, pt.Rounds)
		}
		p.Series = append(p.Series, s)
	}
	return p
}

// SLO writes to w, in format f, the picture of a latency percentile
// against consumers: one line per series, with a point at each count, the
// target as a dashed horizontal line, consumers on a logarithmic axis when
// they span a factor of 16 or more. The rounds axis reaches 2.5 times the
// target, or a little above the highest of the series' lowest points, so
// that the knee, where the percentile comes down to the target, shows;
// the few consumers whose percentile lies higher leave the picture at its
// top.
//
// SLO returns an error, and writes nothing, when p is nil or holds no
// series or more than 12; when the percentile is not 50 to 100 or the
// target or Round is negative, or the target is longer, as Target rounds
// of Round, than a [time.Duration] holds (about 292 years), which its
// label could not give as time; when a series has no name, repeats
// another's, has no points, Consumers and Rounds of different lengths, a
// consumer count below 1 or not rising, or a negative figure. Like every
// function here, it also fails on an unknown [Format], an [Option] out of
// range, a legend that would take more than half the height of a picture
// of a size [WithSize] sets, or of 100 cm (the default size grows taller
// for its legend), or a failing writer.
func SLO(w io.Writer, f Format, p *SLOPicture, opts ...Option) error {
	if err := checkSLO(p); err != nil {
		return err
	}
	pl, leg := sloPlot(p)
	return render(w, f, opts, about{pl.Title.Text, sloDesc(p)}, func(c draw.Canvas) error { return drawWithLegend(c, pl, leg) })
}

// sloDesc says in words what the picture of a checked SLOPicture shows.
func sloDesc(p *SLOPicture) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s in rounds (up) against consumers (across), one line per layout:", konvoy.PercentileName(p.Percentile))
	for i, s := range p.Series {
		last := len(s.Rounds) - 1
		fmt.Fprintf(&b, " %s from %s at %s to %d at %d", s.Layout, plural(s.Rounds[0], "round", "rounds"), plural(s.Consumers[0], "consumer", "consumers"),
			s.Rounds[last], s.Consumers[last])
		if j := slices.IndexFunc(s.Rounds, func(r int) bool { return r <= p.Target }); j >= 0 {
			fmt.Fprintf(&b, ", first within the target at %d", s.Consumers[j])
		} else {
			b.WriteString(", never within the target")
		}
		if i < len(p.Series)-1 {
			b.WriteString(";")
		}
	}
	fmt.Fprintf(&b, ". The dashed line is the target, %s", plural(p.Target, "round", "rounds"))
	if p.Round > 0 {
		fmt.Fprintf(&b, " (%v)", time.Duration(p.Target)*p.Round)
	}
	b.WriteString(".")
	return b.String()
}

// checkSLO checks the arguments of SLO.
func checkSLO(p *SLOPicture) error {
	switch {
	case p == nil:
		return fmt.Errorf("chart: SLO: no picture")
	case len(p.Series) == 0 || len(p.Series) > maxSeries:
		return fmt.Errorf("chart: SLO: %d series: want 1 to %d", len(p.Series), maxSeries)
	case !(p.Percentile >= 50 && p.Percentile <= 100):
		return fmt.Errorf("chart: SLO: percentile %v: want 50 to 100", p.Percentile)
	case p.Target < 0 || p.Target > maxValue:
		return fmt.Errorf("chart: SLO: target %d: want 0 to %d", p.Target, maxValue)
	case p.Round < 0:
		return fmt.Errorf("chart: SLO: round %v: want 0 or more", p.Round)
	case p.Target > 0 && p.Round > math.MaxInt64/time.Duration(p.Target):
		return fmt.Errorf("chart: SLO: target %d rounds of %v: longer than a time.Duration holds (%v); want a round of at most %v, or 0",
			p.Target, p.Round, time.Duration(math.MaxInt64), math.MaxInt64/time.Duration(p.Target))
	}
	seen := map[string]bool{}
	for i, s := range p.Series {
		if err := checkLayout("SLO", i, s.Layout, seen); err != nil {
			return err
		}
		if err := checkSLOSeries(s); err != nil {
			return err
		}
	}
	return nil
}

// checkSLOSeries checks the points of one series of SLO.
func checkSLOSeries(s SLOSeries) error {
	at := fmt.Sprintf("chart: SLO: series %q", s.Layout)
	if len(s.Consumers) == 0 || len(s.Consumers) != len(s.Rounds) {
		return fmt.Errorf("%s: %d consumer counts and %d rounds: want as many, at least one", at, len(s.Consumers), len(s.Rounds))
	}
	for j := range s.Consumers {
		if err := checkCurvePoint(at, s.Consumers, s.Rounds, j); err != nil {
			return err
		}
	}
	return nil
}

// sloPlot builds the picture of a checked SLOPicture and its legend.
func sloPlot(p *SLOPicture) (*plot.Plot, *flowLegend) {
	on := "response"
	if p.Wait {
		on = "wait"
	}
	name := konvoy.PercentileName(p.Percentile)
	pl := newPlot(fmt.Sprintf("%s of the %s against consumers", name, on), "consumers", name+" "+on+", rounds")
	lo, hi, top := p.Series[0].Consumers[0], 1, 2.5*float64(max(p.Target, 1))
	for _, s := range p.Series {
		lo, hi = min(lo, s.Consumers[0]), max(hi, s.Consumers[len(s.Consumers)-1])
		top = max(top, 1.15*float64(slices.Min(s.Rounds)))
	}
	pl.Y.Tick.Marker = intTicks{}
	pl.X.Tick.Marker = intTicks{}
	if hi >= 16*lo {
		pl.X.Scale, pl.X.Tick.Marker = plot.LogScale{}, powersOfTwo{}
	}
	pl.Add(&gridLines{vertical: true, horizontal: true})

	leg := newFlowLegend()
	target := hline(float64(lo), float64(max(hi, lo+1)), float64(p.Target))
	target.LineStyle = draw.LineStyle{Color: black, Width: vg.Points(1.2), Dashes: []vg.Length{vg.Points(5), vg.Points(3)}}
	pl.Add(target)
	label := "target: " + plural(p.Target, "round", "rounds")
	if p.Round > 0 {
		label += fmt.Sprintf(" (%v)", time.Duration(p.Target)*p.Round)
	}
	for i, s := range p.Series {
		addSeries(pl, leg, i, s.Layout, s.Consumers, s.Rounds)
	}
	leg.entries = append(leg.entries, legendEntry{target, label})
	// Set once every line is added, which widens the axes to its data.
	pl.X.Min, pl.X.Max = float64(lo), float64(max(hi, lo+1))
	pl.Y.Min, pl.Y.Max = 0, top
	return pl, leg
}

// powersOfTwo marks a logarithmic axis of consumer counts, length points
// long, at the powers of two within it, and at its ends, labelling those
// whose labels stand apart (see spaced): the top always. Its length is 0,
// which labels every mark, until fitTicks sets it (labels of five digits
// and more overlapped: found by a review).
type powersOfTwo struct{ length vg.Length }

func (t powersOfTwo) fitted(length vg.Length, _ bool) plot.Ticker {
	t.length = length
	return t
}

// Ticks returns the marks from lo to hi.
func (t powersOfTwo) Ticks(lo, hi float64) []plot.Tick {
	ticks := []plot.Tick{{Value: lo, Label: fmt.Sprint(int(lo))}}
	for v := 1.0; v < hi; v *= 2 {
		if v > lo*1.3 && v < hi/1.3 {
			ticks = append(ticks, plot.Tick{Value: v, Label: fmt.Sprint(int(v))})
		}
	}
	ticks = append(ticks, plot.Tick{Value: hi, Label: fmt.Sprint(int(hi))})
	if t.length <= 0 || !(hi > lo) || !(lo > 0) {
		return ticks
	}
	return spaced(ticks, func(v float64) vg.Length { return t.length * vg.Length(math.Log(v/lo)/math.Log(hi/lo)) }, false)
}
