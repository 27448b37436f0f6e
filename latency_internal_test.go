package konvoy

import (
	"math"
	"math/rand/v2"
	"testing"
)

// BenchmarkLatencyAccounting measures what latency accounting adds to each
// event: two exact histogram counts (wait and response) and one lane's wait
// figures, on latencies that drift the way a long run's do.
func BenchmarkLatencyAccounting(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	values := make([]int, 1<<16)
	for i := range values {
		values[i] = i*5 + rng.IntN(64) // start times creep up, jittered
	}
	var waits, responses histogram
	var l lane
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		w := values[i&(len(values)-1)]
		waits.add(w)
		responses.add(w + 3)
		l.events++
		l.maxWait = max(l.maxWait, w)
		l.totalWait += w
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N), "ns/event")
}

// The mean must be exact before its one rounding, even when the latencies'
// sum passes 2⁶⁴: three values near MaxInt sum to 3·2⁶³ − 6, whose low 64
// bits carry into the high ones.
func TestLatencyMeanSurvivesAHugeSum(t *testing.T) {
	var h histogram
	for _, v := range []int{math.MaxInt, math.MaxInt - 1, math.MaxInt - 2} {
		h.add(v)
	}
	if got, want := h.latency().Mean, float64(math.MaxInt-1); got != want {
		t.Fatalf("mean %g; want %g", got, want)
	}
}
