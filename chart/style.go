package chart

import (
	"image/color"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/font/liberation"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// The font is fixed here, from a cache of this package's own, rather than
// taken from gonum/plot's package-level defaults, which any importer may
// change.
var (
	fonts   = font.NewCache(liberation.Collection())
	handler = text.Plain{Fonts: fonts}
	sans    = font.Font{Typeface: "Liberation", Variant: "Sans"}
)

// Font sizes, in points.
const (
	titleSize = 12
	labelSize = 10
	tickSize  = 9
	boxSize   = 7
)

var (
	black = color.Gray{Y: 0}
	white = color.Gray{Y: 255}
	// grey fills events in no lane.
	grey = color.RGBA{R: 0xba, G: 0xb0, B: 0xac, A: 0xff}
	// gridGrey draws the grid.
	gridGrey = color.Gray{Y: 0xe4}
)

// palette is Tableau 10 without its grey, reordered so that the first
// colours, which lines use most, are the darkest. Series and lanes take
// colours in order and wrap around after the ninth.
var palette = []color.RGBA{
	{R: 0x4e, G: 0x79, B: 0xa7, A: 0xff}, // blue
	{R: 0xf2, G: 0x8e, B: 0x2b, A: 0xff}, // orange
	{R: 0x59, G: 0xa1, B: 0x4f, A: 0xff}, // green
	{R: 0xe1, G: 0x57, B: 0x59, A: 0xff}, // red
	{R: 0xb0, G: 0x7a, B: 0xa1, A: 0xff}, // purple
	{R: 0x9c, G: 0x75, B: 0x5f, A: 0xff}, // brown
	{R: 0xff, G: 0x9d, B: 0xa7, A: 0xff}, // pink
	{R: 0x76, G: 0xb7, B: 0xb2, A: 0xff}, // teal
	{R: 0xed, G: 0xc9, B: 0x48, A: 0xff}, // yellow
}

// colour returns the i-th colour of the palette, wrapping around.
func colour(i int) color.RGBA { return palette[i%len(palette)] }

// dashes are the line patterns series take in order, so that series that
// overlap, or whose colours repeat, still differ.
var dashes = [][]vg.Length{
	nil,
	{vg.Points(6), vg.Points(3)},
	{vg.Points(2), vg.Points(2)},
	{vg.Points(8), vg.Points(3), vg.Points(2), vg.Points(3)},
}

// dash returns the i-th line pattern, wrapping around.
func dash(i int) []vg.Length { return dashes[i%len(dashes)] }

// textStyle returns the package's text style at size points.
func textStyle(size vg.Length) text.Style {
	return text.Style{Color: black, Font: font.From(sans, size), Handler: handler}
}

// newPlot returns a plot whose every text is in the package's font, with a
// light grid.
func newPlot(title, xLabel, yLabel string) *plot.Plot {
	p := plot.New()
	p.TextHandler = handler
	p.Title.Text = printable(title)
	p.Title.TextStyle = textStyle(titleSize)
	p.Title.TextStyle.XAlign, p.Title.TextStyle.YAlign = draw.XCenter, draw.YTop
	p.Title.Padding = vg.Points(6)
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		align := a.Label.TextStyle
		a.Label.TextStyle = textStyle(labelSize)
		a.Label.TextStyle.XAlign, a.Label.TextStyle.YAlign = align.XAlign, align.YAlign
		tick := a.Tick.Label
		a.Tick.Label = textStyle(tickSize)
		a.Tick.Label.XAlign, a.Tick.Label.YAlign = tick.XAlign, tick.YAlign
		a.Tick.Length = vg.Points(4)
		a.Padding = vg.Points(2)
	}
	p.X.Label.Text, p.Y.Label.Text = xLabel, yLabel
	p.Legend.TextStyle = textStyle(tickSize)
	p.Legend.ThumbnailWidth = vg.Points(22)
	p.Legend.Padding = vg.Points(1)
	return p
}

// gridLines draws a light grid behind the data, at the major ticks of the
// axes it is asked for.
type gridLines struct{ vertical, horizontal bool }

func (g *gridLines) Plot(c draw.Canvas, p *plot.Plot) {
	sty := draw.LineStyle{Color: gridGrey, Width: vg.Points(0.5)}
	trX, trY := p.Transforms(&c)
	if g.vertical {
		for _, t := range p.X.Tick.Marker.Ticks(p.X.Min, p.X.Max) {
			if t.IsMinor() || t.Value < p.X.Min || t.Value > p.X.Max {
				continue
			}
			x := trX(t.Value)
			c.StrokeLine2(sty, x, c.Min.Y, x, c.Max.Y)
		}
	}
	if g.horizontal {
		for _, t := range p.Y.Tick.Marker.Ticks(p.Y.Min, p.Y.Max) {
			if t.IsMinor() || t.Value < p.Y.Min || t.Value > p.Y.Max {
				continue
			}
			y := trY(t.Value)
			c.StrokeLine2(sty, c.Min.X, y, c.Max.X, y)
		}
	}
}

// intTicks marks whole numbers on an axis length points long: steps of 1,
// 2 or 5 times a power of ten, the smallest that makes at most most major
// ticks (10 when most is 0) whose labels, measured in the tick font, stand
// apart (see labelRoom), with unlabelled minor ticks between them. Its
// length is 0, which spaces the labels by most alone, until fitTicks sets
// it.
type intTicks struct {
	most     int
	length   vg.Length
	vertical bool
}

func (t intTicks) fitted(length vg.Length, vertical bool) plot.Ticker {
	t.length, t.vertical = length, vertical
	return t
}

