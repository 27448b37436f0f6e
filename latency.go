package konvoy

import (
	"cmp"
	"math/big"
	"math/bits"
)

// Latency summarises one latency, in rounds, over every event of a run:
// nearest-rank percentiles (the smallest value that at least p% of the
// events do not exceed), the largest value and the mean. It is zero for an
// empty run.
//
// Max and Mean are exact (Mean is the exact sum divided by the count,
// rounded once). A percentile below [ExactLatency] rounds is exact too. At
// or above it, a percentile is read off a bucket of values that holds the
// exact one, and is reported as the bucket's largest value, capped at Max:
// never below the exact percentile, and above it by less than 1/1024 of it
// (three significant figures, as HdrHistogram keeps by default). Counting
// this way keeps a run's latency accounting under 1 MiB, however many
// events it has and however long they wait.
type Latency struct {
	P50, P95, P99, Max int
	Mean               float64
}

// ExactLatency is the latency, in rounds, below which [Latency]'s
// percentiles are exact: 2,048 rounds (2¹¹).
const ExactLatency = 2048

// A compile-time check that ExactLatency is 2^exactBits: either index is
// out of range otherwise.
var _ = [1]struct{}{}[ExactLatency-1<<exactBits]
var _ = [1]struct{}{}[1<<exactBits-ExactLatency]

const (
	exactBits   = 11              // latencies below 2^exactBits are counted one by one
	octaveBits  = exactBits - 1   // an octave above them is cut into 2^octaveBits buckets
	octaveSize  = 1 << octaveBits // buckets per octave
	highOctaves = 63 - exactBits  // octaves [2^b, 2^(b+1)) for b = exactBits … 62
	maxBuckets  = ExactLatency + highOctaves*octaveSize
	lowBits     = 8                       // the counts below ExactLatency are made 2^lowBits at a time
	lowBlock    = 1 << lowBits            // counts in a block
	lowBlocks   = ExactLatency / lowBlock // blocks below ExactLatency
)

// histogram counts latencies in bounded memory, as a log-linear histogram:
// each value below ExactLatency has a count of its own, and each octave
// [2^b, 2^(b+1)) above is cut into octaveSize buckets of 2^(b−octaveBits)
// consecutive values, made when a value first falls in the octave. A value
// v in octave b is thus counted with the values that share its top
// octaveBits+1 bits, whose largest exceeds v by less than v/octaveSize.
// The counts below ExactLatency are made in blocks of lowBlock (2 KiB),
// each with the first value in it, so that a run that counts nothing costs
// nothing and one whose values are small costs little. The histogram
// takes at most maxBuckets counts (432 KiB), whatever the values. It counts values only: their exact sum and maximum, which its
// buckets cannot give, are kept by whoever adds them (see
// [Simulator.started], which derives one latency's from the other's).
// Consecutive events tend to have close latencies, so the counts of the
// last value's part, the values below ExactLatency or an octave, are kept
// at hand. last points into the histogram's own counts: a histogram must
// not be copied once it has counted.
type histogram struct {
	low       [lowBlocks]*[lowBlock]int
	high      [highOctaves]*[octaveSize]int
	last      []int // the counts of the last value's part: low, or an octave
	lastBase  uint  // the first value of that part, shifted
	lastShift uint  // the low bits its buckets ignore
	made      int   // the bytes of the counts made
}

// A value v ≥ 0 is counted as
//
//	if !h.addNear(v) {
//		h.addElsewhere(v)
//	}
//
// in O(1) time, allocating 8 KiB the first time a value falls in an
// octave above ExactLatency, and 2 KiB the first time one falls in a block
// below it.

// addNear counts v, and reports true, when it falls in the part of the last
// value counted; small enough to be inlined, where a method that also made
// the call to addElsewhere would not be.
func (h *histogram) addNear(v int) bool {
	b := uint(v)>>h.lastShift - h.lastBase
	if b >= uint(len(h.last)) {
		return false
	}
	h.last[b]++
	return true
}

// addElsewhere counts a value v that is not in the part of the last: in
// its block below ExactLatency, or in its octave, which it makes the last
// part. It stays out of line, off the path of most values.
//
//go:noinline
func (h *histogram) addElsewhere(v int) {
	if uint(v) < ExactLatency {
		i := v >> lowBits
		b := h.low[i]
		if b == nil {
			b = new([lowBlock]int)
			h.low[i] = b
			h.made += lowBlock * wordBytes
		}
		b[v&(lowBlock-1)]++
		h.last, h.lastBase, h.lastShift = b[:], uint(i)<<lowBits, 0
		return
	}
	shift := bits.Len(uint(v)) - exactBits // ≥ 1: the low bits the bucket ignores
	o := h.high[shift-1]
	if o == nil {
		o = new([octaveSize]int)
		h.high[shift-1] = o
		h.made += octaveSize * wordBytes
	}
	o[v>>shift-octaveSize]++
	h.last, h.lastBase, h.lastShift = o[:], octaveSize, uint(shift)
}

// bytes returns the memory the histogram's counts take, in O(1) time.
func (h *histogram) bytes() int { return h.made }

// bucket is the count of the values from lo to hi.
type bucket struct{ lo, hi, count int }

