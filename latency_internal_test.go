package konvoy

import (
	"math"
	"math/big"
	"math/bits"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// BenchmarkLatencyAccounting measures what latency accounting adds to each
// event, as started does it: two histogram counts (wait and response), the
// waits' exact sum, the two maxima and one lane's wait figures, on
// latencies that drift the way a long run's do, below ExactLatency and
// above it.
func BenchmarkLatencyAccounting(b *testing.B) {
	for _, spread := range []struct {
		name string
		step int
	}{{"exact", 0}, {"bucketed", 5}} {
		b.Run(spread.name, func(b *testing.B) {
			rng := rand.New(rand.NewPCG(1, 2))
			values := make([]int, 1<<16)
			for i := range values {
				values[i] = i*spread.step + rng.IntN(64) // start times creep up, jittered
			}
			s := new(Simulator)
			var l laneRun
			b.ReportAllocs()
			b.ResetTimer()
			for i := range b.N {
				wait := values[i&(len(values)-1)]
				if !s.waits.addNear(wait) { // as started does
					s.waits.addElsewhere(wait)
				}
				if !s.responses.addNear(wait + 3) {
					s.responses.addElsewhere(wait + 3)
				}
				s.maxWait = max(s.maxWait, wait)
				s.maxResponse = max(s.maxResponse, wait+3)
				var carry uint64
				s.waitLo, carry = bits.Add64(s.waitLo, uint64(wait), 0)
				s.waitHi += carry
				s.addWait(0, &l, wait)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N), "ns/event")
		})
	}
}

// add counts v as started does.
func (h *histogram) add(v int) {
	if !h.addNear(v) {
		h.addElsewhere(v)
	}
}

// tally counts values as the simulator counts latencies: in a histogram,
// with their exact sum and their largest beside it.
type tally struct {
	h      histogram
	hi, lo uint64
	top    int
}

func (t *tally) add(v int) {
	t.h.add(v)
	var carry uint64
	t.lo, carry = bits.Add64(t.lo, uint64(v), 0)
	t.hi += carry
	t.top = max(t.top, v)
}

func (t *tally) latency() Latency { return t.h.latency(t.hi, t.lo, t.top) }

// The mean must be exact before its one rounding, even when the latencies'
// sum passes 2⁶⁴: three values near MaxInt sum to 3·2⁶³ − 6, whose low 64
// bits carry into the high ones.
func TestLatencyMeanSurvivesAHugeSum(t *testing.T) {
	var h tally
	for _, v := range []int{math.MaxInt, math.MaxInt - 1, math.MaxInt - 2} {
		h.add(v)
	}
	if got, want := h.latency().Mean, float64(math.MaxInt-1); got != want {
		t.Fatalf("mean %g; want %g", got, want)
	}
}

// latencyValues draws latencies of every magnitude: mostly below
// ExactLatency, often just above it or at an octave's edge, and now and then
// anywhere up to MaxInt, so that every kind of bucket is met.
func latencyValues() *rapid.Generator[[]int] {
	value := rapid.OneOf(
		rapid.IntRange(0, ExactLatency+3),
		rapid.IntRange(ExactLatency-2, 1<<20),
		rapid.Custom(func(t *rapid.T) int { // an octave's edge, give or take
			b := rapid.IntRange(exactBits, bits.UintSize-2).Draw(t, "octave")
			return max(0, 1<<b+rapid.IntRange(-2, 2).Draw(t, "offset"))
		}),
		rapid.IntRange(0, math.MaxInt),
	)
	return rapid.SliceOfN(value, 1, 300)
}

// The histogram's percentiles are those of sorting every value, exactly
// below ExactLatency, and at or above it never lower than the exact one and
// higher by less than 1/1024 of it, and never above Max; Max and Mean are
// exact. Each value at or above ExactLatency is counted in a bucket of the
// values sharing its top exactBits bits, whose largest exceeds it by less
// than 2^shift ≤ v/1024, and a percentile is read as that largest capped at
// the exact Max.
func TestLatencyPercentilesKeepTheirPrecision(t *testing.T) {
	t.Parallel()
	rapid.Check(t, func(t *rapid.T) {
		values := latencyValues().Draw(t, "values")
		var h tally
		for _, v := range values {
			h.add(v)
		}
		got := h.latency()
		sorted := slices.Sorted(slices.Values(values))
		n := len(sorted)
		sum := new(big.Int)
		for _, v := range sorted {
			sum.Add(sum, big.NewInt(int64(v)))
		}
		mean, _ := new(big.Rat).SetFrac(sum, big.NewInt(int64(n))).Float64()
		if got.Max != sorted[n-1] || got.Mean != mean {
			t.Fatalf("Max %d, Mean %v; want %d, %v", got.Max, got.Mean, sorted[n-1], mean)
		}
		for _, p := range []struct {
			percent int
			got     int
		}{{50, got.P50}, {95, got.P95}, {99, got.P99}} {
			exact := sorted[(n*p.percent+99)/100-1]
			switch {
			case exact < ExactLatency && p.got != exact:
				t.Fatalf("P%d is %d; want exactly %d", p.percent, p.got, exact)
			case p.got < exact || p.got > got.Max || p.got-exact > (exact-1)/1024:
				t.Fatalf("P%d is %d; want %d within 1/1024, at most Max %d", p.percent, p.got, exact, got.Max)
			}
		}
	})
}

