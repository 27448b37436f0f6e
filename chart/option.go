package chart

import (
	"fmt"
	"math"
)

// The default picture size, in centimetres, and resolution of a PNG, in
// dots per inch.
const (
	DefaultWidth  = 16.0
	DefaultHeight = 10.0
	DefaultDPI    = 144
)

// The limits an Option is checked against.
const (
	minSize, maxSize = 4.0, 100.0 // centimetres
	minDPI, maxDPI   = 36, 600
)

// Option changes how a picture is drawn; a later option overrides an earlier
// one of the same kind. An option out of range makes the drawing function
// return an error.
type Option func(*config)

type config struct {
	width, height float64 // centimetres
	dpi           int
}

// WithSize sets the picture's width and height in centimetres, each between
// 4 and 100; the default is [DefaultWidth] by [DefaultHeight].
func WithSize(width, height float64) Option {
	return func(c *config) { c.width, c.height = width, height }
}

// WithDPI sets the resolution of a PNG picture in dots per inch, between 36
// and 600; the default is [DefaultDPI]. An SVG picture ignores it.
func WithDPI(dpi int) Option {
	return func(c *config) { c.dpi = dpi }
}

// newConfig applies opts to the defaults and checks the result.
func newConfig(opts []Option) (config, error) {
	c := config{width: DefaultWidth, height: DefaultHeight, dpi: DefaultDPI}
	for _, o := range opts {
		if o != nil {
			o(&c)
		}
	}
	for _, s := range []struct {
		name string
		v    float64
	}{{"width", c.width}, {"height", c.height}} {
		if math.IsNaN(s.v) || s.v < minSize || s.v > maxSize {
			return config{}, fmt.Errorf("chart: %s %v cm: want %v to %v cm", s.name, s.v, minSize, maxSize)
		}
	}
	if c.dpi < minDPI || c.dpi > maxDPI {
		return config{}, fmt.Errorf("chart: %d dpi: want %d to %d", c.dpi, minDPI, maxDPI)
	}
	return c, nil
}
