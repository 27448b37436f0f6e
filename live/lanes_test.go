package live

import (
	"strconv"
	"testing"

	"pgregory.net/rapid"
)

// TestLaneTableFindsWhatAMapHolds checks the lane table against a Go map
// over random adds and removes of a few names: find gives a lane exactly
// for the names added and not removed since, holding the value added with
// it, and its count is the map's. It holds because removal moves back the
// lanes after a removed one in its probe sequence; with few places for
// many names (the table starts at 16 and grows past 8), probe sequences
// collide, wrap around the end, and the table grows while lanes are in
// it. The test starts it smaller still, and gives the names hashes of its
// own drawing, few and repeated, so that the probe sequences collide all
// the time and a failure replays.
func TestLaneTableFindsWhatAMapHolds(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var tab laneTable
		tab.place = make([]lane, rapid.SampledFrom([]int{1, 2, 4, 64}).Draw(t, "places"))
		want := map[string]int{}      // name → the value added with it, in lane.first
		hashes := map[string]uint64{} // drawn, few: the same for many names
		for i, op := range rapid.SliceOfN(rapid.IntRange(-40, 40), 50, 500).Draw(t, "ops") {
			name := "k" + strconv.Itoa(max(op, -op))
			h, drawn := hashes[name]
			if !drawn {
				h = rapid.Uint64Range(0, 9).Draw(t, "hash of "+name)
				hashes[name] = h
			}
			p, ok := tab.find(name, h)
			if w, in := want[name]; ok != in || ok && tab.place[p].first != w {
				t.Fatalf("find(%q) found %v; want %v (value %d)", name, ok, in, w)
			}
			switch {
			case op >= 0 && !ok:
				q := tab.add(p, lane{name: name, h: uint32(h), used: true, first: i})
				if l := tab.place[q]; l.name != name || l.first != i {
					t.Fatalf("add(%q) gave place %d, holding %q %d", name, q, l.name, l.first)
				}
				want[name] = i
			case op < 0 && ok:
				tab.remove(p)
				delete(want, name)
			}
			if tab.n != len(want) {
				t.Fatalf("%d lanes in the table; want %d", tab.n, len(want))
			}
		}
		for name, w := range want {
			if p, ok := tab.find(name, hashes[name]); !ok || tab.place[p].first != w {
				t.Fatalf("at the end, find(%q) found %v; want value %d", name, ok, w)
			}
		}
	})
}
