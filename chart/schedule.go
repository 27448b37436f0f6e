package chart

import (
	"cmp"
	"fmt"
	"image/color"
	"io"
	"slices"
	"strings"
	"unicode/utf8"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/sirali-konvoy/konvoy"
)

// Limits of a schedule picture, which is for small runs.
const (
	maxConsumers = 64
	maxSlots     = 2000
	maxLanes     = 24 // lanes named in the legend; the rest are counted
	maxLaneName  = 24 // runes of a lane name in the legend
)

// Schedule writes to w, in format f, the schedule of a small run made with
// [konvoy.WithSchedule]: one row per consumer, numbered from 1 at the top
// (when the rows are too close for each to have its number, the first, the
// last and every k-th, k 2, 5, 10 and so on), and one box per event from
// its start to its finish, x in rounds. A box is coloured by its lane, in
// the order lanes first appear in slots, grey for an event in no lane, and
// labelled with its key where the label fits. A hatched stretch before a
// box is its consumer holding the event, from when it took it
// ([konvoy.Slot].Taken) to the box's start: under [konvoy.HeadOfLine]
// dispatch, waiting for the event's lane, which is head-of-line blocking.
// A box whose event was written backward, skipped, held, discarded as a
// duplicate, rejected as an old step or never applied has a black outline,
// one pattern per outcome, which the legend shows beside the outcome's
// name. A title that is not empty stands at the top.
//
// Colours repeat after nine lanes, and the legend names the first 24.
//
// Schedule returns an error, and writes nothing, when consumers is not
// between 1 and 64, slots is empty or holds more than 2000 slots, a slot's
// Consumer is outside [0, consumers), its Arrival is negative, its Start is
// before its Arrival, its Taken outside [Arrival, Start], its Finish before
// its Start, or two slots overlap on one consumer (a consumer holds a slot
// from its Taken to its Finish); and as every function here does (see
// [Rounds]).
func Schedule(w io.Writer, f Format, title string, slots []konvoy.Slot, consumers int, opts ...Option) error {
	if err := checkSchedule(slots, consumers); err != nil {
		return err
	}
	g := newGantt(slots, consumers)
	p := newPlot(title, "rounds", "consumer")
	p.X.Min, p.X.Max = 0, float64(max(1, g.end))
	p.X.Tick.Marker = intTicks{most: 25}
	p.Y.Min, p.Y.Max = -0.5, float64(consumers)-0.5
	p.Y.Tick.Marker = rowTicks{g: g}
	p.Y.Tick.Length = 0
	p.Add(&gridLines{vertical: true}, g)
	leg := g.legend()
	return render(w, f, opts, about{cmp.Or(p.Title.Text, "Schedule"), g.desc()}, func(c draw.Canvas) error { return drawWithLegend(c, p, leg) })
}

// rowTicks numbers the rows of a schedule's consumers, from 1 at the top,
// on an axis length points long: every row when the rows stand a line of
// tick labels apart (see labelRoom), else the first, the last and every
// k-th between, k the least of 2, 5, 10, 20 and so on at which the numbers
// stand apart (see spaced). Its length is 0, which numbers every row,
// until fitTicks sets it.
type rowTicks struct {
	g      *gantt
	length vg.Length
}

func (t rowTicks) fitted(length vg.Length, _ bool) plot.Ticker {
	t.length = length
	return t
}

func (t rowTicks) Ticks(lo, hi float64) []plot.Tick {
	n := t.g.consumers
	k := 1
	if t.length > 0 {
		row := t.length / vg.Length(n)
		for m := 1; vg.Length(k)*row < labelRoom("", "", true); m++ {
			k = int(niceStep(m))
		}
	}
	var ticks []plot.Tick
	for c := range n {
		if c == 0 || (c+1)%k == 0 || c == n-1 {
			ticks = append(ticks, plot.Tick{Value: t.g.row(c), Label: fmt.Sprint(c + 1)})
		}
	}
	if t.length <= 0 || !(hi > lo) {
		return ticks
	}
	return spaced(ticks, func(v float64) vg.Length { return t.length * vg.Length((v-lo)/(hi-lo)) }, true)
}

