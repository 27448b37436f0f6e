package konvoy

import (
	"math"
	"strconv"
	"testing"
)

// approxText writes a number of consumers' worth, or of rounds, with four
// significant digits, and more where fewer would make a fraction read as
// a whole number; whole numbers with none, and the far ends in exponent
// form.
func TestApproxTextKeepsFourDigitsAndEveryFraction(t *testing.T) {
	for _, c := range []struct {
		v    float64
		want string
	}{
		{2.0092133, "2.009"}, {66.66, "66.66"}, {1.25, "1.25"}, {1234.5678, "1234.6"}, {0.000123456, "0.0001235"},
		{40001.0 / 40000, "1.00002"}, {2, "2"}, {40000.4, "40000.4"}, {5e-324, "4.941e-324"}, {1e300, "1e+300"}, {0, "0"},
		{1999999.9999999998, "1999999.9999999998"}, // as it is: see nearWhole
	} {
		if got := approxText(c.v); got != c.want {
			t.Errorf("approxText(%v) = %q; want %q", c.v, got, c.want)
		}
	}
}

// nearWhole takes a quotient of a rate within 16 units in its last place
// of a whole number other than 0 for that number, from below and above,
// as ceilInt does; 17 units off, or near 0, it is left as it is.
func TestNearWholeTakesARatesQuotientForTheWholeNumberItMisses(t *testing.T) {
	for _, c := range []struct{ v, want float64 }{
		{20 / (0.001 * 0.01), 2000000}, {1999999.9999999998, 2000000}, {math.Nextafter(3, 4), 3},
		{3 + 16*0x1p-51, 3}, {3 - 16*0x1p-51, 3}, {3 + 17*0x1p-51, 3 + 17*0x1p-51}, {3 - 17*0x1p-51, 3 - 17*0x1p-51},
		{4 * 5e-324, 4 * 5e-324}, {0.5, 0.5}, {2, 2},
	} {
		if got := nearWhole(c.v); got != c.want {
			t.Errorf("nearWhole(%v) = %v; want %v", c.v, got, c.want)
		}
	}
}

// Over a span, with no rate, the consumers' worth is written exactly, as
// carriers counts it there, in whole rounds with no slack: work of
// 3·10^14+2 rounds over a span of 3·10^14+1 needs 2 consumers, and is
// 1.000000000000003 consumers' worth, not 1 (a review found "1 consumers'
// worth" beside "fewer than 2 consumers do not carry the offered load").
// At a rate the same slack as carriers' applies. Where int has 32 bits no
// span is long enough for a fraction to come within 16 units in the last
// place of a whole number (a round more than 2^31−1 over them is
// 1 + 4.7·10^-10), and the first case, which needs 64, is not made.
func TestWorthOverASpanIsWrittenExactly(t *testing.T) {
	if strconv.IntSize == 64 {
		var wide int64 = 3e14 + 1 // a variable: a constant this large is no int where int has 32 bits
		span, work := int(wide), int(wide+1)
		s := &latencySearch{plan: LatencyPlan{Span: span}}
		if got, want := s.worthText(work), "1.000000000000003"; got != want || s.needs(work) != 2 {
			t.Errorf("worth of 3e14+2 rounds over a span of 3e14+1: %q, needing %d; want %q, needing 2", got, s.needs(work), want)
		}
	}
	r := &latencySearch{plan: LatencyPlan{Events: 20, Rate: 0.001 * 0.01}}
	if got := r.worthText(2000000); got != "1" {
		t.Errorf("worth of 2000000 rounds, 20 events at 10^-5 a round: %q; want 1", got)
	}
}