// buckets calls yield for every bucket with a count, in increasing order of
// values, until it returns false.
func (h *histogram) buckets(yield func(bucket) bool) {
	for i, b := range h.low {
		if b == nil {
			continue
		}
		for j, c := range b {
			if v := i<<lowBits + j; c > 0 && !yield(bucket{v, v, c}) {
				return
			}
		}
	}
	for i, o := range h.high {
		if o == nil {
			continue
		}
		shift := i + 1
		for j, c := range o {
			if c == 0 {
				continue
			}
			lo := (octaveSize + j) << shift
			if !yield(bucket{lo, lo + 1<<shift - 1, c}) {
				return
			}
		}
	}
}

// latency returns the summary of the values counted, whose exact sum is
// sumHi·2⁶⁴ + sumLo and largest top. It takes O(maxBuckets) time.
func (h *histogram) latency(sumHi, sumLo uint64, top int) Latency {
	n := 0
	for b := range h.buckets {
		n += b.count
	}
	if n == 0 {
		return Latency{}
	}
	return Latency{
		P50:  h.rank(n, 5000, top),
		P95:  h.rank(n, 9500, top),
		P99:  h.rank(n, 9900, top),
		Max:  top,
		Mean: mean(sumHi, sumLo, n),
	}
}

// mean returns the sum sumHi·2⁶⁴ + sumLo divided by n, rounded once, to
// the nearest float64.
func mean(sumHi, sumLo uint64, n int) float64 {
	sum := new(big.Int).Lsh(new(big.Int).SetUint64(sumHi), 64)
	sum.Or(sum, new(big.Int).SetUint64(sumLo))
	m, _ := new(big.Rat).SetFrac(sum, big.NewInt(int64(n))).Float64()
	return m
}

// nearestRank returns how many of n values the nearest-rank percentile at
// bp basis points (hundredths of a percent, 10000 for the largest value)
// covers: ⌈n·bp/10000⌉, computed in integers that cannot overflow.
func nearestRank(n, bp int) int { return n/10000*bp + (n%10000*bp+9999)/10000 }

// rank returns the nearest-rank percentile of n values at bp basis points:
// the bucket in which the cumulative count first reaches nearestRank(n,
// bp), read as its largest value capped at top, the largest value counted.
// It is the one place a percentile is read.
func (h *histogram) rank(n, bp, top int) int {
	need := nearestRank(n, bp)
	seen, at := 0, top
	for b := range h.buckets {
		seen += b.count
		if seen >= need {
			at = b.hi
			break
		}
	}
	return min(at, top)
}

// LaneWait is what the Events of one lane waited, from arrival to start:
// the longest wait, MaxWait, and the mean, MeanWait, which is their exact
// total divided by Events, rounded once.
type LaneWait struct {
	Lane     string
	Events   int
	MaxWait  int
	MeanWait float64
}

// worstLanes returns up to n lanes with the longest single wait, longest
// total wait among equals, then the lane opened first (lanes are numbered
// in the order opened). It takes O(l·n) time
// for l lanes, keeping the n worst seen so far.
func (s *Simulator) worstLanes(n int) []LaneWait {
	worse := func(a, b int) bool {
		la, lb := s.lanes.at(a), s.lanes.at(b)
		if c := cmp.Compare(lb.maxWait, la.maxWait); c != 0 || s.laneCarry == nil { // no total carried: no lookups
			return cmp.Or(c, cmp.Compare(lb.waitLo, la.waitLo), cmp.Compare(a, b)) < 0
		}
		return cmp.Or(cmp.Compare(s.laneCarry[b], s.laneCarry[a]), cmp.Compare(lb.waitLo, la.waitLo), cmp.Compare(a, b)) < 0
	}
	var top []int
	for i := range s.lanes.len() {
		if s.table.lanes.at(i).events == 0 || len(top) == n && !worse(i, top[n-1]) {
			continue
		}
		j := min(len(top), n-1)
		if len(top) < n {
			top = append(top, i)
		}
		for ; j > 0 && worse(i, top[j-1]); j-- {
			top[j] = top[j-1]
		}
		top[j] = i
	}
	var out []LaneWait
	for _, i := range top {
		l, events := s.lanes.at(i), s.table.lanes.at(i).events
		out = append(out, LaneWait{Lane: s.table.name(s.in, i), Events: events, MaxWait: l.maxWait, MeanWait: mean(s.laneCarry[i], l.waitLo, events)})
	}
	return out
}

// LatencyCounter counts latencies in any whole unit, as a run counts its
// Wait and Response in rounds (package live counts nanoseconds), and sums
// them up as a [Latency] with the same percentiles, exact below
// [ExactLatency] units and within 1/1024 above. Its zero value is ready to
// count; it must not be copied once it has counted, and it is not safe for
// concurrent use. Add takes O(1) time and allocates 2 KiB with the first
// value in each block of 256 below ExactLatency and 8 KiB with the first in
// each octave above it, 432 KiB at most, however many values it counts.
type LatencyCounter struct {
	h            histogram
	sumHi, sumLo uint64
	top          int
}

// Add counts one latency v. It panics, with a "konvoy:" prefix, when v is
// negative.
func (c *LatencyCounter) Add(v int) {
	if v < 0 {
		panic("konvoy: LatencyCounter.Add: a latency below 0")
	}
	if !c.h.addNear(v) {
		c.h.addElsewhere(v)
	}
	var carry uint64
	c.sumLo, carry = bits.Add64(c.sumLo, uint64(v), 0)
	c.sumHi += carry
	c.top = max(c.top, v)
}

// Latency returns the summary of the latencies counted, the zero Latency
// when none was. It takes time in proportion to the histogram's buckets,
// up to 55,296.
func (c *LatencyCounter) Latency() Latency { return c.h.latency(c.sumHi, c.sumLo, c.top) }
