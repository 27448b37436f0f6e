package konvoy_test

import (
	"testing"

	"github.com/sirali-konvoy/konvoy"
)

// TestHeaviestLaneOfAWeightlessTraceIsTheFirstOpened pins laneTable.heaviest
// for lanes that all carry 0 rounds: they are equally heavy, so by
// Result.HeaviestLaneName's doc ("among equals, the one whose heaviest key
// carries the most, then the lane opened first") the lane opened first is
// named, with the key seen first in it, both loads 0; the fields are zero
// only for layouts without lanes. Key b comes before key a: under Convoy
// b's lane opens first; under Partitioned(1) both share partition 0, whose
// heaviest key among equals is b, seen first. Mutants that started the
// search for the top load at +1 (lanes.go:254), or took a top of 0 for no
// lane (lanes.go:258), left all four fields empty; the randomized
// reference tests catch them too, this pins the edge deterministically.
func TestHeaviestLaneOfAWeightlessTraceIsTheFirstOpened(t *testing.T) {
	events := []konvoy.Event{{Key: "b", Step: 1, Arrival: 0}, {Key: "a", Step: 1, Arrival: 1}}
	for _, c := range []struct {
		layout   konvoy.Layout
		laneName string
	}{{konvoy.Convoy, "b"}, {konvoy.Partitioned(1), "0"}} {
		r, err := konvoy.Simulate(events, c.layout, 1)
		if err != nil {
			t.Fatal(err)
		}
		if r.Lanes == 0 || r.HeaviestLaneName != c.laneName || r.HeaviestKey != "b" || r.HeaviestLane != 0 || r.HeaviestKeyLoad != 0 {
			t.Errorf("%s: %d lanes, heaviest lane %q (%d), key %q (%d); want lane %q and key b, both 0",
				c.layout, r.Lanes, r.HeaviestLaneName, r.HeaviestLane, r.HeaviestKey, r.HeaviestKeyLoad, c.laneName)
		}
	}
}

// TestHeaviestKeyOfALaneIsNotALighterKeyAwayFromHome pins heaviestKeys'
// tie rule: a key seen earlier replaces a lane's heaviest key only when
// it carries as much there, not when it carries less. Under Recorded(2),
// key a runs first in partition 0 (its home lane, 1 round), key b in
// partition 1 (5 rounds), then a again in partition 1 (1 round, away from
// its home): partition 1 is the heaviest lane, 6 rounds, and b, with 5 of
// them, its heaviest key; a, seen first, carries only 1 there, so the
// collision is 1 round. A mutant that let a key seen first win with a
// different load (lanes.go:290, == to !=) named a, 1 round; the randomized
// reference tests catch it too, this pins it deterministically.
func TestHeaviestKeyOfALaneIsNotALighterKeyAwayFromHome(t *testing.T) {
	events := []konvoy.Event{
		{Key: "a", Step: 1, Duration: 1, Arrival: 0, Partition: 0},
		{Key: "b", Step: 1, Duration: 5, Arrival: 1, Partition: 1},
		{Key: "a", Step: 2, Duration: 1, Arrival: 2, Partition: 1},
	}
	r, err := konvoy.Simulate(events, konvoy.Recorded(2), 1)
	if err != nil {
		t.Fatal(err)
	}
	if r.HeaviestLaneName != "1" || r.HeaviestLane != 6 || r.HeaviestKey != "b" || r.HeaviestKeyLoad != 5 || r.Collision() != 1 {
		t.Errorf("heaviest lane %q (%d), key %q (%d), collision %d; want lane 1 (6), key b (5), collision 1",
			r.HeaviestLaneName, r.HeaviestLane, r.HeaviestKey, r.HeaviestKeyLoad, r.Collision())
	}
}
