package main

import (
	"bytes"
	"cmp"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/chart"
	"github.com/sirali-konvoy/konvoy/internal/report"
	"github.com/sirali-konvoy/konvoy/lesson"
)

// maxPlotEvents is the most events whose schedule and latency -plot draws:
// a schedule picture holds at most that many boxes (chart.Schedule's
// limit), and the runs that draw them keep every event's slot in memory.
const maxPlotEvents = 2000

// maxPlotLayouts is the most layouts one picture draws (the limit of
// chart.Rounds and chart.Latency).
const maxPlotLayouts = 12

// maxPlotConsumers is the most consumers a schedule picture has rows for
// (chart.Schedule's limit).
const maxPlotConsumers = 64

// lessonPlotLayouts are the layouts of the lesson's pictures: the three the
// lesson's rounds table compares.
var lessonPlotLayouts = []konvoy.Layout{konvoy.Free, konvoy.Convoy, konvoy.LineConvoy}

// lessonPlotCounts are the consumer counts of the lesson's rounds picture.
var lessonPlotCounts = []int{1, 2, 3, 4, 5, 6, 7, 8}

// tracePlotCounts are the consumer counts of a trace's rounds picture when
// -consumers is not given.
var tracePlotCounts = []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}

// picture is one file that -plot writes: its name in the directory and its
// content.
type picture struct {
	name string
	data []byte
}

// pictures are the files -plot writes, and notes for standard error on the
// pictures it could not draw.
type pictures struct {
	files []picture
	notes []string
	cmd   string // the command whose name errors start with; "" for konvoy
}

// plotFlags defines -plot, the directory *dir of the pictures, and
// -plot-format, which needs it and sets *formats.
func (c *command) plotFlags(dir *string, formats *[]chart.Format) {
	c.StringVar(dir, "plot", "", "also draw the pictures (rounds against consumers, schedules, latency) into the directory `DIR`")
	format := "both"
	c.nonEmpty(dir, "plot", "the directory to draw the pictures in")
	c.needs("plot", "plot-format")
	c.choice(&format, "plot-format", format, "the pictures' `format`: svg, png or both (needs -plot)", "svg, png or both", "svg", "png", "both")
	c.rule(func() error {
		*formats = []chart.Format{chart.SVG, chart.PNG}
		if f, err := chart.ParseFormat(format); err == nil {
			*formats = []chart.Format{f}
		}
		return nil
	})
}

// plotCounts are the consumer counts of a trace's rounds picture: the
// -consumers list when given, else 1 to 16.
func plotCounts(opt options) []int {
	if opt.consumersSet {
		return slices.Compact(slices.Sorted(slices.Values(opt.consumers))) // rising, as Rounds wants
	}
	return tracePlotCounts
}

// lessonPictures draws the lesson's pictures under the first policy of opt:
// rounds against 1 to 8 consumers, and the schedules and the latencies at
// the first consumer count, of the lesson's layouts (lessonPlotLayouts,
// with the convoy's schedule alone) or, when -layouts names them (the
// lesson's -format json or csv), of those, each with its schedule, as a
// trace's.
func lessonPictures(opt options) (pictures, error) {
	events := lesson.Events()
	layouts, drawn := lessonPlotLayouts, []konvoy.Layout{konvoy.Convoy}
	if opt.layoutsSet {
		layouts, drawn = opt.layouts, opt.layouts
	}
	consumers, policy := opt.consumers[0], opt.policies[0]
	dispatch := report.Dispatch(policy, opt.assignor, konvoy.WithResequencer(opt.reseq))
	var pics pictures
	work, series, err := chart.SimulateRounds(events, layouts, lessonPlotCounts, dispatch...)
	if err != nil {
		return pics, err
	}
	if err := pics.draw(opt.plotFormats, "rounds", func(w io.Writer, f chart.Format) error {
		return chart.Rounds(w, f, work, series)
	}); err != nil {
		return pics, err
	}
	err = pics.schedulesAndLatency(opt.plotFormats, events, layouts, drawn, consumers, dispatch,
		func(l konvoy.Layout) string {
			return fmt.Sprintf("The lesson under %s, %s%s", l, report.Plural(consumers, "consumer", "consumers"), dispatchNote(policy))
		})
	return pics, err
}

