package konvoy

import (
	"flag"
	"fmt"
	"hash/maphash"
	"math"
	"testing"

	"pgregory.net/rapid"
)

// The key table must number keys exactly as a map would, in order of first
// appearance, through as many growths as it takes.
func TestKeyTableNumbersKeysInOrderOfFirstAppearance(t *testing.T) {
	t.Parallel()
	most := 2000 // two growths past keyTableMinSlots; -konvoy.long three
	if f := flag.Lookup("konvoy.long"); f != nil && f.Value.String() == "true" {
		most = 5000
	}
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(0, most).Draw(t, "keys")
		var table keyTable
		want := map[string]int{}
		for i := range 3 * n {
			key := fmt.Sprint(rapid.IntRange(0, n).Draw(t, "key"))
			if i%3 == 0 {
				key = fmt.Sprint(i / 3) // every key of 0..n-1 at least once
			}
			w, seen := want[key]
			if !seen {
				w = len(want)
				want[key] = w
			}
			got, added := table.index(key)
			if got != w || added == seen {
				t.Fatalf("index(%q) = %d, %v; want %d, %v", key, got, added, w, !seen)
			}
		}
		if table.len() != len(want) || 4*table.len() > 3*len(table.slots) {
			t.Fatalf("%d names in %d slots; want %d names, at most three quarters full", table.len(), len(table.slots), len(want))
		}
		// Homes are picked by as many hash bits as the table has slots for,
		// and the recent-key cache grows with the table up to its size:
		// either wrong, and lookups stay right but slow.
		if n > 0 && (1<<(64-table.shift) != len(table.slots) || len(table.recent) != min(len(table.slots), keyTableRecent)) {
			t.Fatalf("%d slots with shift %d, %d cache entries", len(table.slots), table.shift, len(table.recent))
		}
	})
}

// Equal hash bits are not equal keys: a slot or a cache entry whose top 32
// bits of hash match must still be checked by name. Real collisions are too
// rare to draw, so these entries are forged.
func TestKeyTableComparesNamesWhenHashBitsMatch(t *testing.T) {
	for _, forge := range []string{"slot", "cache"} {
		var table keyTable
		a, _ := table.index("A")
		hA := maphash.String(table.seed, "A")
		b := "B"
		h := maphash.String(table.seed, b)
		for i := 0; h>>table.shift == hA>>table.shift || h&uint64(len(table.recent)-1) == hA&uint64(len(table.recent)-1); i++ {
			b = fmt.Sprint("B", i) // A's own slot and cache entry stay A's
			h = maphash.String(table.seed, b)
		}
		pointsAtA := h>>32<<32 | uint64(a+1)
		switch forge {
		case "slot":
			table.slots[h>>table.shift] = pointsAtA
		case "cache":
			table.recent[h&uint64(len(table.recent)-1)] = pointsAtA
		}
		if got, added := table.index(b); got == a || !added {
			t.Errorf("%s forged for %s pointing at A: index(%s) = %d, %v; want a new index", forge, b, b, got, added)
		}
		if got, added := table.index("A"); got != a || added {
			t.Errorf("%s forged: index(A) = %d, %v; want %d, false", forge, got, added, a)
		}
	}
}

// A key found a moment ago is answered from the recent-key cache, without a
// probe of the table: that is what makes lookups of the keys in flight
// cheap. To see that the table is not probed, the key's slot is emptied
// behind the cache's back; the cache must still give the key's index.
func TestKeyTableAnswersRecentKeysFromTheCache(t *testing.T) {
	var table keyTable
	for i := range 100 {
		table.index(fmt.Sprint("K", i))
	}
	k := "K42"
	want, _ := table.index(k)
	h := maphash.String(table.seed, k)
	for p := h >> table.shift; table.slots[p] != 0; p = (p + 1) & uint64(len(table.slots)-1) {
		if uint32(table.slots[p]) == uint32(want+1) {
			table.slots[p] = 1<<32 | 1 // another key's slot now, for the table
		}
	}
	if got, added := table.index(k); got != want || added {
		t.Fatalf("index(%q) = %d, %v after its slot was taken from the table; want %d, false from the cache", k, got, added, want)
	}
}

// The table grows only when it would be more than three quarters full: at
// exactly three quarters it keeps its size, since memory per key is what
// bounds the largest trace a run can take.
func TestKeyTableGrowsOnlyPastThreeQuarters(t *testing.T) {
	var table keyTable
	for i := range 3 * keyTableMinSlots / 4 {
		table.index(fmt.Sprint(i))
	}
	if len(table.slots) != keyTableMinSlots {
		t.Fatalf("%d keys in %d slots; want %d slots, exactly three quarters full", table.len(), len(table.slots), keyTableMinSlots)
	}
	table.index("one more")
	if len(table.slots) != 2*keyTableMinSlots {
		t.Fatalf("%d keys in %d slots; want %d", table.len(), len(table.slots), 2*keyTableMinSlots)
	}
}

// A full table refuses a new key, and the simulator turns that into an
// error naming the event, rather than placing keys where its 32 bits of
// hash can no longer find them. The table is made to look full by its
// count of keys alone: three billion keys do not fit on a test machine.
func TestAFullKeyTableRefusesNewKeys(t *testing.T) {
	s, err := NewSimulator(Convoy, 2)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Add(Event{Key: "A", Step: 1, Duration: 1}); err != nil {
		t.Fatal(err)
	}
	full := uint64(keyTableMaxKeys)
	if full > math.MaxInt {
		t.Skip("on this platform an int cannot count that many keys, so no run reaches the limit")
	}
	s.in.keys.keys.n = int(full) // A stays at index 0
	if err := s.Add(Event{Key: "A", Step: 2, Duration: 1}); err != nil {
		t.Fatalf("a known key in a full table: %v", err)
	}
	want := `konvoy: event 2 (key "B"): too many distinct keys: the run has 3221225472 distinct keys already, the most one simulator holds`
	if err := s.Add(Event{Key: "B", Step: 1, Duration: 1}); err == nil || err.Error() != want {
		t.Fatalf("a new key in a full table: error %v; want %s", err, want)
	}
	if _, err := s.Result(); err == nil || err.Error() != want {
		t.Fatalf("Result after the refusal: error %v; want %s", err, want)
	}
}

// The recent-key cache stops growing at keyTableRecent entries, so that it
// stays in the processor's caches however large the table grows.
func TestKeyTableCacheStopsGrowing(t *testing.T) {
	var table keyTable
	for i := range keyTableRecent {
		table.index(fmt.Sprint(i))
	}
	if len(table.slots) <= keyTableRecent || len(table.recent) != keyTableRecent {
		t.Fatalf("%d slots, %d cache entries; want more than %d slots and %d entries", len(table.slots), len(table.recent), keyTableRecent, keyTableRecent)
	}
}
