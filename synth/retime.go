package synth

import (
	"fmt"
	"iter"
	"math"
	"math/rand/v2"

	"github.com/sirali-konvoy/konvoy"
)

// PoissonArrivals returns events with their arrivals drawn afresh: a
// Poisson process of rate events per round, from seed, each event's
// Arrival the round it arrives in (the whole part of its arrival time), as
// [Events] draws them for [Config.Rate]; everything else about the events
// is theirs. The same events, rate and seed give the same arrivals every
// time the stream is ranged over, on every platform, and the draws cost no
// memory however many events there are.
//
// The stream yields the events' own errors, an error first when rate is
// not a positive finite number, and an error, in place of the event, for
// the first event that would arrive after [MaxSpan] rounds.
func PoissonArrivals(events iter.Seq2[konvoy.Event, error], rate float64, seed uint64) iter.Seq2[konvoy.Event, error] {
	return func(yield func(konvoy.Event, error) bool) {
		if !(rate > 0 && rate <= math.MaxFloat64) {
			yield(konvoy.Event{}, fmt.Errorf("synth: Poisson arrivals at %v events per round: want a positive finite rate", rate))
			return
		}
		a := newArrivals(Config{Rate: rate}, rand.NewPCG(seed, streamArrival))
		i := 0
		for e, err := range events {
			if err == nil {
				if e.Arrival = a.next(); !(a.t <= MaxSpan) {
					yield(e, fmt.Errorf("synth: event %d would arrive at round %.4g at %.4g events per round; want at most round %d: raise the rate", i, a.t, rate, int64(MaxSpan)))
					return
				}
				i++
			}
			if !yield(e, err) {
				return
			}
		}
	}
}

// ScaledArrivals returns events with each Arrival a multiplied by factor and
// rounded down to a whole round, ⌊a·factor⌋: arrivals that never decrease
// still never do, and the mean rate over the events' span is divided by
// factor. The product is float64's, rounded to 53 bits before it is rounded
// down, so 10 scaled by 0.3 is 3, as written, not 2 (0.3 is a little below
// three tenths in binary); past 2^53 rounds, where a float64 no longer holds
// every whole number, an arrival may come out a round above or below the
// exact product. The stream yields the events' own errors, an error first
// when factor is not a positive finite number, and an error, in place of the
// event, for the first event that would arrive after [MaxSpan] rounds.
func ScaledArrivals(events iter.Seq2[konvoy.Event, error], factor float64) iter.Seq2[konvoy.Event, error] {
	return func(yield func(konvoy.Event, error) bool) {
		if !(factor > 0 && factor <= math.MaxFloat64) {
			yield(konvoy.Event{}, fmt.Errorf("synth: arrivals scaled by %v: want a positive finite factor", factor))
			return
		}
		i := 0
		for e, err := range events {
			if err == nil {
				t := math.Floor(float64(e.Arrival) * factor)
				if !(t <= MaxSpan) {
					yield(e, fmt.Errorf("synth: event %d, arriving at round %d, would arrive at round %.4g scaled by %.4g; want at most round %d", i, e.Arrival, t, factor, int64(MaxSpan)))
					return
				}
				e.Arrival = int(t)
				i++
			}
			if !yield(e, err) {
				return
			}
		}
	}
}