// tracePictures draws a trace's pictures under the first policy of its
// options: rounds against consumers for every layout and, for a trace of at
// most maxPlotEvents events, each layout's schedule and the latencies at
// the first consumer count.
func tracePictures(t *trace) (pictures, error) {
	var pics pictures
	counts := plotCounts(t.opt)
	// t.Layouts, not t.opt.layouts: recorded has its partition count there.
	work, series := chart.RoundsOf(t.Layouts, counts, func(li, ci int) konvoy.Result { return t.Run(li, 0, counts[ci]) })
	if err := pics.draw(t.opt.plotFormats, "rounds", func(w io.Writer, f chart.Format) error {
		return chart.Rounds(w, f, work, series)
	}); err != nil {
		return pics, err
	}
	if len(t.sample) > maxPlotEvents {
		pics.notes = append(pics.notes, fmt.Sprintf("-plot drew rounds only: schedules and latencies need a trace of at most %d events, and %s has %d",
			maxPlotEvents, t.Name, t.Stats.Events()))
		return pics, nil
	}
	consumers, policy := t.opt.consumers[0], t.opt.policies[0]
	dispatch := report.Dispatch(policy, t.opt.assignor, konvoy.WithResequencer(t.opt.reseq))
	err := pics.schedulesAndLatency(t.opt.plotFormats, t.sample, t.Layouts, t.Layouts, consumers, dispatch,
		func(l konvoy.Layout) string {
			return fmt.Sprintf("%s under %s, %s%s", filepath.Base(t.Name), l, report.Plural(consumers, "consumer", "consumers"), dispatchNote(policy))
		})
	return pics, err
}

// schedulesAndLatency runs events under each of layouts at consumers,
// dispatched as the report's runs are (dispatch), keeping their schedules, and draws the schedule of each layout in drawn,
// under the title title gives it, and the latencies of all.
// Beyond maxPlotConsumers consumers it draws no schedule, and notes that.
func (p *pictures) schedulesAndLatency(formats []chart.Format, events []konvoy.Event, layouts, drawn []konvoy.Layout,
	consumers int, dispatch []konvoy.Option, title func(konvoy.Layout) string) error {
	latency, err := chart.SimulateLatency(events, layouts, consumers, dispatch...)
	if err != nil {
		return err
	}
	for i, l := range layouts {
		if !slices.ContainsFunc(drawn, l.Equal) || consumers > maxPlotConsumers {
			continue
		}
		err = p.draw(formats, "schedule-"+strings.ReplaceAll(l.String(), ":", "-"), func(w io.Writer, f chart.Format) error {
			return chart.Schedule(w, f, title(l), latency[i].Slots, consumers)
		})
		if err != nil {
			return err
		}
	}
	if consumers > maxPlotConsumers {
		p.notes = append(p.notes, fmt.Sprintf("-plot drew no schedule: a schedule picture has rows for at most %d consumers, and -consumers asks for %d",
			maxPlotConsumers, consumers))
	}
	return p.draw(formats, "latency", func(w io.Writer, f chart.Format) error {
		return chart.Latency(w, f, latency)
	})
}

// draw adds the picture base.svg, base.png or both, as formats asks, that
// fn draws.
func (p *pictures) draw(formats []chart.Format, base string, fn func(io.Writer, chart.Format) error) error {
	for _, f := range formats {
		var buf bytes.Buffer
		if err := fn(&buf, f); err != nil {
			return fmt.Errorf("%s: -plot %s.%v: %w", cmp.Or(p.cmd, "konvoy"), base, f, err)
		}
		p.files = append(p.files, picture{name: base + "." + f.String(), data: buf.Bytes()})
	}
	return nil
}

// writePictures writes pics into the directory dir, which it makes if need
// be. Each picture is written whole to a temporary file beside its place,
// then renamed into it, so that an interrupt or a failure never leaves a
// picture cut short.
func writePictures(dir string, pics []picture) error { return writePicturesOf("konvoy", dir, pics) }

// writePicturesOf is writePictures for the command cmd, whose name its
// errors start with.
func writePicturesOf(cmd, dir string, pics []picture) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("%s: -plot: %w", cmd, err)
	}
	for _, p := range pics {
		if err := writeWhole(filepath.Join(dir, p.name), p.data); err != nil {
			return fmt.Errorf("%s: -plot: %w", cmd, err)
		}
	}
	return nil
}

// writeWhole writes data to the file path by way of a temporary file in the
// same directory, renamed into place once written and closed.
func writeWhole(path string, data []byte) error {
	f, err := createTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(f.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		removeTemp(f.Name())
		return err
	}
	forgetTemp(f.Name())
	return nil
}

// dispatchNote is what a picture's title says of a policy other than the
// lesson's head-of-line.
func dispatchNote(p konvoy.Policy) string {
	if p == konvoy.HeadOfLine {
		return ""
	}
	return ", " + p.String() + " dispatch"
}
