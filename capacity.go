package konvoy

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"math"
)

// Cost returns what a layout costs relative to free consumption on the same
// events and consumers: free's parallelism divided by the layout's (the
// lesson's maliyet). A cost of 1.625 means the layout needs 1.625 times the
// consumers to keep up with the same rate. Since both runs do the same work,
// it equals layout.Rounds / free.Rounds, but for float64's rounding of the
// two parallelisms and their quotient (a few units in the last place).
//
// Cost returns 0 when either run has no parallelism (an empty run, or one
// whose every event takes no time), where the ratio is undefined.
func Cost(layout, free Result) float64 {
	pl, pf := layout.Parallelism(), free.Parallelism()
	if pl == 0 || pf == 0 {
		return 0
	}
	return pf / pl
}

// SelectiveMultiplier returns the lesson's selective-convoy multiplier
// s·cost + (1 − s): the consumers needed, relative to free consumption, when
// only the ordered share s of the events (the lesson's KK1) pays a layout's
// cost and the rest runs free. It is the lesson's paper estimate; it assumes
// the two parts do not disturb each other. An infinite cost gives an
// infinite multiplier, but with no ordered share (s = 0), which gives 1.
//
// SelectiveMultiplier panics, with a "konvoy:" prefix, when s is not in
// [0, 1] or cost is negative or NaN: those are programming errors.
func SelectiveMultiplier(orderedShare, cost float64) float64 {
	checkShare(orderedShare)
	if !(cost >= 0) {
		panic(fmt.Sprintf("konvoy: cost is %v; want 0 or more", cost))
	}
	if orderedShare == 0 {
		return 1 // no event pays the cost: not 0·∞, which is NaN
	}
	return float64(orderedShare*cost) + (1 - orderedShare) // the conversion: no fused multiply-add, on any machine
}

// SplitRate splits a peak write rate into the rate of events that carry an
// ordering constraint (peak · s) and the rate of those that do not (the
// rest), as the lesson's capacity table does.
//
// SplitRate panics, with a "konvoy:" prefix, when s is not in [0, 1] or peak
// is negative, infinite or NaN.
func SplitRate(peak, orderedShare float64) (ordered, unordered float64) {
	checkShare(orderedShare)
	if !(peak >= 0) || math.IsInf(peak, 1) {
		panic(fmt.Sprintf("konvoy: peak rate is %v; want a finite rate of 0 or more", peak))
	}
	ordered = float64(peak * orderedShare) // the conversion: no fused multiply-subtract below, on any machine
	return ordered, peak - ordered
}

func checkShare(s float64) {
	if !(s >= 0 && s <= 1) {
		panic(fmt.Sprintf("konvoy: ordered share is %v; want a fraction in [0, 1]", s))
	}
}

// SelectiveComparison sets the selective convoy's cost on a trace, as
// simulated, beside the lesson's paper formula for it.
type SelectiveComparison struct {
	// Free, Selective and Convoy are the runs of the whole trace under
	// Free, SelectiveConvoy and Convoy.
	Free, Selective, Convoy Result
	// OrderedFree and OrderedConvoy are the runs of its ordered events
	// alone (Step > 0) under Free and Convoy: the parts the formula
	// assumes run apart.
	OrderedFree, OrderedConvoy Result
	// Ordered holds the runs of the ordered events alone under the
	// layouts given to CompareSelective, in their order.
	Ordered []Result
	// Share is the trace's ordered share, its ordered events over all its
	// events (the lesson's KK1), 0 for an empty trace.
	Share float64
	// Simulated is the selective convoy's simulated cost,
	// Cost(Selective, Free).
	Simulated float64
	// Formula is the lesson's estimate of it, SelectiveMultiplier(Share,
	// Cost(OrderedConvoy, OrderedFree)), 0 when that cost is undefined.
	Formula float64
}

// CompareSelective runs a trace on the given consumers under Free,
// SelectiveConvoy and Convoy, and its ordered events alone under Free,
// Convoy and each of layouts, in one [Sweep] of events, with opts for
// every run. Its errors and panics are Sweep's (it panics, with a
// "konvoy:" prefix naming CompareSelective, when ctx is nil, and as Sweep
// does when events or an option is nil), but that consumers or opts that
// no simulator takes give NewSimulator's error, naming none of the runs
// it makes; an event's index, in an error or a [Slot] of a run's
// Schedule, is its index in the whole trace.
func CompareSelective(ctx context.Context, events iter.Seq2[Event, error], consumers int, layouts []Layout, opts ...Option) (SelectiveComparison, error) {
	if ctx == nil {
		panic("konvoy: CompareSelective: ctx is nil; want a context, such as context.Background()")
	}
	configs := []Config{
		{Layout: Free}, {Layout: SelectiveConvoy}, {Layout: Convoy},
		{Layout: Free, orderedOnly: true}, {Layout: Convoy, orderedOnly: true},
	}
	for _, l := range layouts {
		configs = append(configs, Config{Layout: l, orderedOnly: true})
	}
	for i := range configs {
		configs[i].Consumers, configs[i].Options = consumers, opts
	}
	rs, err := Sweep(ctx, events, configs)
	if ce := (configError{}); errors.As(err, &ce) {
		err = ce.err // of consumers or opts, which every run shares, not of configs, which are this function's
	}
	if err != nil {
		return SelectiveComparison{}, err
	}
	c := SelectiveComparison{Free: rs[0], Selective: rs[1], Convoy: rs[2], OrderedFree: rs[3], OrderedConvoy: rs[4], Ordered: rs[5:]}
	if c.Free.Events > 0 {
		c.Share = float64(c.OrderedFree.Events) / float64(c.Free.Events)
	}
	c.Simulated = Cost(c.Selective, c.Free)
	if cost := Cost(c.OrderedConvoy, c.OrderedFree); cost > 0 {
		c.Formula = SelectiveMultiplier(c.Share, cost)
	}
	return c, nil
}
