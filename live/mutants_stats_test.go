package live_test

import (
	"context"
	"testing"

	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/live"
)

// TestLanesShowTheFirstItemRunning: Lanes reports the lane of the very
// first item submitted (number 0) as running while it runs, with none
// held and so no wait, under lane-aware (a lane of one item, in a slot)
// and head-of-line (a lane in a shard); the lane of the item waiting
// behind it for the one consumer is held, not running (found by mutation
// testing: a shard's lane with none held given the wait of an item
// submitted at time 0, Held ≥ 0 for Held > 0, went unnoticed).
func TestLanesShowTheFirstItemRunning(t *testing.T) {
	for _, p := range []konvoy.Policy{konvoy.LaneAware, konvoy.HeadOfLine} {
		started, release := make(chan struct{}), make(chan struct{})
		x, err := live.New(konvoy.Convoy, 1, func(k string) konvoy.Event { return konvoy.Event{Key: k} },
			func(_ context.Context, k string) error {
				if k == "a" {
					close(started)
					<-release
				}
				return nil
			}, live.WithPolicy(p))
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range []string{"a", "b"} {
			if err := x.Submit(context.Background(), k); err != nil {
				t.Fatal(err)
			}
		}
		<-started
		lanes := x.Lanes(10)
		close(release)
		if err := x.Close(context.Background()); err != nil {
			t.Fatal(err)
		}
		want := map[string]live.LaneStat{"a": {Lane: "a", Running: true}, "b": {Lane: "b", Held: 1}}
		if len(lanes) != 2 {
			t.Fatalf("%v: Lanes %+v; want a running and b held", p, lanes)
		}
		for _, l := range lanes {
			w := want[l.Lane]
			if l.Lane != w.Lane || l.Running != w.Running || l.Held != w.Held || l.Running && l.Wait != 0 {
				t.Errorf("%v: lane %+v; want %+v", p, l, w)
			}
		}
	}
}
