package live

import (
	"strconv"
	"testing"

	"pgregory.net/rapid"
)

// TestLaneTableFindsWhatAMapHolds checks the lane table against a Go map
// over random adds and removes of a few names: find gives a lane exactly
// for the names added and not removed since, at the index add gave it,
// holding the value added with it; placeOfIndex finds that lane's place
// from its index alone; and the count is the map's. It holds because
// removal moves back the places after a removed one in its probe
// sequence, and a lane's entry never moves while it is in the table; with
// few places for many names (the table starts at 16 and grows past 8),
// probe sequences collide, wrap around the end, and the table grows while
// lanes are in it. The test starts it smaller still, and gives the names
// hashes of its own drawing, few and repeated, so that the probe sequences
// collide all the time and a failure replays.
func TestLaneTableFindsWhatAMapHolds(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var tab laneTable
		tab.place = make([]uint64, rapid.SampledFrom([]int{1, 2, 4, 64}).Draw(t, "places"))
		type added struct {
			first int64 // the value added with it, in lane.first
			index int32 // the index add gave it
		}
		want := map[string]added{}
		hashes := map[string]uint64{} // drawn, few: the same for many names
		for i, op := range rapid.SliceOfN(rapid.IntRange(-40, 40), 50, 500).Draw(t, "ops") {
			name := "k" + strconv.Itoa(max(op, -op))
			h, drawn := hashes[name]
			if !drawn {
				h = rapid.Uint64Range(0, 9).Draw(t, "hash of "+name)
				hashes[name] = h
			}
			p, ok := tab.find(name, h)
			w, in := want[name]
			checkFound(t, &tab, name, h, p, ok, w.first, w.index, in)
			switch {
			case op >= 0 && !ok:
				q := tab.add(p, h, lane{name: name, n: 1, first: int64(i)})
				if l := tab.lanes[q]; l.name != name || l.first != int64(i) {
					t.Fatalf("add(%q) gave index %d, holding %q %d", name, q, l.name, l.first)
				}
				want[name] = added{int64(i), q}
			case op < 0 && ok:
				tab.remove(p)
				if l := tab.lanes[w.index]; l != (lane{}) {
					t.Fatalf("remove(%q) left %+v at index %d; want it free", name, l, w.index)
				}
				delete(want, name)
			}
			if tab.n != len(want) {
				t.Fatalf("%d lanes in the table; want %d", tab.n, len(want))
			}
		}
		for name, w := range want {
			p, ok := tab.find(name, hashes[name])
			checkFound(t, &tab, name, hashes[name], p, ok, w.first, w.index, true)
		}
	})
}

// checkFound fails t unless find's answer for name, of hash h, place p
// and found, is a lane exactly when in, at index, holding first, which
// placeOfIndex finds at p too.
func checkFound(t *rapid.T, tab *laneTable, name string, h uint64, p int, found bool, first int64, index int32, in bool) {
	if found != in || found && (tab.index(p) != index || tab.lanes[index].first != first) {
		t.Fatalf("find(%q) found %v; want %v (index %d, value %d)", name, found, in, index, first)
	}
	if found && tab.placeOfIndex(index, h) != p {
		t.Fatalf("placeOfIndex(%d) = %d; want %d, where find found %q", index, tab.placeOfIndex(index, h), p, name)
	}
}
