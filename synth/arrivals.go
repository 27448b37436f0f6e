package synth

import (
	"math"
	"math/rand/v2"
)

// arrivals draws arrival rounds from a Poisson process whose rate is
// piecewise constant: rate, or rate × factor during the first length rounds
// of every period (the bursts). Each gap is one exponential draw with mean
// 1, spent at the rate of each stretch of time it crosses, which gives the
// exact process.
type arrivals struct {
	rng    *rand.PCG
	rate   float64 // 0: a batch, every event arrives at round 0
	burst  float64 // rate × factor
	period float64 // 0: no bursts
	length float64
	t      float64 // the time of the last arrival, in rounds
}

func newArrivals(c Config, rng *rand.PCG) *arrivals {
	a := &arrivals{rng: rng, rate: c.Rate}
	if c.Rate > 0 && c.BurstEvery > 0 {
		a.burst = c.Rate * c.BurstFactor
		a.period, a.length = float64(c.BurstEvery), float64(c.BurstLen)
	}
	return a
}

// next returns the round of the next arrival: the whole part of its time.
// Rounds never decrease.
func (a *arrivals) next() int {
	if a.rate == 0 {
		return 0
	}
	e := expDraw(a.rng)
	if a.period == 0 {
		a.t += e / a.rate
		return int(a.t)
	}
	for {
		// The stretch of time [a.t, end) at one rate. When rounding puts
		// a.t a hair below a period's start, k is already that period and
		// off slightly negative: the stretch then counts as burst, and
		// end > a.t still holds, so the loop always moves on.
		k := math.Floor(a.t / a.period)
		start := float64(k * a.period)
		off := a.t - start
		rate, end := a.rate, start+a.period
		if off < a.length {
			rate, end = a.burst, start+a.length
		}
		room := float64(rate * (end - a.t))
		if e <= room {
			a.t += e / rate
			return int(a.t)
		}
		e -= room
		a.t = end
	}
}
