package konvoy

import (
	"fmt"
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
