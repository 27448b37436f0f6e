package live

import (
	"math"
	"testing"
)

// A latency counts as its nanoseconds, or math.MaxInt past an int: where
// int has 32 bits, a wait past 2.1 s wrapped below 0, and the latency
// counter panicked (GOARCH=386 go test ./cmd/konvoy found it).
func TestALatencyPastAnIntCountsAsTheLargestInt(t *testing.T) {
	for _, d := range []int64{0, 1, math.MaxInt32, math.MaxInt32 + 1, 3e9, math.MaxInt64} {
		want := d
		if d > math.MaxInt {
			want = math.MaxInt
		}
		if got := nanos(d); int64(got) != want {
			t.Errorf("nanos(%d) = %d; want %d", d, got, want)
		}
	}
}
