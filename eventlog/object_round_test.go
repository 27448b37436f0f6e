package eventlog_test

import (
	"testing"
	"time"

	"github.com/sirali-konvoy/konvoy/eventlog"
)

// An ObjectDecoder's arrival earlier than the first object's is negative,
// and Reader.Round rounds it to the nearest round, halves away from zero,
// as it does a positive one: 1.6 s and 1.5 s before the first are round
// -2, as 1.6 s and 1.5 s after it are round 2.
func TestAnObjectDecodersNegativeArrivalRoundsToTheNearest(t *testing.T) {
	r := eventlog.Reader{AtFormat: eventlog.UnixMS, Resolution: time.Second, Round: true}
	for _, c := range []struct {
		ts   string
		want int
	}{
		{"11600", 2}, {"11500", 2}, {"10400", 0}, // after the first: nearest, halves away from zero
		{"8400", -2}, {"8500", -2}, {"9600", 0}, // before the first: the same, mirrored
	} {
		o, err := eventlog.NewObjectDecoder(r)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := o.Decode("first", []byte(`{"key":"A","step":1,"duration":"1s","at":10000}`)); err != nil {
			t.Fatal(err)
		}
		e, err := o.Decode("second", []byte(`{"key":"A","step":2,"duration":"1s","at":`+c.ts+`}`))
		if err != nil {
			t.Fatalf("at %s ms: %v", c.ts, err)
		}
		if e.Arrival != c.want {
			t.Errorf("at %s ms, the first at 10000 ms, rounds of 1s: Arrival %d; want %d", c.ts, e.Arrival, c.want)
		}
	}
}