// checkSchedule checks the arguments of [Schedule]: the number of consumers
// and of slots, then each slot in order, then that no two slots overlap on
// one consumer, returning the first problem found.
func checkSchedule(slots []konvoy.Slot, consumers int) error {
	if consumers < 1 || consumers > maxConsumers {
		return fmt.Errorf("chart: Schedule: %d consumers: want 1 to %d", consumers, maxConsumers)
	}
	if len(slots) == 0 {
		return fmt.Errorf("chart: Schedule: no slots (was the run made WithSchedule?)")
	}
	if len(slots) > maxSlots {
		return fmt.Errorf("chart: Schedule: %d slots: a schedule picture takes at most %d", len(slots), maxSlots)
	}
	for i, s := range slots {
		if err := checkSlot("Schedule", i, s, consumers); err != nil {
			return err
		}
	}
	return checkOverlaps("Schedule", slots)
}

// checkSlot checks slot i, s, of a schedule of consumers drawn by the
// function fn: its consumer in range, its times in range and in order.
func checkSlot(fn string, i int, s konvoy.Slot, consumers int) error {
	switch {
	case s.Consumer < 0 || s.Consumer >= consumers:
		return fmt.Errorf("chart: %s: slot %d: Consumer %d: want 0 to %d", fn, i, s.Consumer, consumers-1)
	case s.Arrival < 0 || s.Finish > maxValue:
		return fmt.Errorf("chart: %s: slot %d: Arrival %d, Finish %d: want 0 to %d", fn, i, s.Arrival, s.Finish, maxValue)
	case s.Start < s.Arrival:
		return fmt.Errorf("chart: %s: slot %d: Start %d before Arrival %d", fn, i, s.Start, s.Arrival)
	case s.Taken < s.Arrival || s.Taken > s.Start:
		return fmt.Errorf("chart: %s: slot %d: Taken %d: want a time from Arrival %d to Start %d", fn, i, s.Taken, s.Arrival, s.Start)
	case s.Finish < s.Start:
		return fmt.Errorf("chart: %s: slot %d: Finish %d before Start %d", fn, i, s.Finish, s.Start)
	}
	return nil
}

// checkOverlaps checks that no two of slots, each checked by [checkSlot],
// overlap on one consumer, for the function fn, reporting the first overlap
// in order of consumer and then of time taken. A consumer holds a slot's
// event from its Taken (waiting, under head-of-line dispatch, for its lane)
// to its Finish, and no consumer takes an event before its last one
// finished. It takes memory for the slots, not for every consumer.
func checkOverlaps(fn string, slots []konvoy.Slot) error {
	order := make([]int, len(slots))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int {
		return cmp.Or(cmp.Compare(slots[a].Consumer, slots[b].Consumer), cmp.Compare(slots[a].Taken, slots[b].Taken),
			cmp.Compare(slots[a].Finish, slots[b].Finish), cmp.Compare(a, b))
	})
	for j := 1; j < len(order); j++ {
		a, b := slots[order[j-1]], slots[order[j]]
		if a.Consumer == b.Consumer && b.Taken < a.Finish {
			return fmt.Errorf("chart: %s: slots %d and %d overlap on consumer %d: held [%d, %d) and [%d, %d), from Taken to Finish",
				fn, order[j-1], order[j], a.Consumer, a.Taken, a.Finish, b.Taken, b.Finish)
		}
	}
	return nil
}

// byConsumer returns, for each consumer, the indices of its slots in order
// of start, then finish, then position.
func byConsumer(slots []konvoy.Slot, consumers int) [][]int {
	runs := make([][]int, consumers)
	for i, s := range slots {
		runs[s.Consumer] = append(runs[s.Consumer], i)
	}
	for _, run := range runs {
		slices.SortFunc(run, func(a, b int) int {
			return cmp.Or(cmp.Compare(slots[a].Start, slots[b].Start), cmp.Compare(slots[a].Finish, slots[b].Finish), cmp.Compare(a, b))
		})
	}
	return runs
}

