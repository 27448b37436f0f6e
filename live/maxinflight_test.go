package live

import (
	"context"
	"testing"

	"github.com/sirali-konvoy/konvoy"
)

// MaxInFlight is the most items that ran at once, and here no two items
// can ever run at once, so it is 1: under head-of-line and lane-aware, one
// executor runs 2,000 items of one key on two consumers (two items of a
// lane never run at once), and under static a second runs keys a and b,
// dealt to different consumers, with WithMaxHeld(1) (Submit takes an item
// only once the one before it has finished). It holds because a consumer
// counts its item's end before its finish frees the lane or makes room
// for the next item, which another consumer may start at once.
func TestMaxInFlightCountsOnlyItemsThatRanAtOnce(t *testing.T) {
	type run struct {
		name    string
		policy  konvoy.Policy
		keys    []string
		maxHeld int
	}
	runs := []run{{"static, two lanes, one held", konvoy.Static, []string{"a", "b"}, 1}}
	for _, p := range []konvoy.Policy{konvoy.HeadOfLine, konvoy.LaneAware} { // static runs one lane on one consumer
		runs = append(runs, run{p.String() + ", one lane", p, []string{"a"}, 64})
	}
	for _, r := range runs {
		t.Run(r.name, func(t *testing.T) {
			x, err := New(konvoy.Convoy, 2, func(k string) konvoy.Event { return konvoy.Event{Key: k} },
				func(context.Context, string) error { return nil }, WithPolicy(r.policy), WithMaxHeld(r.maxHeld))
			if err != nil {
				t.Fatal(err)
			}
			for i := range 2000 {
				if err := x.Submit(context.Background(), r.keys[i%len(r.keys)]); err != nil {
					t.Fatal(err)
				}
			}
			if err := x.Close(context.Background()); err != nil {
				t.Fatal(err)
			}
			if s := x.Stats(); s.MaxInFlight != 1 {
				t.Errorf("MaxInFlight = %d after 2,000 items of which no two could run at once; want 1 (Done %d)", s.MaxInFlight, s.Done)
			}
		})
	}
}
