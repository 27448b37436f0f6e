package konvoy

import (
	"math"
	"strconv"
	"testing"
)

// TestMostToFitIsNoBoundWithinTwoToTheMinus20OfOne pins mostToFit's doc at
// its edge: "for a maxShare within 2^-20 of 1, it is no bound", and a share
// exactly 2^-20 below 1 is within it, so the bound is math.MaxInt whatever
// the heaviest key carries. Just outside, at 1 − 2^-19, the bound is
// finite: heaviest / 2^-19 raised by a part in 2^20, 2^19 + 1/2 for a
// heaviest of 1, rounded down to 524,288 (every step exact in float64).
// (A mutant with > for >= lived: PartitionsFor's answers do not change, as
// heaviest·(2^20+1) still bounds a count that fits, but the function no
// longer does what its doc says.)
func TestMostToFitIsNoBoundWithinTwoToTheMinus20OfOne(t *testing.T) {
	for _, h := range []int{0, 1, 5, 1000} {
		if got := mostToFit(h, 1-1.0/(1<<20)); got != math.MaxInt {
			t.Errorf("mostToFit(%d, 1 − 2^-20) = %d; want math.MaxInt, no bound", h, got)
		}
	}
	if got := mostToFit(1, 1-1.0/(1<<19)); got != 1<<19 {
		t.Errorf("mostToFit(1, 1 − 2^-19) = %d; want %d", got, 1<<19)
	}
}

// TestSpreadMakesRoomByDoublingPastDenseMost pins grown's doubling where
// room by partition may pass denseMost: for k keys, spread keeps room by
// partition for up to 2k partitions (dense), so for 40,000 keys counts up
// to 80,000 partitions, beyond 2^16, all use it, and trying them one above
// another, as PartitionsFor does, must make room O(log n) times: doubling
// from 1 to 2^16, then once to 80,000, some 18 times for pl.load. (A
// mutant that capped the room at 2^16 for many keys, 2/len(keys) for
// 2*len(keys), made room anew for every count past 2^16, some 14,000
// times and 8 GB: it lived, since no test took more than 2^15 keys past
// 2^16 partitions.) The keys' hashes are murmur2's, as PartitionsFor's
// are, and a bound of 1 on loads of 1 cuts each count short at its first
// collision, so the test spreads a few hundred keys a count.
func TestSpreadMakesRoomByDoublingPastDenseMost(t *testing.T) {
	t.Parallel()
	const k = 40_000
	keys, loads, hashes := make([]string, k), make([]int, k), make([]int, k)
	for i := range k {
		keys[i], loads[i] = strconv.Itoa(i), 1
		hashes[i] = int(murmur2([]byte(keys[i])) & 0x7fffffff)
	}
	var pl partitionLoads
	made, last := 0, -1
	for n := 1; n <= 2*k; n++ {
		if !dense(n, k) {
			t.Fatalf("%d partitions for %d keys: not dense; the test needs room by partition", n, k)
		}
		pl.spread(keys, loads, hashes, n, 1)
		if c := cap(pl.load); c != last {
			made, last = made+1, c
		}
	}
	if made > 40 {
		t.Errorf("spreading %d keys over 1 to %d partitions made room for loads %d times; want O(log n), at most 40", k, 2*k, made)
	}
}
