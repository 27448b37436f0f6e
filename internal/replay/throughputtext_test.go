package replay

import (
	"strings"
	"testing"
	"time"

	"github.com/sirali-konvoy/konvoy"
)

// A throughput above 0 reads as its digits in the text, as in the JSON:
// 0.04 events/s read 0.0 (found by a review).
func TestReplayTextThroughputNeverReadsAsZero(t *testing.T) {
	s := Side{Events: 1, Makespan: 25 * time.Second, Work: 25 * time.Second}
	c := Comparison{Name: "t", Config: Config{Layout: konvoy.Free, Consumers: 4, Unit: 100 * time.Millisecond},
		Of: 1, Total: 1, Predicted: s, FromActual: s, Measured: s}
	found := false
	for _, line := range strings.Split(c.Text(), "\n") {
		if strings.Contains(line, "throughput") {
			found = true
			if !strings.HasSuffix(strings.TrimSpace(line), " 0.04") {
				t.Errorf("throughput 0.04 events/s reads %q", line)
			}
		}
	}
	if !found {
		t.Errorf("no throughput row in:\n%s", c.Text())
	}
}
