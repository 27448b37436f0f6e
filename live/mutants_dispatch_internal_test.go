package live

import "testing"

// TestSmallNumberReadsTheDigitNine: smallNumber reads every decimal digit,
// 9 included (found by mutation testing: the test of a digit, d > 9, made
// d ≥ 9, refused names with a 9, whose partitions' owners were then found
// again each time, and TestSmallNumber has no 9).
func TestSmallNumberReadsTheDigitNine(t *testing.T) {
	for name, want := range map[string]int{"9": 9, "19": 19, "999": 999, "1009": 1009} {
		if got := smallNumber(name); got != want {
			t.Errorf("smallNumber(%q) = %d; want %d", name, got, want)
		}
	}
}
