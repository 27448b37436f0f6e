package chart

import "testing"

// The bound on a PNG's pixels counts them as vgimg sizes its image, each
// side rounded to the nearest pixel: 100 by 100 cm is 8189 pixels a side
// at 208 dpi, 67,059,721 in all, within 64 Mi (67,108,864), and 8228 at
// 209 dpi, 67,699,984, beyond it.
func TestPixelBoundsEdge(t *testing.T) {
	for _, tt := range []struct {
		dpi int
		ok  bool
	}{{208, true}, {209, false}} {
		c := config{width: 100, height: 100, dpi: tt.dpi}
		if err := c.checkPixels(); (err == nil) != tt.ok {
			t.Errorf("100 by 100 cm at %d dpi: %v; want within the bound: %v", tt.dpi, err, tt.ok)
		}
	}
	if err := (config{width: 16, height: 10, dpi: 600}).checkPixels(); err != nil {
		t.Errorf("the default size at 600 dpi: %v", err)
	}
}
