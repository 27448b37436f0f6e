package konvoy_test

import (
	"errors"
	"testing"

	"github.com/sirali-konvoy/konvoy"
)

// Simulate's error for a partition outside a Recorded layout's range says
// the range wanted, 0 to n−1, and the layout's n, so that the user sees
// which values are right (the brief: an error says what was expected).
// Recorded(3) takes partitions 0, 1 and 2, so both -1 and 3 are refused
// with "0 to 2: layout recorded:3 has 3 partitions".
func TestSimulateSaysThePartitionsWanted(t *testing.T) {
	const want = "0 to 2: layout recorded:3 has 3 partitions"
	for _, p := range []int{-1, 3} {
		_, err := konvoy.Simulate([]konvoy.Event{{Key: "a", Partition: 2}, {Key: "b", Partition: p}}, konvoy.Recorded(3), 1)
		var ev *konvoy.EventError
		if !errors.As(err, &ev) || ev.Index != 1 || ev.Field != "Partition" || ev.Want != want {
			t.Errorf("partition %d: error %v; want event 1's Partition, wanting %q", p, err, want)
		}
	}
}
