package replay

import (
	"strings"
	"testing"
	"time"

	"github.com/sirali-konvoy/konvoy"
)

// Config.MaxNameBytes bounds what a trace's distinct keys and lines take,
// their names and KeyBytes each, counted once each however often they
// come: a trace over it is an error at the event that passes it, and 0 is
// no bound (found by a review: 200,000 keys of 4,007 bytes ended konvoy
// replay in the fatal out-of-memory error under ulimit -v 2600000).
func TestMaxNameBytesBoundsTheKeysAndLines(t *testing.T) {
	long := strings.Repeat("k", 100)
	events := []konvoy.Event{
		{Key: long + "1", Line: "L", Step: 1, Duration: 1},
		{Key: long + "1", Line: "L", Step: 2, Duration: 1}, // counted once
		{Key: long + "2", Line: "L", Step: 1, Duration: 1},
	}
	c := Config{Layout: konvoy.Convoy, Consumers: 2, Unit: time.Millisecond}
	one, two := KeyBytes+101, KeyBytes+101+KeyBytes+1 // a key; a key and the line
	for _, tc := range []struct {
		most    int
		refused bool
	}{
		{0, false},
		{one + two, false}, // both keys and the line, exactly
		{one + two - 1, true},
		{two - 1, true}, // the first event's key and line
	} {
		c.MaxNameBytes = tc.most
		tr, err := TraceOf("t", events, c)
		switch {
		case !tc.refused && err != nil:
			t.Errorf("MaxNameBytes %d: %v; want no error", tc.most, err)
		case tc.refused && (err == nil || !strings.Contains(err.Error(), "the keys and lines so far take some ")):
			t.Errorf("MaxNameBytes %d: error %v; want one naming MaxNameBytes", tc.most, err)
		}
		if err == nil {
			tr.Close()
		}
	}
}
