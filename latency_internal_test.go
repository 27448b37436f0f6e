package konvoy

import (
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
