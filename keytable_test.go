package konvoy

import (
	"fmt"
	"hash/maphash"
	"testing"

	"pgregory.net/rapid"
)

// The key table must number keys exactly as a map would, in order of first
// appearance, through as many growths as it takes.
func TestKeyTableNumbersKeysInOrderOfFirstAppearance(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(0, 5000).Draw(t, "keys")
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
