package live

import (
	"testing"
	"time"
)

// The jitter is drawn for the item as well as the attempt: items' first
// pauses differ.
func TestJitterDependsOnTheItem(t *testing.T) {
	r := Retry{Attempts: 3, Base: time.Second, Jitter: 1, Seed: 42}
	seen := map[time.Duration]bool{}
	for seq := range uint64(8) {
		seen[r.pause(seq, 1)] = true
	}
	if len(seen) < 2 {
		t.Errorf("pauses of items 0 to 7 before attempt 2: %v; want them to differ", seen)
	}
}
