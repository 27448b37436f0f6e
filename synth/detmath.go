package synth

import (
	"math"
	"math/bits"
	"math/rand/v2"
)

// This file holds the arithmetic the generator draws its numbers with. To give
// the same results on every platform it computes logarithms and exponentials
// itself (math.Log and math.Exp have assembly versions on some architectures,
// which may round differently), and it converts every product that feeds a
// sum explicitly to float64: the Go specification lets a compiler fuse x*y+z
// into one multiply-add, which rounds once instead of twice (GOAMD64=v3 and
// arm64 do), but not across an explicit conversion. A product returned or
// passed to a function that may add to it once inlined is converted too.
// Frexp, Floor and Sqrt are exact or correctly rounded everywhere, and so are
// the IEEE operations + − × ÷.

const (
	ln2Hi = 6.93147180369123816490e-01 // ln 2 rounded to 32 significant bits: k*ln2Hi is exact
	ln2Lo = 1.90821492927058770002e-10 // ln 2 − ln2Hi
	log2E = 1.44269504088896338700e+00 // 1 / ln 2
)

// expEven holds 1/12!, 1/10!, …, 1/2!, 1/0! and expOdd 1/13!, 1/11!, …, 1/3!,
// 1/1!: the Taylor coefficients of e^r = E(r²) + r·O(r²), highest first for
// Horner's rule; two chains of half the length run in parallel.
var (
	expEven = [...]float64{1.0 / 479001600, 1.0 / 3628800, 1.0 / 40320, 1.0 / 720, 1.0 / 24, 1.0 / 2, 1}
	expOdd  = [...]float64{1.0 / 6227020800, 1.0 / 39916800, 1.0 / 362880, 1.0 / 5040, 1.0 / 120, 1.0 / 6, 1}
)

// logEven holds 1/21, 1/17, …, 1/5, 1 and logOdd 1/23, 1/19, …, 1/7, 1/3: the
// coefficients of atanh(t)/t = Σ t^(2n)/(2n+1) = E(t⁴) + t²·O(t⁴), highest
// first for Horner's rule.
var (
	logEven = [...]float64{1.0 / 21, 1.0 / 17, 1.0 / 13, 1.0 / 9, 1.0 / 5, 1}
	logOdd  = [...]float64{1.0 / 23, 1.0 / 19, 1.0 / 15, 1.0 / 11, 1.0 / 7, 1.0 / 3}
)

// dexp returns e^x to within a few units in the last place, the same on every
// platform. It returns +Inf above about 709.78, 0 below about −745.13 and
// NaN for NaN.
func dexp(x float64) float64 {
	switch {
	case x != x:
		return x
	case x > 709.782712893384:
		return math.Inf(1)
	case x < -745.1332191019412:
		return 0
	}
	// x = k·ln 2 + r with |r| ≤ ln 2 / 2, and e^x = 2^k · e^r.
	k := math.Floor(float64(x*log2E) + 0.5)
	r := (x - float64(k*ln2Hi)) - float64(k*ln2Lo)
	// The Taylor polynomial of degree 13; the next term is below 2^-57.
	r2 := float64(r * r)
	even, odd := 0.0, 0.0
	for i := range expEven {
		even = float64(even*r2) + expEven[i]
		odd = float64(odd*r2) + expOdd[i]
	}
	p := float64(r*odd) + even
	// Scale by 2^k in two exact halves, so that only a subnormal result is
	// rounded, once, as IEEE multiplication does everywhere.
	h := int(k) / 2
	return float64(p * pow2(h) * pow2(int(k)-h))
}

// pow2 returns 2^e for −1022 ≤ e ≤ 1023.
func pow2(e int) float64 {
	return math.Float64frombits(uint64(e+1023) << 52)
}

// dlog returns the natural logarithm of x > 0 (finite) to within a few units
// in the last place, the same on every platform.
func dlog(x float64) float64 {
	m, e := math.Frexp(x) // x = m·2^e, 1/2 ≤ m < 1, exact
	if m < math.Sqrt2/2 {
		m *= 2
		e--
	}
	// ln m = 2·atanh(t) with t = (m−1)/(m+1), |t| < 0.1716.
	t := (m - 1) / (m + 1)
	t2 := float64(t * t)
	t4 := float64(t2 * t2)
	even, odd := 0.0, 0.0 // up to t^22; the next term is below 2^-60
	for i := range logEven {
		even = float64(even*t4) + logEven[i]
		odd = float64(odd*t4) + logOdd[i]
	}
	p := float64(t2*odd) + even
	fe := float64(e)
	return float64(fe*ln2Hi) + (float64(float64(2*t)*p) + float64(fe*ln2Lo))
}

// unit returns a uniform float64 in [0, 1) with 53 random bits.
func unit(r *rand.PCG) float64 {
	return float64(r.Uint64()>>11) * 0x1p-53
}

// unitOpen0 returns a uniform float64 in (0, 1] with 53 random bits, which
// has a finite logarithm.
func unitOpen0(r *rand.PCG) float64 {
	return float64(r.Uint64()>>11+1) * 0x1p-53
}

// expDraw returns a draw from the exponential distribution with mean 1.
func expDraw(r *rand.PCG) float64 {
	return -dlog(unitOpen0(r))
}

// below returns a uniform integer in [0, n) for n > 0, without bias
// (Lemire's multiply-and-reject method).
func below(r *rand.PCG, n uint64) uint64 {
	hi, lo := bits.Mul64(r.Uint64(), n)
	if lo < n {
		thresh := -n % n
		for lo < thresh {
			hi, lo = bits.Mul64(r.Uint64(), n)
		}
	}
	return hi
}

// normal draws standard normal deviates by Marsaglia's polar method, which
// needs only a logarithm and a square root and yields them in pairs; it keeps
// the second of a pair for the next call.
type normal struct {
	spare    float64
	hasSpare bool
}

// next returns a standard normal deviate.
func (n *normal) next(r *rand.PCG) float64 {
	if n.hasSpare {
		n.hasSpare = false
		return n.spare
	}
	for {
		u := float64(2*unit(r)) - 1
		v := float64(2*unit(r)) - 1
		s := float64(u*u) + float64(v*v)
		if s >= 1 || s == 0 {
			continue
		}
		f := math.Sqrt(-2 * dlog(s) / s)
		n.spare, n.hasSpare = float64(v*f), true
		return float64(u * f)
	}
}
