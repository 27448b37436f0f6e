package live

import (
	"math"
	"testing"
	"time"
)

// TestRetryPausesDoubleWithoutACap: with no Cap a retry's pause doubles
// at each attempt, Base·2^(k−1) before attempt k+1, written here as a
// shift (found by mutation testing: pauses that never grew past Base
// went unnoticed when Cap was 0; TestRetryPauses has a Cap).
func TestRetryPausesDoubleWithoutACap(t *testing.T) {
	r := Retry{Attempts: 8, Base: 3 * time.Millisecond}
	for k := 1; k < 8; k++ {
		if got, want := r.pause(11, k), r.Base<<(k-1); got != want {
			t.Errorf("pause before attempt %d: %v; want %v", k+1, got, want)
		}
	}
}

// TestRetryPauseJustBelowTheLongest: a pause that doubles to
// math.MaxInt64−1 exactly is that long; only one that would pass
// math.MaxInt64 is cut to it (found by mutation testing: the test of
// overflow, d > MaxInt64/2, made d ≥ MaxInt64/2, cut the former too).
func TestRetryPauseJustBelowTheLongest(t *testing.T) {
	r := Retry{Base: math.MaxInt64 / 2}
	if got := r.pause(0, 2); got != math.MaxInt64-1 {
		t.Errorf("pause of MaxInt64/2 doubled: %d; want %d", int64(got), int64(math.MaxInt64-1))
	}
	if got := r.pause(0, 3); got != math.MaxInt64 {
		t.Errorf("pause of MaxInt64/2 doubled twice: %d; want %d", int64(got), int64(math.MaxInt64))
	}
}
