package report

import (
	"testing"
	"time"
)

// ParseSLO reads a percentile as the number it names: trailing zeros after
// the point are no step of their own, so p50.000 is p50 and p99.90 is
// p99.9, as p99.90 was before and p50.000 was not (refused with the
// message for a flag with no pNN at all, as was p0; found by a review).
func TestParseSLOReadsThePercentileItNames(t *testing.T) {
	for _, c := range []struct {
		in   string
		want float64
	}{
		{"p50=1s", 50}, {"p50.000=1s", 50}, {"p99.90=1s", 99.9}, {"p99.9=1s", 99.9},
		{"p99.99000=1s", 0}, {"p75.25=1s", 75.25}, {"max=1s", 100}, {"p0=1s", 0}, {"p0.50=1s", 0},
	} {
		p, target, err := ParseSLO(c.in)
		switch {
		case c.want == 0 && err == nil:
			t.Errorf("%s: %v, %v; want an error", c.in, p, target)
		case c.want != 0 && (err != nil || p != c.want || target != time.Second):
			t.Errorf("%s: %v, %v, %v; want %v and 1s", c.in, p, target, err, c.want)
		}
	}
}
