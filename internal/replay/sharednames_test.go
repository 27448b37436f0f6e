package replay

import (
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/sirali-konvoy/konvoy"
)

// Events read back from a trace share its long keys and lines, one copy
// of each name, rather than each holding its own: a replay holds
// thousands of events at once (-max-held), and 70,000 events over 1,000
// keys and lines of 4 KB each, one copy an event held, took 1.02 GB and
// ended konvoy replay in Go's fatal out-of-memory error under ulimit -v
// 2300000 (found by a review). A short name is copied, as its place in a
// map of names would cost more.
func TestEventsReadBackShareTheirLongNames(t *testing.T) {
	long, line := strings.Repeat("k", 100), strings.Repeat("l", 64)
	var events []konvoy.Event
	for i := range 6 {
		events = append(events, konvoy.Event{Key: long + string(rune('0'+i%2)), Line: line, Step: i/2 + 1, Duration: 1},
			konvoy.Event{Key: "short", Line: "L", Step: i + 1, Duration: 1})
	}
	tr, err := TraceOf("t", events, Config{Layout: konvoy.Convoy, Consumers: 2, Unit: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	first := map[string]*byte{}
	var read []konvoy.Event
	for range 2 { // two readings, as the executor's and the predictions'
		if err := tr.each(len(events), func(i int, e konvoy.Event) bool {
			read = append(read, e)
			for _, name := range []string{e.Key, e.Line} {
				p := unsafe.StringData(name)
				if q, ok := first[name]; !ok {
					first[name] = p
				} else if len(name) >= 64 && p != q {
					t.Errorf("event %d: %.10q… read back as a copy of its own", i, name)
				}
			}
			return true
		}); err != nil {
			t.Fatal(err)
		}
	}
	for i, e := range read {
		if want := events[i%len(events)]; e != want {
			t.Fatalf("event %d read back as %+v; want %+v", i, e, want)
		}
	}
}
