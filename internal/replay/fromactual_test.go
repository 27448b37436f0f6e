package replay

import (
	"testing"
	"time"

	"github.com/sirali-konvoy/konvoy"
)

// The prediction from actual times gives the resequencer the timeout the
// live run has, Timeout × Unit of wall time, in its rounds of a tick: with
// -unit 1500ns a timeout of 10 rounds is 15µs, 15 ticks, not 10 (the unit
// cut to whole ticks first).
func TestFromActualKeepsTheTimeoutsWallTime(t *testing.T) {
	for _, tt := range []struct {
		unit    time.Duration
		timeout int
		want    int
	}{
		{1500 * time.Nanosecond, 10, 15},
		{time.Millisecond, 3, 3000},
		{time.Microsecond, 7, 7},
	} {
		c := Config{Unit: tt.unit, Resequencer: konvoy.ResequencerConfig{Timeout: tt.timeout}}
		if got := c.fromActual().Resequencer.Timeout; got != tt.want {
			t.Errorf("unit %v, timeout %d: from actual %d ticks; want %d", tt.unit, tt.timeout, got, tt.want)
		}
	}
}
