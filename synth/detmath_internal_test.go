package synth

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// dexp and dlog agree with the math package to within a few units in the
// last place over their whole range.
func TestExpLogAccuracy(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	relErr := func(got, want float64) float64 {
		if got == want {
			return 0
		}
		return math.Abs(got-want) / math.Abs(want)
	}
	const tol = 8 * 0x1p-53
	for range 200_000 {
		x := (r.Float64()*2 - 1) * 700
		if e := relErr(dexp(x), math.Exp(x)); e > tol {
			t.Fatalf("dexp(%v) = %v; math.Exp gives %v (relative error %.3g)", x, dexp(x), math.Exp(x), e)
		}
		y := math.Ldexp(0.5+r.Float64(), r.IntN(2000)-1000)
		if e := relErr(dlog(y), math.Log(y)); e > tol && math.Abs(dlog(y)-math.Log(y)) > 0x1p-60 {
			t.Fatalf("dlog(%v) = %v; math.Log gives %v", y, dlog(y), math.Log(y))
		}
	}
	for _, tc := range []struct{ x, want float64 }{
		{0, 1}, {800, math.Inf(1)}, {-800, 0}, {1, math.E},
	} {
		if got := dexp(tc.x); relErr(got, tc.want) > tol {
			t.Errorf("dexp(%v) = %v; want %v", tc.x, got, tc.want)
		}
	}
	if got := dexp(-744); got <= 0 || got > 1e-320 {
		t.Errorf("dexp(-744) = %v; want a subnormal near 1e-323", got)
	}
	if got := dlog(1); got != 0 {
		t.Errorf("dlog(1) = %v; want 0", got)
	}
	if got := dlog(0x1p-53); relErr(got, -53*math.Ln2) > tol {
		t.Errorf("dlog(2^-53) = %v; want %v", got, -53*math.Ln2)
	}
}

func TestBelowIsUniform(t *testing.T) {
	r := rand.NewPCG(3, 4)
	var counts [7]int
	const n = 70_000
	for range n {
		counts[below(r, 7)]++
	}
	for v, c := range counts {
		if math.Abs(float64(c)-n/7) > 5*math.Sqrt(n/7.0) {
			t.Errorf("below(7) gave %d %d times in %d; want about %d", v, c, n, n/7)
		}
	}
}

func TestApportionAddsUp(t *testing.T) {
	for _, s := range []float64{0, 0.5, 1, 3, 50} {
		for _, total := range []int{1, 7, 1000, 123_457} {
			sum, last := 0, 0
			apportion(1000, s, total, 0.999999, func(rank, count int) {
				if rank <= last || count <= 0 {
					t.Fatalf("s %v: rank %d count %d after rank %d", s, rank, count, last)
				}
				sum, last = sum+count, rank
			})
			if sum != total {
				t.Errorf("s %v: counts add up to %d; want %d", s, sum, total)
			}
		}
	}
}

// The bits of every number the generator computes with floating point hash
// to a fixed value: the same on every platform and build, GOAMD64=v3 (which
// fuses x*y+z into one multiply-add unless a conversion forbids it) and
// GOARCH=386 included. Rounding to whole rounds hides most last-bit
// differences from the streams; this test does not.
func TestFloatBitsFingerprint(t *testing.T) {
	h := sha256.New()
	put := func(x float64) { binary.Write(h, binary.LittleEndian, math.Float64bits(x)) }
	r := rand.NewPCG(5, 6)
	var n normal
	for range 50_000 {
		put(dexp((unit(r)*2 - 1) * 745))
		put(dlog(math.Ldexp(unitOpen0(r), int(below(r, 2000))-1000)))
		put(n.next(r))
		put(zipfWeight(int(below(r, 1_000_000))+1, unit(r)*3))
	}
	c := Config{Events: 50_000, Rate: 0.7, BurstEvery: 7, BurstLen: 3, BurstFactor: 4.5}
	a := newArrivals(c, rand.NewPCG(7, 8))
	for range c.Events {
		a.next()
		put(a.t)
	}
	for _, th := range zipfThresholds(1000, 1.1) {
		binary.Write(h, binary.LittleEndian, th)
	}
	const want = "832fb9ea45095717547de770f14a30995a36439fa6b385c407c68fb9687cdc4a"
	if got := fmt.Sprintf("%x", h.Sum(nil)); got != want {
		t.Errorf("floating-point results hash to %s; want %s", got, want)
	}
}
