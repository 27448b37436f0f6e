package synth

import (
	"fmt"
	"iter"
	"math"
	"math/rand/v2"
	"strconv"

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
// the first event that would arrive after [MaxSpan] rounds. It panics,
// with a "synth:" prefix, when events is nil.
func PoissonArrivals(events iter.Seq2[konvoy.Event, error], rate float64, seed uint64) iter.Seq2[konvoy.Event, error] {
	if events == nil {
		panic("synth: PoissonArrivals: events is nil")
	}
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
// factor. It is [ScaledArrivalsFrom] round 0: an arrival below 0 is an
// error in place of its event. The product is float64's, rounded to 53 bits before it is rounded
// down, so 10 scaled by 0.3 is 3, as written, not 2 (0.3 is a little below
// three tenths in binary); past 2^53 rounds, where a float64 no longer holds
// every whole number, an arrival may come out a round above or below the
// exact product. The stream yields the events' own errors, an error first
// when factor is not a positive finite number, and an error, in place of the
// event, for the first event that would arrive after [MaxSpan] rounds. It
// panics, with a "synth:" prefix, when events is nil.
func ScaledArrivals(events iter.Seq2[konvoy.Event, error], factor float64) iter.Seq2[konvoy.Event, error] {
	if events == nil {
		panic("synth: ScaledArrivals: events is nil")
	}
	return ScaledArrivalsFrom(events, 0, factor)
}

// ScaledArrivalsFrom returns events with each Arrival a scaled by factor
// from round origin, origin + ⌊(a−origin)·factor⌋, as [ScaledArrivals]
// scales from round 0: for a trace whose rounds count from a round 0
// before its first arrival, origin is that arrival, so that the scale does
// not depend on where its rounds start. An arrival before origin is an
// error in place of its event, as is one that would arrive more than
// [MaxSpan] rounds after origin. It panics, with a "synth:" prefix, when
// events is nil.
func ScaledArrivalsFrom(events iter.Seq2[konvoy.Event, error], origin int, factor float64) iter.Seq2[konvoy.Event, error] {
	if events == nil {
		panic("synth: ScaledArrivalsFrom: events is nil")
	}
	return func(yield func(konvoy.Event, error) bool) {
		if !(factor > 0 && factor <= math.MaxFloat64) {
			yield(konvoy.Event{}, fmt.Errorf("synth: arrivals scaled by %v: want a positive finite factor", factor))
			return
		}
		i := 0
		for e, err := range events {
			if err == nil {
				if e.Arrival < origin {
					yield(e, fmt.Errorf("synth: event %d arrives at round %d, before round %d the arrivals are scaled from", i, e.Arrival, origin))
					return
				}
				// In uint64, the rounds after origin never wrap, as an
				// int's difference does from a negative origin.
				t := math.Floor(float64(uint64(e.Arrival)-uint64(origin)) * factor)
				if !(t <= MaxSpan) || origin > math.MaxInt-int(t) {
					yield(e, fmt.Errorf("synth: event %d, arriving at round %d, would arrive at round %s scaled by %.4g; want at most round %s",
						i, e.Arrival, fromOrigin(origin, fmt.Sprintf("%.4g", t)), factor, fromOrigin(origin, strconv.FormatInt(MaxSpan, 10))))
					return
				}
				e.Arrival = origin + int(t)
				i++
			}
			if !yield(e, err) {
				return
			}
		}
	}
}

// fromOrigin writes round origin + t, t rounds after origin written, as t
// when origin is 0 and as the sum otherwise, which may pass the largest
// int.
func fromOrigin(origin int, t string) string {
	if origin == 0 {
		return t
	}
	return strconv.Itoa(origin) + "+" + t
}
