package konvoy

// paged is a growable array kept in pages of 4096 elements, so that
// growing it never copies what it already holds. The simulator keeps one
// element per key or lane in them: with millions of keys, an ordinary
// slice would copy tens of megabytes at every growth, and the garbage
// collector would wait for each copy to finish. The first page grows like a
// slice, so that a small run stays small.
type paged[T any] struct {
	pages [][]T
	n     int
}

const (
	pagedBits = 12
	pagedSize = 1 << pagedBits
	pagedMask = pagedSize - 1
)

// len returns the number of elements.
func (v *paged[T]) len() int { return v.n }

// at returns a pointer to element i, valid until the next add: the first
// page moves while it grows.
func (v *paged[T]) at(i int) *T { return &v.pages[i>>pagedBits][i&pagedMask] }

// add appends x and returns its index. It takes O(1) amortised time and
// allocates only at the start of a page or while the first page grows.
func (v *paged[T]) add(x T) int {
	if v.n&pagedMask == 0 {
		size := pagedSize
		if v.n == 0 {
			size = 16
		}
		v.pages = append(v.pages, make([]T, 0, size))
	}
	p := &v.pages[len(v.pages)-1]
	if len(*p) == cap(*p) { // the first page, growing: double it, up to a whole page
		*p = append(make([]T, 0, min(2*cap(*p), pagedSize)), *p...)
	}
	*p = append(*p, x)
	v.n++
	return v.n - 1
}
