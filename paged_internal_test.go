package konvoy

import (
	"testing"

	"pgregory.net/rapid"
)

// A paged array must behave as a slice that only grows: every element
// added is found at its index, across page boundaries, because the
// simulator finds a key's or lane's state by its index alone.
func TestPagedKeepsEveryElementAtItsIndex(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(0, 3*pagedSize+2).Draw(t, "elements")
		var v paged[int]
		for i := range n {
			if got := v.add(10 * i); got != i {
				t.Fatalf("add returned index %d; want %d", got, i)
			}
		}
		if v.len() != n {
			t.Fatalf("len is %d; want %d", v.len(), n)
		}
		for i := range n {
			if got := *v.at(i); got != 10*i {
				t.Fatalf("at(%d) holds %d; want %d", i, got, 10*i)
			}
		}
		// Only the first page grows; the others are made whole, once.
		for p, page := range v.pages {
			if p > 0 && cap(page) != pagedSize || p == 0 && (n <= 16 && cap(page) > 16 || cap(page) > pagedSize) {
				t.Fatalf("%d elements: page %d has room for %d", n, p, cap(page))
			}
		}
	})
}
