package konvoy_test

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/sirali-konvoy/konvoy"
)

// TestPartitionsForTakesATotalWorkOfExactlyTheLargestInt pins keyLoads'
// overflow check at its boundary: the doc promises an error only for "a
// total work that overflows int", and a total of exactly math.MaxInt does
// not. Key A carries math.MaxInt−1 rounds and key B 1 round: the total is
// math.MaxInt, so PartitionsFor accepts the trace; on one partition, with
// any share allowed, that partition carries all of it and A is its
// heaviest key. (A check of Duration ≥ MaxInt − work refused B.)
func TestPartitionsForTakesATotalWorkOfExactlyTheLargestInt(t *testing.T) {
	events := []konvoy.Event{{Key: "A", Duration: math.MaxInt - 1}, {Key: "B", Duration: 1}}
	p, found, err := konvoy.PartitionsFor(konvoy.Values(events), 1, 1)
	if err != nil || !found {
		t.Fatalf("a total work of math.MaxInt: %v, found %v; want no error", err, found)
	}
	want := konvoy.PartitionLoad{Partitions: 1, Used: 1, HeaviestLoad: math.MaxInt, HeaviestKey: "A", HeaviestKeyLoad: math.MaxInt - 1}
	if p != want {
		t.Errorf("PartitionsFor = %+v; want %+v", p, want)
	}
}

// TestPartitionsForOverflowErrorSaysTheRoomLeft pins the overflow error's
// Want: after key A's math.MaxInt−5 rounds, event 1 may add at most 5 more
// before the total passes the largest int, so an event of 6 rounds is
// refused with "at most 5", the room it had, and the error names event 1,
// its key and its Duration.
func TestPartitionsForOverflowErrorSaysTheRoomLeft(t *testing.T) {
	events := []konvoy.Event{{Key: "A", Duration: math.MaxInt - 5}, {Key: "B", Duration: 6}}
	_, _, err := konvoy.PartitionsFor(konvoy.Values(events), 0.5, 4)
	var ee *konvoy.EventError
	if !errors.As(err, &ee) {
		t.Fatalf("PartitionsFor: %v; want an *EventError", err)
	}
	if ee.Index != 1 || ee.Key != "B" || ee.Field != "Duration" || ee.Value != 6 || !strings.HasPrefix(ee.Want, "at most 5,") {
		t.Errorf("error %+v; want event 1, key B, Duration 6, wanting \"at most 5, ...\"", *ee)
	}
}
