package chart

import (
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// legendEntry is one entry of a flowLegend: a thumbnail, which may be nil
// for a heading, and its text.
type legendEntry struct {
	thumb plot.Thumbnailer
	text  string
}

// flowLegend lays its entries out left to right below a plot, wrapping to a
// new row when the width runs out, so that the plot keeps the picture's
// whole width.
type flowLegend struct {
	entries []legendEntry
	style   text.Style
}

var (
	thumbWidth = vg.Points(20)
	thumbGap   = vg.Points(4)
	entryGap   = vg.Points(12)
	rowGap     = vg.Points(3)
)

func newFlowLegend() *flowLegend {
	sty := textStyle(tickSize)
	sty.XAlign, sty.YAlign = draw.XLeft, draw.YCenter
	return &flowLegend{style: sty}
}

func (l *flowLegend) add(thumb plot.Thumbnailer, txt string) {
	l.entries = append(l.entries, legendEntry{thumb, printable(txt)})
}

// width returns the width of entry e.
func (l *flowLegend) width(e legendEntry) vg.Length {
	w := l.style.Width(e.text)
	if e.thumb != nil {
		w += thumbWidth + thumbGap
	}
	return w
}

// rows splits the entries into rows no wider than width; an entry wider
// than width, which room refuses, has a row of its own.
func (l *flowLegend) rows(width vg.Length) [][]legendEntry {
	var rows [][]legendEntry
	var row []legendEntry
	var used vg.Length
	for _, e := range l.entries {
		w := l.width(e)
		if len(row) > 0 && used+entryGap+w > width {
			rows, row, used = append(rows, row), nil, 0
		}
		if len(row) > 0 {
			used += entryGap
		}
		row, used = append(row, e), used+w
	}
	if len(row) > 0 {
		rows = append(rows, row)
	}
	return rows
}

// rowHeight returns the height of one row.
func (l *flowLegend) rowHeight() vg.Length {
	return vg.Length(l.style.FontExtents().Height * 1.15) // rounded: not fused with its uses, on any machine
}

// height returns the height the legend takes within width.
func (l *flowLegend) height(width vg.Length) vg.Length {
	n := vg.Length(len(l.rows(width)))
	if n == 0 {
		return 0
	}
	return vg.Length(n*l.rowHeight()) + vg.Length((n-1)*rowGap)
}

// draw draws the legend from the top left of c.
func (l *flowLegend) draw(c draw.Canvas) {
	rh := l.rowHeight()
	y := c.Max.Y
	for _, row := range l.rows(c.Max.X - c.Min.X) {
		x := c.Min.X
		for _, e := range row {
			if e.thumb != nil {
				e.thumb.Thumbnail(&draw.Canvas{Canvas: c.Canvas, Rectangle: vg.Rectangle{
					Min: vg.Point{X: x, Y: y - rh},
					Max: vg.Point{X: x + thumbWidth, Y: y},
				}})
				x += thumbWidth + thumbGap
			}
			c.FillText(l.style, vg.Point{X: x, Y: y - vg.Length(rh/2)}, e.text)
			x += l.style.Width(e.text) + entryGap
		}
		y -= rh + rowGap
	}
}

// thumbs draws several thumbnails on top of each other.
type thumbs []plot.Thumbnailer

func (ts thumbs) Thumbnail(c *draw.Canvas) {
	for _, t := range ts {
		t.Thumbnail(c)
	}
}

// legendGap is the space between a plot and the legend below it.
var legendGap = vg.Points(8)

// drawWithLegend draws p in c above leg, which is aligned with p's data
// area, its ticks fitted to its axes (see fitTicks) and its title to c's
// width (see fitTitle), or returns the legend's room error (see flowLegend.room).
func drawWithLegend(c draw.Canvas, p *plot.Plot, leg *flowLegend) error {
	fitTitle(p, c)
	fitTicks(p, c)
	data := p.DataCanvas(c)
	h, err := leg.room(c, data.Max.X-data.Min.X)
	if err != nil {
		return err
	}
	top := c
	top.Min.Y += h + 2*legendGap
	fitTicks(p, top)
	p.Draw(top)
	data = p.DataCanvas(top)
	bottom := c
	bottom.Min.X, bottom.Max.X = data.Min.X, data.Max.X
	bottom.Max.Y = c.Min.Y + h + legendGap
	leg.draw(bottom)
	return nil
}

// room returns the height the legend takes within width, below the plots
// of canvas c, or an error when an entry is wider than width (drawn, it
// would run off the picture, its figures cut), or when the legend would
// leave the plots less than half of c's height (drawn, it would run over
// them).
func (l *flowLegend) room(c draw.Canvas, width vg.Length) (vg.Length, error) {
	for _, e := range l.entries {
		if w := l.width(e); w > width {
			return 0, fmt.Errorf("chart: the legend's entry %q is %.1f cm wide, wider than the %.1f cm it has: "+
				"want a larger picture (WithSize), or shorter names", e.text, w.Points()/cmPoints, width.Points()/cmPoints)
		}
	}
	height := l.height(width)
	if full := c.Max.Y - c.Min.Y; height+2*legendGap > full/2 {
		return 0, &tallLegendError{entries: len(l.entries), takes: height + 2*legendGap, full: full}
	}
	return height, nil
}

// tallLegendError is room's error for a legend that would take more than
// half the picture's height: render draws a picture of the default size
// again, taller, and returns it for a size WithSize set.
type tallLegendError struct {
	entries     int
	takes, full vg.Length
}

func (e *tallLegendError) Error() string {
	return fmt.Sprintf("chart: the legend's %d entries take %.1f of the picture's %.1f cm height, more than half: "+
		"want a larger picture (WithSize), or fewer or shorter names", e.entries, e.takes.Points()/cmPoints, e.full.Points()/cmPoints)
}

// height returns the picture's height, in centimetres, at which the legend
// takes half of it, rounded up to the next half centimetre.
func (e *tallLegendError) height() float64 {
	return math.Ceil(2*e.takes.Points()/cmPoints*2) / 2
}

// cmPoints is the points in a centimetre.
var cmPoints = vg.Centimeter.Points()

// swatch is the thumbnail of a box: filled, hatched or outlined.
type swatch struct {
	fill   color.Color // nil: not filled
	hatch  color.Color // nil: not hatched
	border draw.LineStyle
}

func (s swatch) Thumbnail(c *draw.Canvas) {
	h := c.Max.Y - c.Min.Y
	r := vg.Rectangle{
		Min: vg.Point{X: c.Min.X, Y: c.Min.Y + vg.Length(h*0.15)},
		Max: vg.Point{X: c.Max.X, Y: c.Max.Y - vg.Length(h*0.15)},
	}
	if s.fill != nil {
		c.FillPolygon(s.fill, corners(r))
	}
	if s.hatch != nil {
		hatch(*c, r, s.hatch)
	}
	if s.border.Width > 0 {
		strokeBox(*c, r, s.border)
	}
}

// corners returns the corners of r, anticlockwise from its bottom left.
func corners(r vg.Rectangle) []vg.Point {
	return []vg.Point{r.Min, {X: r.Max.X, Y: r.Min.Y}, r.Max, {X: r.Min.X, Y: r.Max.Y}}
}

// strokeBox outlines r with sty, inside r, so that a thick outline does not
// spill onto a neighbouring box.
func strokeBox(c draw.Canvas, r vg.Rectangle, sty draw.LineStyle) {
	in := vg.Length(sty.Width / 2) // rounded: not fused below, on any machine
	if r.Max.X-r.Min.X <= 2*in || r.Max.Y-r.Min.Y <= 2*in {
		in = 0
	}
	r.Min.X, r.Min.Y, r.Max.X, r.Max.Y = r.Min.X+in, r.Min.Y+in, r.Max.X-in, r.Max.Y-in
	pts := corners(r)
	c.StrokeLines(sty, append(pts, pts[0]))
}

// hatchSpacing is the horizontal distance between hatch lines.
var hatchSpacing = vg.Points(4)

// hatch fills r with thin diagonal lines in col, placed on a grid fixed to
// the canvas so that the hatches of neighbouring boxes line up.
func hatch(c draw.Canvas, r vg.Rectangle, col color.Color) {
	sty := draw.LineStyle{Color: col, Width: vg.Points(0.9)}
	// The lines are y = x - k; k runs over the multiples of hatchSpacing
	// for which the line crosses r.
	first := vg.Length(int((r.Min.X-r.Max.Y)/hatchSpacing)) * hatchSpacing
	for k := first; k <= r.Max.X-r.Min.Y; k += hatchSpacing {
		x0 := max(r.Min.X, r.Min.Y+k)
		x1 := min(r.Max.X, r.Max.Y+k)
		if x0 >= x1 {
			continue
		}
		c.StrokeLine2(sty, x0, x0-k, x1, x1-k)
	}
}
