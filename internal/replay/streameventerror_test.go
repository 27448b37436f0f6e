package replay

import (
	"strings"
	"testing"
	"time"

	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/live"
)

// A Stream names an event the simulator refuses as Load does: the trace's
// name, then the event's message, which names it by its index, without
// the simulator's "konvoy: " between the two and the index twice (found by
// a review).
func TestAStreamNamesARefusedEventAsLoadDoes(t *testing.T) {
	s, err := NewStream("orders", Config{Layout: konvoy.Recorded(2), Policy: konvoy.HeadOfLine, Consumers: 2, Unit: time.Millisecond, MaxHeld: 10}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close(live.Stats{}) // the Add error: no files to close
	_, err = s.Add(konvoy.Event{Key: "a", Step: 1, Duration: 1, Partition: 5}, 5, 0, 0)
	if want := `orders: event 0 (key "a"): Partition is 5; want 0 to 1`; err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("Add: %v; want an error beginning %q", err, want)
	}
}
