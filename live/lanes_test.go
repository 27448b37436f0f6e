package live

import (
	"strconv"
	"testing"

	"pgregory.net/rapid"
)

// TestLaneTableFindsWhatAMapHolds checks the lane table against a Go map
// over random adds and removes of a few names: find gives a lane exactly
// for the names added and not removed since, and its count is the map's.
// It holds because removal moves back the lanes after a removed one in
// its probe sequence; with few places for many names (the table starts at
// 64 and grows past 32), probe sequences collide, wrap around the end, and
// the table grows while lanes are in it. The test starts it smaller than
// New does, and gives the names hashes of its own drawing, few and
// repeated, so that the probe sequences collide all the time and a failure
// replays.
func TestLaneTableFindsWhatAMapHolds(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		tab := newLaneTable()
		tab.place = make([]tablePlace, rapid.SampledFrom([]int{1, 2, 4, 64}).Draw(t, "places"))
		var lanes []lane
		want := map[string]int32{}
		hashes := map[string]uint64{} // drawn, few: the same for many names
		for _, op := range rapid.SliceOfN(rapid.IntRange(-40, 40), 0, 500).Draw(t, "ops") {
			name := "k" + strconv.Itoa(max(op, -op))
			h, drawn := hashes[name]
			if !drawn {
				h = rapid.Uint64Range(0, 9).Draw(t, "hash of "+name)
				hashes[name] = h
			}
			ln, ok := tab.find(lanes, name, h)
			if w, in := want[name]; ok != in || ok && ln != w {
				t.Fatalf("find(%q) = %d, %v; want %d, %v", name, ln, ok, w, in)
			}
			switch {
			case op >= 0 && !ok:
				lanes = append(lanes, lane{name: name, hash: h})
				tab.add(lanes, ln, int32(len(lanes)-1))
				want[name] = int32(len(lanes) - 1)
			case op < 0 && ok:
				tab.remove(lanes, ln)
				delete(want, name)
			}
			if tab.n != len(want) {
				t.Fatalf("%d lanes in the table; want %d", tab.n, len(want))
			}
		}
		for name, w := range want {
			if ln, ok := tab.find(lanes, name, hashes[name]); !ok || ln != w {
				t.Fatalf("at the end, find(%q) = %d, %v; want %d, true", name, ln, ok, w)
			}
		}
	})
}
