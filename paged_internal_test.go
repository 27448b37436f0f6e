package konvoy

import (
	"math"
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// A paged array must behave as a slice that only grows: every element
// added is found at its index, across page boundaries, because the
// simulator finds a key's or lane's state by its index alone.
func TestPagedKeepsEveryElementAtItsIndex(t *testing.T) {
	t.Parallel()
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

// A fifo must give back what it was given, in order, and its memory must
// follow what it holds, not what went through it: a queue of one page has
// room for at most four times the most it held at once (16 at the least),
// however many went through it, and a longer one at most three pages more
// than the most it held, its first page partly popped, its last partly
// filled, and its spare, every page between them whole. Bursts of pushes,
// of pops, and of a push and a pop each, at a steady length, cross pages
// both ways; a page let go of is kept as the next one's.
func TestFifoIsAQueueThatLetsGoOfItsPages(t *testing.T) {
	t.Parallel()
	rapid.Check(t, func(t *rapid.T) {
		var q fifo[int]
		var model []int
		next, most := 0, 0
		push := func() {
			q.push(next)
			model = append(model, next)
			next++
			most = max(most, len(model))
		}
		pop := func() {
			pages := len(q.pages)
			if got := q.pop(); got != model[0] {
				t.Fatalf("popped %d; want %d", got, model[0])
			}
			model = model[1:]
			if len(q.pages) < pages && q.spare == nil {
				t.Fatalf("let go of a page, %d left, and kept no spare", len(q.pages))
			}
		}
		for range rapid.IntRange(0, 30).Draw(t, "bursts") {
			k := rapid.IntRange(0, 3*pagedSize).Draw(t, "burst")
			switch rapid.IntRange(0, 2).Draw(t, "kind") {
			case 0:
				for range k {
					push()
				}
			case 1:
				for range min(k, len(model)) {
					pop()
				}
			default:
				for range k {
					push()
					pop()
				}
			}
			checkFifo(t, &q, model, most)
		}
		if !slices.Equal(q.elements(), model) {
			t.Fatalf("holds %v; want %v", q.elements(), model)
		}
	})
}

// checkFifo fails t unless q holds model, as long as it is, and its pages
// are as TestFifoIsAQueueThatLetsGoOfItsPages says, most being the most it
// held at once.
func checkFifo(t *rapid.T, q *fifo[int], model []int, most int) {
	if q.len() != len(model) || len(model) > 0 && *q.front() != model[0] {
		t.Fatalf("len %d; want %d", q.len(), len(model))
	}
	room := cap(q.spare)
	for i, p := range q.pages {
		room += cap(p)
		if cap(p) < pagedSize && len(q.pages) > 1 || cap(p) > pagedSize || 0 < i && i < len(q.pages)-1 && len(p) < pagedSize {
			t.Fatalf("page %d of %d holds %d in room for %d", i, len(q.pages), len(p), cap(p))
		}
	}
	if len(q.pages) == 1 && cap(q.pages[0]) > max(16, 4*most) || room > most+3*pagedSize {
		t.Fatalf("room for %d in %d pages and a spare of %d, having held at most %d at once", room, len(q.pages), cap(q.spare), most)
	}
	if q.spare != nil && (len(q.spare) != 0 || cap(q.spare) != pagedSize) {
		t.Fatalf("a spare page of %d in room for %d; want an empty whole page", len(q.spare), cap(q.spare))
	}
}

// elements returns what q holds, in order.
func (q *fifo[T]) elements() []T {
	var out []T
	for i, p := range q.pages {
		if i == 0 {
			p = p[q.head:]
		}
		out = append(out, p...)
	}
	return out
}

// A key's state is exact for any step: one that does not fit the 4 bytes
// a key takes outside the resequencer goes to the map beside, and a
// smaller step after it back to its place.
func TestKeyStepsKeepEveryStep(t *testing.T) {
	for _, wide := range []bool{false, true} {
		v := keySteps{wide: wide}
		for range 3 {
			v.add()
		}
		steps := []int{0, math.MaxInt}
		if math.MaxInt > inMap { // a 64-bit int: steps up to the mark and beyond
			var mark uint64 = inMap
			steps = append(steps, int(mark-1), int(mark), int(mark+1))
		}
		for _, step := range append(steps, 7) {
			if wide {
				*v.at(1) = step
			} else {
				v.put(1, v.slot(1), step)
			}
			if got := v.get(1); got != step || v.get(0) != 0 || v.get(2) != 0 {
				t.Errorf("wide %t: set key 1 to %d, got %d, keys 0 and 2 %d and %d; want it and 0", wide, step, got, v.get(0), v.get(2))
			}
		}
		if len(v.large) > 1 {
			t.Errorf("wide %t: the map holds %v; want one key at most", wide, v.large)
		}
	}
}
