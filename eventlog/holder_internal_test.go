package eventlog

import (
	"strconv"
	"testing"

	"github.com/sirali-konvoy/konvoy"
)

// A Trace holds events in chunks no larger than what is left of its
// budget: the memory its chunks take stays within the budget and one
// event, however small the budget, where a chunk of heldChunk events
// (256 KiB) once came with the first event.
func TestHolderChunksStayWithinTheBudget(t *testing.T) {
	for _, budget := range []int{0, 100, 1000, 10 * eventBytes, 5000 * eventBytes} {
		h := holder{budget: budget, names: make(map[string]string)}
		for i := range 6000 {
			h.hold(konvoy.Event{Key: "k" + strconv.Itoa(i%3), Step: 1, Duration: 1})
			taken := 0
			for _, c := range h.events {
				taken += cap(c) * eventBytes
			}
			if taken > budget+eventBytes {
				t.Fatalf("budget %d, %d events held: chunks of %d bytes", budget, i+1, taken)
			}
			if h.over {
				break
			}
		}
	}
}