// Every bucket at or above ExactLatency holds the values that share their
// top exactBits bits: 2^b up to 2^b + 2^(b−10) − 1 for each octave b, the
// next value starting the next bucket.
func TestLatencyBucketEdges(t *testing.T) {
	for b := exactBits; b < bits.UintSize-1; b++ {
		width := 1 << (b - octaveBits)
		for _, c := range []struct{ v, hi int }{
			{1 << b, 1<<b + width - 1},
			{1<<b + width - 1, 1<<b + width - 1},
			{1<<b + width, 1<<b + 2*width - 1},
			{1<<(b+1) - 1, 1<<(b+1) - 1},
		} {
			var h histogram
			h.add(c.v)
			h.add(math.MaxInt) // lifts the cap, so that the bucket's top shows
			if got := h.rank(2, 5000, math.MaxInt); got != c.hi {
				t.Errorf("the bucket of %d ends at %d; want %d", c.v, got, c.hi)
			}
		}
	}
	var h histogram
	h.add(ExactLatency - 1)
	h.add(math.MaxInt)
	if got := h.rank(2, 5000, math.MaxInt); got != ExactLatency-1 {
		t.Errorf("%d is counted as %d; want it exact", ExactLatency-1, got)
	}
}

// A histogram takes at most maxBuckets counts, whatever its values: a
// block of exact counts for each lowBlock values below ExactLatency and
// an octave of buckets for each power of two above, each made when a value
// first falls in it, and no more however many values fall there.
func TestHistogramMemoryIsBounded(t *testing.T) {
	var h histogram
	if got := h.bytes(); got != 0 {
		t.Fatalf("an empty histogram holds %d bytes; want none", got)
	}
	h.add(ExactLatency)
	h.add(2*ExactLatency - 1)
	if got, want := h.bytes(), octaveSize*wordBytes; got != want {
		t.Fatalf("one octave: %d bytes; want %d", got, want)
	}
	h.add(0)
	h.add(lowBlock - 1)
	if got, want := h.bytes(), (lowBlock+octaveSize)*wordBytes; got != want {
		t.Fatalf("one octave and a block of exact counts: %d bytes; want %d", got, want)
	}
	h.add(ExactLatency - 1)
	if got, want := h.bytes(), (2*lowBlock+octaveSize)*wordBytes; got != want {
		t.Fatalf("one octave and two blocks of exact counts: %d bytes; want %d", got, want)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for v := 0; v < ExactLatency; v += lowBlock / 3 {
		h.add(v)
	}
	for b := range bits.UintSize - 1 {
		for range 1000 {
			h.add(1 << b)
			h.add(1<<b + 1<<b/3)
		}
	}
	h.add(math.MaxInt)
	runtime.ReadMemStats(&after)
	if got, want := h.bytes(), maxBuckets*wordBytes; bits.UintSize == 64 && got != want {
		t.Fatalf("every octave: %d bytes; want %d", got, want)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > maxBuckets*8 {
		t.Fatalf("counting values of every size allocated %d bytes; want at most %d", grew, maxBuckets*8)
	}
}

// The counts of the last value's part are kept at hand: after a value
// below ExactLatency, any other one in its block of lowBlock is counted
// without leaving add's inlined path, and after one in an octave, any
// other in that octave; a
// value elsewhere takes the slow path, and moves the part at hand.
func TestHistogramKeepsTheLastPartAtHand(t *testing.T) {
	var h histogram
	if h.addNear(0) {
		t.Fatal("an empty histogram counted a value without its counts")
	}
	for _, c := range []struct {
		first        int
		near, beyond []int
	}{
		{5, []int{0, lowBlock - 1}, []int{lowBlock, ExactLatency, 1 << 29}},
		{ExactLatency - 1, []int{ExactLatency - lowBlock, ExactLatency - 2}, []int{ExactLatency - lowBlock - 1, ExactLatency}},
		{1<<20 + 7, []int{1 << 20, 1<<21 - 1}, []int{1<<20 - 1, 1 << 21, 3}},
		{ExactLatency, []int{ExactLatency, 2*ExactLatency - 1}, []int{ExactLatency - 1, 2 * ExactLatency}},
	} {
		h.add(c.first)
		for _, v := range c.near {
			if !h.addNear(v) {
				t.Errorf("after %d, %d is not at hand", c.first, v)
			}
		}
		for _, v := range c.beyond {
			if h.addNear(v) {
				t.Errorf("after %d, %d was counted as at hand", c.first, v)
			}
			h.add(c.first) // back to the first's part
		}
	}
}

// The responses' exact sum, the waits' plus the work, carries past 2⁶⁴:
// four events of a quarter of MaxInt each on one consumer wait 0, d, 2d
// and 3d, 6d in all, and respond at d to 4d, 10d in all, past 2⁶⁴.
func TestResponseMeanSurvivesAHugeSum(t *testing.T) {
	d := (math.MaxInt - 1) / 4
	s, err := NewSimulator(Free, 1)
	if err != nil {
		t.Fatal(err)
	}
	for range 4 {
		if err := s.Add(Event{Key: "A", Duration: d}); err != nil {
			t.Fatal(err)
		}
	}
	r, err := s.Result()
	if err != nil {
		t.Fatal(err)
	}
	mean := func(times int) float64 {
		m, _ := new(big.Rat).SetFrac(new(big.Int).Mul(big.NewInt(int64(d)), big.NewInt(int64(times))), big.NewInt(4)).Float64()
		return m
	}
	if r.Response.Mean != mean(10) || r.Wait.Mean != mean(6) {
		t.Fatalf("mean response %g, wait %g; want %g and %g", r.Response.Mean, r.Wait.Mean, mean(10), mean(6))
	}
}

// A lane's total wait is exact past 2⁶⁴ rounds: the carry out of its low
// 64 bits goes to the run's laneCarry, by lane, and only then. The lane
// starts with the total that waits before it bring it to, whatever the
// size of int, so that the longest wait adds up to 2⁶⁴−2.
func TestLaneWaitCarriesPast64Bits(t *testing.T) {
	s := new(Simulator)
	l := laneRun{waitLo: math.MaxUint64 - 1 - uint64(math.MaxInt)}
	s.addWait(7, &l, math.MaxInt)
	if s.laneCarry != nil {
		t.Fatalf("a total of 2⁶⁴−2 carries %v; want nothing", s.laneCarry)
	}
	s.addWait(7, &l, 3)
	if got, want := l.waitLo, uint64(1); got != want || s.laneCarry[7] != 1 || len(s.laneCarry) != 1 {
		t.Errorf("a total of 2⁶⁴+1 keeps low %d and carry %v; want %d and map[7:1]", got, s.laneCarry, want)
	}
	if l.maxWait != math.MaxInt {
		t.Errorf("the longest wait is %d; want %d", l.maxWait, math.MaxInt)
	}
}

// A LatencyCounter sums up what it counted as a run does: nearest-rank
// percentiles, exact below ExactLatency, the exact mean and maximum,
// checked against the sorted values.
func TestLatencyCounterIsNearestRank(t *testing.T) {
	var c LatencyCounter
	if got := c.Latency(); got != (Latency{}) {
		t.Fatalf("nothing counted: %+v", got)
	}
	var vs []int
	for i := range 1000 {
		v := (i * 7919) % 1500 // below ExactLatency: every percentile exact
		vs = append(vs, v)
		c.Add(v)
	}
	slices.Sort(vs)
	sum := 0
	for _, v := range vs {
		sum += v
	}
	want := Latency{P50: vs[499], P95: vs[949], P99: vs[989], Max: vs[999], Mean: float64(sum) / 1000}
	if got := c.Latency(); got != want {
		t.Errorf("Latency() = %+v; want %+v", got, want)
	}
	const large = math.MaxInt / 4 // past 2³⁰ on 32 bits, 2⁶⁰ on 64
	c.Add(large)
	if got := c.Latency(); got.Max != large || got.P50 != vs[500] {
		t.Errorf("after a large value: %+v", got)
	}
	defer func() {
		if p, _ := recover().(string); !strings.HasPrefix(p, "konvoy: LatencyCounter") {
			t.Errorf("Add(-1) recovered %q; want a konvoy: panic", p)
		}
	}()
	c.Add(-1)
}