// gantt is the plotter of a checked schedule.
type gantt struct {
	slots     []konvoy.Slot
	consumers int
	runs      [][]int
	lanes     []string       // in order of first appearance
	colour    map[string]int // lane → palette index
	end       int            // the last finish
	free      bool           // some event runs in no lane
	waits     bool           // some consumer waits
	outcomes  []konvoy.Outcome
}

// halfBox is half a box's height, in rows.
const halfBox = 0.36

func newGantt(slots []konvoy.Slot, consumers int) *gantt {
	g := &gantt{slots: slots, consumers: consumers, runs: byConsumer(slots, consumers), colour: map[string]int{}}
	for _, s := range slots {
		g.end = max(g.end, s.Finish)
		if s.Lane == "" {
			g.free = true
		} else if _, ok := g.colour[s.Lane]; !ok {
			g.colour[s.Lane] = len(g.lanes)
			g.lanes = append(g.lanes, s.Lane)
		}
		if outlines[s.Outcome] != nil && !slices.Contains(g.outcomes, s.Outcome) {
			g.outcomes = append(g.outcomes, s.Outcome)
		}
	}
	slices.Sort(g.outcomes)
	g.eachWait(func(int, int, int) { g.waits = true })
	return g
}

// row returns the y of consumer c's row: consumer 0 at the top.
func (g *gantt) row(c int) float64 { return float64(g.consumers - 1 - c) }

// fill returns the colour of a slot's box.
func (g *gantt) fill(s konvoy.Slot) color.Color {
	if s.Lane == "" {
		return grey
	}
	return colour(g.colour[s.Lane])
}

// eachWait calls fn for each stretch a consumer holds an event it cannot
// start yet: from when it took the event to the event's start.
func (g *gantt) eachWait(fn func(slot, from, to int)) {
	for _, run := range g.runs {
		for _, i := range run {
			if s := g.slots[i]; s.Start > s.Taken {
				fn(i, s.Taken, s.Start)
			}
		}
	}
}

// outlines are the outlines of boxes whose outcome is not plain, a
// pattern of its own for each outcome: solid, dashed, dotted, dash-dot,
// dash-dot-dot and long-dashed.
var outlines = map[konvoy.Outcome]*draw.LineStyle{
	konvoy.WrittenBackward: {Color: black, Width: vg.Points(1.6)},
	konvoy.Skipped:         {Color: black, Width: vg.Points(1.6), Dashes: []vg.Length{vg.Points(3), vg.Points(2)}},
	konvoy.Held:            {Color: black, Width: vg.Points(1.6), Dashes: []vg.Length{vg.Points(1), vg.Points(1.5)}},
	konvoy.Duplicate:       {Color: black, Width: vg.Points(1.6), Dashes: []vg.Length{vg.Points(5), vg.Points(1.5), vg.Points(1), vg.Points(1.5)}},
	konvoy.RejectedOld:     {Color: black, Width: vg.Points(1.6), Dashes: []vg.Length{vg.Points(5), vg.Points(1.5), vg.Points(1), vg.Points(1.5), vg.Points(1), vg.Points(1.5)}},
	konvoy.NeverApplied:    {Color: black, Width: vg.Points(1.6), Dashes: []vg.Length{vg.Points(7), vg.Points(2)}},
}

func (g *gantt) DataRange() (xmin, xmax, ymin, ymax float64) {
	return 0, float64(max(1, g.end)), -0.5, float64(g.consumers) - 0.5
}

