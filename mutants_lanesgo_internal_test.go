package konvoy

import (
	"testing"
	"unsafe"
)

// Mutants of lanes.go that lived (mutants_lanes_internal_test.go, despite
// its name, holds an earlier round's tests of sweep.go).

// TestTableBytesPlansWhatAddKeyMakesForEachKey pins tableBytes' share for
// keys: a sweep plans, for each key, what laneTable.addKey makes for it,
// an int32 of byIndex (4 bytes) and a keyHome of homes (16 bytes, by the
// doc of laneTable.bytes). Under SelectiveConvoy a key gets a byIndex slot
// and no home, 4 bytes; under Convoy nothing; under Partitioned a slot
// and a home, 20; under LineConvoy and a NewLayout with lanes a home, 16.
// The sizes are counted here from the table addKey fills, not read from
// tableBytes. (A mutant that planned nothing for SelectiveConvoy's keys
// lived: the sweep's memory test allows a tenth either way, more than 4
// bytes of a key's plan.)
func TestTableBytesPlansWhatAddKeyMakesForEachKey(t *testing.T) {
	const keys = 1000
	named := NewLayout("by-first-letter", func(e Event) (string, bool) { return e.Key[:1], true })
	for _, l := range []Layout{Convoy, SelectiveConvoy, Partitioned(8), LineConvoy, named} {
		tb := newLaneTable(l)
		for i := range keys {
			tb.addKey(string(rune('a'+i%26)) + string(rune('A'+i/26)))
		}
		made := 4*tb.byIndex.len() + 16*tb.homes.len()
		if got := tableBytes(l, keys, 0); got != made {
			t.Errorf("%s: tableBytes plans %d bytes for %d keys and no lane; addKey made %d (%d byIndex slots, %d homes)",
				l, got, keys, made, tb.byIndex.len(), tb.homes.len())
		}
	}
	// The selective convoy's table is the convoy's and a key's lane slot.
	if d := tableBytes(SelectiveConvoy, keys, 7) - tableBytes(Convoy, keys, 7); d != 4*keys {
		t.Errorf("SelectiveConvoy plans %d bytes more than Convoy for %d keys; want %d, an int32 a key", d, keys, 4*keys)
	}
}

// TestTableBytesPlansAtLeastWhatALaneFuncLaneHolds pins the lanes' share of
// tableBytes under a NewLayout with lanes: each lane it opens keeps a
// laneInput, an entry of named (a string header) and an entry of names
// (a string header and an int), besides its name's bytes, which a sweep
// counts apart; the plan for a lane can be no less than those sizes, map
// overhead aside, on any platform. (Mutants that planned lanes*64 as
// lanes/64, or subtracted it, lived: the sweep's memory test checks key
// loads, not lane names.)
func TestTableBytesPlansAtLeastWhatALaneFuncLaneHolds(t *testing.T) {
	named := NewLayout("by-key", func(e Event) (string, bool) { return e.Key, true })
	const lanes = 1000
	atLeast := lanes * int(unsafe.Sizeof(laneInput{})+2*unsafe.Sizeof("")+unsafe.Sizeof(0))
	if got := tableBytes(named, 0, lanes); got < atLeast {
		t.Errorf("tableBytes(%s, 0 keys, %d lanes) = %d; want at least %d, what the lanes' entries take", named, lanes, got, atLeast)
	}
}
