package chart

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"image/color"
	"io"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// svgFamily is how vgsvg names the font; svgFamilies names it with
// fallbacks, Arial first, whose metrics are the same, so that an SVG viewer
// without Liberation Sans still fits every label where it was measured.
const (
	svgFamily   = "font-family:Liberation Sans;"
	svgFamilies = "font-family:'Liberation Sans',Arial,Helvetica,sans-serif;"
)

// render draws a picture of the configured size with paint and writes it to
// w in format f, all at once: on an error nothing is written. A picture of
// the default size whose legend would take more than half of it is drawn
// again, as tall as the legend needs, up to maxSize. An SVG carries the
// text a, its title and description, for screen readers and pages that
// show it inline. A panic inside gonum/plot, which validated input should
// never cause, becomes an error.
func render(w io.Writer, f Format, opts []Option, a about, paint func(draw.Canvas) error) error {
	if w == nil {
		return fmt.Errorf("chart: nil writer")
	}
	cfg, err := newConfig(opts)
	if err != nil {
		return err
	}
	out, err := renderAt(cfg, f, a, paint)
	// Each try is taller than the last, and the legend's height depends on
	// the width alone, but for the axes' labels, which a taller plot may
	// widen: a few tries settle it.
	for try := 0; try < 4 && !cfg.sized; try++ {
		var tall *tallLegendError
		if !errors.As(err, &tall) || tall.height() <= cfg.height || tall.height() > maxSize {
			break
		}
		cfg.height = tall.height()
		out, err = renderAt(cfg, f, a, paint)
	}
	if err != nil {
		return err
	}
	if _, err := w.Write(out); err != nil {
		return fmt.Errorf("chart: writing %v: %w", f, err)
	}
	return nil
}

// renderAt draws a picture of cfg's size with paint and returns it, in
// format f.
func renderAt(cfg config, f Format, a about, paint func(draw.Canvas) error) (out []byte, err error) {
	width, height := vg.Length(cfg.width)*vg.Centimeter, vg.Length(cfg.height)*vg.Centimeter

	var canvas vg.CanvasWriterTo
	switch f {
	case SVG:
		canvas = vgsvg.New(width, height)
	case PNG:
		if err := cfg.checkPixels(); err != nil {
			return nil, err
		}
		canvas = vgimg.PngCanvas{Canvas: vgimg.NewWith(
			vgimg.UseWH(width, height),
			vgimg.UseDPI(cfg.dpi),
			vgimg.UseBackgroundColor(color.White),
		)}
	default:
		return nil, fmt.Errorf("chart: unknown format %v; want SVG or PNG", f)
	}

	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("chart: drawing failed: %v", r)
		}
	}()
	c := draw.New(canvas)
	c.FillPolygon(white, corners(c.Rectangle)) // an SVG is otherwise transparent where no plot is
	if err := paint(c); err != nil {
		return nil, err
	}

	var buf bytes.Buffer
	if _, err := canvas.WriteTo(&buf); err != nil {
		return nil, fmt.Errorf("chart: encoding %v: %w", f, err)
	}
	out = buf.Bytes()
	if f == SVG {
		out = a.into(bytes.ReplaceAll(out, []byte(svgFamily), []byte(svgFamilies)))
	}
	return out, nil
}

// about is what an SVG says of itself: its title and its description, the
// text a reader who cannot see it is given.
type about struct{ title, desc string }

// into returns the SVG svg with a's title and description as the first
// children of its root element, escaped, and role="img" on the root, so
// that a page showing it inline has it read as one picture with a name.
func (a about) into(svg []byte) []byte {
	start := bytes.Index(svg, []byte("<svg "))
	end := bytes.IndexByte(svg[max(start, 0):], '>')
	if start < 0 || end < 0 {
		return svg // vgsvg always writes the root element
	}
	end += start + 1
	var b bytes.Buffer
	b.Write(svg[:start])
	b.WriteString(`<svg role="img" `)
	b.Write(svg[start+len("<svg ") : end])
	b.WriteString("\n<title>")
	xml.EscapeText(&b, []byte(a.title))
	b.WriteString("</title>\n<desc>")
	xml.EscapeText(&b, []byte(a.desc))
	b.WriteString("</desc>")
	b.Write(svg[end:])
	return b.Bytes()
}
