package eventlog

import (
	"strings"
	"testing"
	"unsafe"

	"github.com/sirali-konvoy/konvoy"
)

// Stats keep the copy of a key that its first event brought, whatever its
// later steps: a map's assignment to a key it holds stores the new copy,
// and a consumer of the stream, which keeps the first, would then hold
// both.
func TestStatsKeepTheFirstCopyOfAKey(t *testing.T) {
	first, later := strings.Clone("K1"), strings.Clone("K1")
	var s Stats
	s.Add(konvoy.Event{Key: first, Step: 1})
	s.Add(konvoy.Event{Key: later, Step: 2})
	for k := range s.keys {
		if unsafe.StringData(k) != unsafe.StringData(first) {
			t.Errorf("Stats hold the later event's copy of the key")
		}
	}
	if s.Keys() != 1 || s.Ordered() != 2 || len(s.OutOfOrder()) != 0 {
		t.Errorf("%d keys, %d ordered, out of order %q; want 1, 2 and none", s.Keys(), s.Ordered(), s.OutOfOrder())
	}
}
