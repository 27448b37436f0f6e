package konvoy

import (
	"fmt"
	"math"
)

// Cost returns what a layout costs relative to free consumption on the same
// events and consumers: free's parallelism divided by the layout's (the
// lesson's maliyet). A cost of 1.625 means the layout needs 1.625 times the
// consumers to keep up with the same rate. Since both runs do the same work,
// it equals layout.Rounds / free.Rounds.
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
// the two parts do not disturb each other.
//
// SelectiveMultiplier panics, with a "konvoy:" prefix, when s is not in
// [0, 1] or cost is negative or NaN: those are programming errors.
func SelectiveMultiplier(orderedShare, cost float64) float64 {
	checkShare(orderedShare)
	if !(cost >= 0) {
		panic(fmt.Sprintf("konvoy: cost is %v; want 0 or more", cost))
	}
	return orderedShare*cost + (1 - orderedShare)
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
	ordered = peak * orderedShare
	return ordered, peak - ordered
}

func checkShare(s float64) {
	if !(s >= 0 && s <= 1) {
		panic(fmt.Sprintf("konvoy: ordered share is %v; want a fraction in [0, 1]", s))
	}
}
