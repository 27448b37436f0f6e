package runs

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/sirali-konvoy/konvoy"
)

// memoryHint names -max-memory in the largest unit that divides it, as
// -max-memory reads it back, and leaves other errors as they are.
func TestMemoryHintNamesTheSizeInItsUnit(t *testing.T) {
	sizes := map[int]string{3 << 20: "3MiB", 1 << 30: "1GiB", 1536: "1536", 2048: "2KiB", 1000: "1000"}
	if tib := int64(1) << 40; math.MaxInt >= tib*2 {
		sizes[int(tib)] = "1TiB"
		sizes[int(tib/2*3)] = "1536GiB"
	}
	for size, want := range sizes {
		err := memoryHint(konvoy.ErrMemory, size)
		if !errors.Is(err, konvoy.ErrMemory) || !strings.Contains(err.Error(), "-max-memory "+want+",") {
			t.Errorf("memoryHint(%d) = %v; want -max-memory %s", size, err, want)
		}
	}
	other := errors.New("other")
	if err := memoryHint(other, 1<<30); err != other {
		t.Errorf("memoryHint of another error: %v", err)
	}
}
