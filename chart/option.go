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
	maxPixels        = 64 << 20 // of a PNG, 4 bytes each while it is drawn
)

// Option changes how a picture is drawn; a later option overrides an earlier
// one of the same kind. An option out of range makes the drawing function
// return an error.
type Option func(*config)

type config struct {
	width, height float64 // centimetres
	sized         bool    // WithSize set them: the height does not grow for the legend
	dpi           int
}

// WithSize sets the picture's width and height in centimetres, each between
// 4 and 100; the default is [DefaultWidth] by [DefaultHeight], taller, up to
// 100 cm, where the legend would take more than half the height (many
// layouts), which a size set here never is: its legend's height is an error.
func WithSize(width, height float64) Option {
	return func(c *config) { c.width, c.height, c.sized = width, height, true }
}

// WithDPI sets the resolution of a PNG picture in dots per inch, between 36
// and 600; the default is [DefaultDPI]. An SVG picture is drawn at no
// resolution, but a value out of that range is an error for it too. A PNG
// is drawn in memory, 4 bytes a pixel: one of more than 64 Mi pixels
// (100 by 100 cm above 200 dpi, say) is an error.
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

// checkPixels returns an error when a PNG of c would have more than
// maxPixels pixels.
func (c config) checkPixels() error {
	side := func(cm float64) float64 { return math.Floor(float64(cm/2.54*float64(c.dpi)) + 0.5) } // as vgimg sizes its image
	if px := side(c.width) * side(c.height); px > maxPixels {
		return fmt.Errorf("chart: %v by %v cm at %d dpi is %.0f pixels: want at most %d (%d Mi), a smaller size or resolution",
			c.width, c.height, c.dpi, px, maxPixels, maxPixels>>20)
	}
	return nil
}