func (t intTicks) Ticks(lo, hi float64) []plot.Tick {
	if !(hi > lo) || math.IsInf(hi-lo, 0) {
		return nil
	}
	most := float64(t.most)
	if most == 0 {
		most = 10
	}
	step := 1.0
	for m := 1; (hi-lo)/step > most || !t.apart(lo, hi, step); m++ {
		step = niceStep(m)
	}
	minor := 0.0
	switch {
	case step >= 10 && math.Mod(step, 5) == 0:
		minor = step / 5
	case step == 5:
		minor = 1
	case step == 2:
		minor = 1
	}
	var ticks []plot.Tick
	if minor > 0 {
		for _, v := range multiples(lo, hi, minor) {
			if math.Mod(v, step) != 0 {
				ticks = append(ticks, plot.Tick{Value: v})
			}
		}
	}
	for _, v := range multiples(lo, hi, step) {
		ticks = append(ticks, plot.Tick{Value: v, Label: intLabel(v)})
	}
	return ticks
}

// apart tells whether the labels of the multiples of step in [lo, hi]
// stand apart on t's axis, as they do when its length is 0 (not fitted).
func (t intTicks) apart(lo, hi, step float64) bool {
	if t.length <= 0 {
		return true
	}
	gap := t.length * vg.Length(step/(hi-lo))
	v := multiples(lo, hi, step)
	for i := 1; i < len(v); i++ {
		if gap < labelRoom(intLabel(v[i-1]), intLabel(v[i]), t.vertical) {
			return false
		}
	}
	return true
}

// niceStep returns the m-th of the steps 1, 2, 5, 10, 20, 50 and so on,
// from m = 0.
func niceStep(m int) float64 { return []float64{1, 2, 5}[m%3] * math.Pow(10, float64(m/3)) }

// intLabel is the label of the whole number v.
func intLabel(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

// labelGap is the least space between two tick labels side by side.
var labelGap = vg.Points(tickSize) / 2

// labelRoom returns how far apart the middles of the tick labels a and b
// must stand on an axis, vertical or not, so that neither touches the
// other, measured in the tick font: half of each one's width and labelGap
// across, a line's height up.
func labelRoom(a, b string, vertical bool) vg.Length {
	sty := textStyle(tickSize)
	if vertical {
		return sty.FontExtents().Height
	}
	return vg.Length((sty.Width(a)+sty.Width(b))/2) + labelGap
}

// spaced returns ticks with the label taken off, which makes the tick
// minor, of each tick whose label does not stand apart (see labelRoom)
// from the last one kept before it, except for the last labelled tick,
// which keeps its label and takes it off those before it that crowd it.
// at gives the place of a value on the axis, in points.
func spaced(ticks []plot.Tick, at func(float64) vg.Length, vertical bool) []plot.Tick {
	out := slices.Clone(ticks)
	last := -1
	for i, t := range out {
		if t.Label != "" {
			last = i
		}
	}
	var kept []int
	crowds := func(i int) bool {
		k := out[kept[len(kept)-1]]
		d := at(out[i].Value) - at(k.Value)
		return max(d, -d) < labelRoom(k.Label, out[i].Label, vertical)
	}
	for i := range out {
		if out[i].Label == "" {
			continue
		}
		for i == last && len(kept) > 0 && crowds(i) {
			out[kept[len(kept)-1]].Label = ""
			kept = kept[:len(kept)-1]
		}
		if len(kept) > 0 && crowds(i) {
			out[i].Label = ""
			continue
		}
		kept = append(kept, i)
	}
	return out
}

// fitter is a ticker that places its labels by its axis's length in
// points: fitted returns it for an axis of length, vertical or not.
type fitter interface {
	plot.Ticker
	fitted(length vg.Length, vertical bool) plot.Ticker
}

// fitTicks fits each of p's tickers that is a fitter to the length its
// axis has when p is drawn in c. The axes' lengths depend a little on
// their ticks' labels, so a second pass measures them with the labels the
// first chose.
func fitTicks(p *plot.Plot, c draw.Canvas) {
	for range 2 {
		d := p.DataCanvas(c)
		if f, ok := p.X.Tick.Marker.(fitter); ok {
			p.X.Tick.Marker = f.fitted(d.Max.X-d.Min.X, false)
		}
		if f, ok := p.Y.Tick.Marker.(fitter); ok {
			p.Y.Tick.Marker = f.fitted(d.Max.Y-d.Min.Y, true)
		}
	}
}

// fitTitle shortens p's title, when it is wider than c, to the most of
// its start and end that fit around an ellipsis in its middle, so that a
// long trace's name keeps its folder's start and its file's end. A rune
// more kept never makes the title narrower, so it finds how many to keep
// by bisection: O(log n) measures of the title for its n runes, each O(n)
// (it took O(n) measures, and a title of 100,000 runes minutes: found by a
// review). It leaves a title of several lines as it is.
func fitTitle(p *plot.Plot, c draw.Canvas) {
	room := c.Max.X - c.Min.X - 2*p.Title.Padding
	title := p.Title.Text
	if strings.Contains(title, "\n") || p.Title.TextStyle.Width(title) <= room {
		return
	}
	r := []rune(title)
	short := func(keep int) string {
		head := (keep + 1) / 2
		return string(r[:head]) + "…" + string(r[len(r)-(keep-head):])
	}
	// The most runes kept, below all of them, whose title fits room.
	keep := sort.Search(len(r)-1, func(k int) bool { return p.Title.TextStyle.Width(short(k+1)) > room })
	p.Title.Text = short(keep)
}

// multiples returns the multiples of step in [lo, hi], at most a hundred.
func multiples(lo, hi, step float64) []float64 {
	var out []float64
	first := math.Ceil(lo / step)
	for n := 0; n < 100; n++ {
		v := (first + float64(n)) * step
		if v > hi {
			break
		}
		out = append(out, v)
	}
	return out
}
