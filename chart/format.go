package chart

import (
	"fmt"
	"strings"
)

// Format is the picture format a function writes: [SVG] or [PNG].
type Format uint8

const (
	// SVG is a scalable vector graphic; its text names the font rather than
	// embedding it, which keeps the file small.
	SVG Format = iota
	// PNG is a raster image at the resolution set by [WithDPI].
	PNG
)

// String returns the format's name: "svg" or "png".
func (f Format) String() string {
	switch f {
	case SVG:
		return "svg"
	case PNG:
		return "png"
	}
	return fmt.Sprintf("Format(%d)", uint8(f))
}

// ParseFormat returns the format whose String is name, ignoring case, so
// that a file extension without its dot can name one.
func ParseFormat(name string) (Format, error) {
	for _, f := range []Format{SVG, PNG} {
		if strings.EqualFold(name, f.String()) {
			return f, nil
		}
	}
	return 0, fmt.Errorf("chart: unknown format %q; want svg or png", name)
}