func (g *gantt) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	box := func(s konvoy.Slot, from, to int) vg.Rectangle {
		y := g.row(s.Consumer)
		return vg.Rectangle{
			Min: vg.Point{X: trX(float64(from)), Y: trY(y - halfBox)},
			Max: vg.Point{X: trX(float64(to)), Y: trY(y + halfBox)},
		}
	}
	g.eachWait(func(i, from, to int) {
		s := g.slots[i]
		r := box(s, from, to)
		hatch(c, r, g.fill(s))
		strokeBox(c, r, draw.LineStyle{Color: g.fill(s), Width: vg.Points(0.5)})
	})
	label := textStyle(boxSize)
	label.XAlign, label.YAlign = draw.XCenter, draw.YCenter
	for _, s := range g.slots {
		r := box(s, s.Start, s.Finish)
		fill := g.fill(s)
		if s.Start == s.Finish {
			x := r.Min.X
			c.StrokeLine2(draw.LineStyle{Color: fill, Width: vg.Points(1.5)}, x, r.Min.Y, x, r.Max.Y)
			continue
		}
		c.FillPolygon(fill, corners(r))
		strokeBox(c, r, draw.LineStyle{Color: white, Width: vg.Points(0.8)})
		if o := outlines[s.Outcome]; o != nil {
			strokeBox(c, r, *o)
		}
		g.label(c, r, printable(s.Key), label, fill)
	}
}

// label writes txt in the middle of r, across it if it fits, else up it if
// it fits that way, in black or white, whichever reads better on fill.
func (g *gantt) label(c draw.Canvas, r vg.Rectangle, txt string, sty text.Style, fill color.Color) {
	if txt == "" {
		return
	}
	sty.Color = black
	if luma(fill) < 140 {
		sty.Color = white
	}
	pad := vg.Points(2.5)
	w, h := r.Max.X-r.Min.X-2*pad, r.Max.Y-r.Min.Y-2*pad
	tw, th := sty.Width(txt), sty.FontExtents().Height
	mid := vg.Point{X: (r.Min.X + r.Max.X) / 2, Y: (r.Min.Y + r.Max.Y) / 2}
	switch {
	case tw <= w && th <= h:
		c.FillText(sty, mid, txt)
	case tw <= h && th <= w:
		sty.Rotation = 1.5707963267948966 // a quarter turn anticlockwise
		c.FillText(sty, mid, txt)
	}
}

// luma returns the perceived brightness of col, from 0 to 255.
func luma(col color.Color) float64 {
	r, g, b, _ := col.RGBA()
	return (float64(0.299*float64(r)) + float64(0.587*float64(g)) + float64(0.114*float64(b))) / 257 // not fused
}

// legend returns the legend of the schedule's lanes, waits and outcomes.
func (g *gantt) legend() *flowLegend {
	l := newFlowLegend()
	if len(g.lanes) > 0 {
		l.add(nil, "lanes:")
		for _, lane := range g.lanes[:min(len(g.lanes), maxLanes)] {
			l.add(swatch{fill: colour(g.colour[lane])}, shorten(printable(lane), maxLaneName))
		}
		if n := len(g.lanes) - maxLanes; n > 0 {
			l.add(nil, fmt.Sprintf("and %d more", n))
		}
	}
	if g.free {
		l.add(swatch{fill: grey}, "no lane")
	}
	if g.waits {
		l.add(swatch{hatch: color.Gray{Y: 0x60}, border: draw.LineStyle{Color: color.Gray{Y: 0x60}, Width: vg.Points(0.5)}},
			"consumer idle, waiting for the lane")
	}
	for _, o := range g.outcomes {
		l.add(swatch{fill: white, border: *outlines[o]}, strings.ReplaceAll(o.String(), "-", " "))
	}
	return l
}

// shorten returns s cut to at most n runes, an ellipsis marking the cut.
func shorten(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n-1]) + "…"
}

// desc describes the schedule in words: its rows, boxes and waits.
func (g *gantt) desc() string {
	lanes := "coloured by its lane, " + plural(len(g.lanes), "lane", "lanes")
	if len(g.lanes) == 0 {
		lanes = "grey: no event runs in a lane"
	}
	d := fmt.Sprintf("One row per consumer, %s, and one box per event from its start to its finish, %s in %s, each %s.",
		plural(g.consumers, "consumer", "consumers"), plural(len(g.slots), "event", "events"), plural(g.end, "round", "rounds"), lanes)
	if g.waits {
		d += " A hatched stretch is a consumer idle before its next box: under head-of-line dispatch, holding an event whose lane is busy (head-of-line blocking)."
	}
	return d
}
