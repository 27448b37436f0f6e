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

// A key out of order is named by the Stats' copy too, not the copy of the
// event that went backward (found by a review: 110,000 keys of 4 KB, each
// going backward once, ended konvoy plan in the fatal out-of-memory error).
func TestStatsNameAKeyOutOfOrderByTheirCopy(t *testing.T) {
	first, later, other := strings.Clone("K1"), strings.Clone("K1"), strings.Clone("K2")
	var s Stats
	s.Add(konvoy.Event{Key: other, Step: 3})
	s.Add(konvoy.Event{Key: first, Step: 2})
	s.Add(konvoy.Event{Key: later, Step: 1})
	o := s.OutOfOrder()
	if len(o) != 1 || o[0] != "K1" || unsafe.StringData(o[0]) != unsafe.StringData(first) {
		t.Errorf("OutOfOrder %q holds the later event's copy of the key, or the wrong key", o)
	}
	s.Add(konvoy.Event{Key: strings.Clone("K2"), Step: 1})
	if o := s.OutOfOrder(); len(o) != 2 || o[0] != "K1" || o[1] != "K2" || unsafe.StringData(o[1]) != unsafe.StringData(other) {
		t.Errorf("OutOfOrder %q; want K1 then K2, as the Stats hold them", o)
	}
}
