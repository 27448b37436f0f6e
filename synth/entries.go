package synth

import (
	"math/rand/v2"
	"strings"
)

// entries yields the stream's lifecycles in the order they enter the window:
// which key each belongs to and its number among that key's lifecycles (0
// for the first), and it names the keys.
type entries struct {
	left  int // lifecycles still to enter
	names *names

	// Without key skew: round robin over keys, n lifecycles entered so far.
	keys, n int

	// With key skew: stride scheduling, a min-heap of the keys that still
	// have lifecycles to enter, by the position of their next one, and the
	// names of the keys with a share, in rank order, in one string.
	heap   []stride
	shared string
}

// stride is a key's place in the stride schedule: its next lifecycle, number
// life of count, enters at position pos = (life + phase)/count of the
// stream.
type stride struct {
	pos         float64
	step        float64 // 1/count
	key         int32
	name        int32 // the key's number among those with a share: where its name is in shared
	life, count int
}

// newEntries returns the entry order of c's lifecycles. With KeySkew 0 it is
// round robin over the keys and takes O(1) time and memory, and the keys'
// names are made as the keys first enter (see [names]); otherwise it shares
// the lifecycles out among the keys (see [apportion]) and spreads each key's
// lifecycles evenly at a random phase, which takes O(Keys) time and 40
// bytes per key with a share, plus its name.
func newEntries(c Config, rng *rand.PCG) *entries {
	e := &entries{left: c.lifecycles(), keys: c.Keys}
	if c.KeySkew == 0 || e.left == 0 {
		e.names = newNames('K', c.Keys, maxKeptKeyNames)
		return e
	}
	names := newNames('K', c.Keys, 0)
	withShare := min(c.Keys, e.left)
	var shared strings.Builder
	shared.Grow(withShare * names.width())
	e.heap = make([]stride, 0, withShare)
	apportion(c.Keys, c.KeySkew, e.left, unit(rng), func(rank, count int) {
		phase := unit(rng)
		e.heap = append(e.heap, stride{
			pos:   phase / float64(count),
			step:  1 / float64(count),
			key:   int32(rank - 1),
			name:  int32(len(e.heap)),
			count: count,
		})
		names.write(&shared, rank)
	})
	e.names, e.shared = names, shared.String()
	for i := len(e.heap)/2 - 1; i >= 0; i-- {
		e.down(i)
	}
	return e
}

// next returns the key id (rank − 1), the number of its name for [entries.name]
// and the lifecycle number of the next lifecycle to enter, and false when
// all have entered.
func (e *entries) next() (key, name int32, life int, ok bool) {
	if e.left == 0 {
		return 0, 0, 0, false
	}
	e.left--
	if e.heap == nil {
		key, life = int32(e.n%e.keys), e.n/e.keys
		e.n++
		return key, key, life, true
	}
	top := &e.heap[0]
	key, name, life = top.key, top.name, top.life
	if top.life++; top.life < top.count {
		top.pos += top.step
	} else {
		last := len(e.heap) - 1
		e.heap[0] = e.heap[last]
		e.heap = e.heap[:last]
	}
	if len(e.heap) > 0 {
		e.down(0)
	}
	return key, name, life, true
}

// name returns the key name of number name from next: a substring of shared
// with key skew, without allocating; otherwise as [names.name] makes it.
func (e *entries) name(name int32) string {
	if e.shared == "" {
		return e.names.name(int(name) + 1)
	}
	w := e.names.width()
	i := int(name) * w
	return e.shared[i : i+w]
}

// less orders the heap by position, ties by key.
func (e *entries) less(i, j int) bool {
	a, b := &e.heap[i], &e.heap[j]
	if a.pos != b.pos {
		return a.pos < b.pos
	}
	return a.key < b.key
}

// down restores the heap below i.
func (e *entries) down(i int) {
	n := len(e.heap)
	for {
		l := 2*i + 1
		if l >= n {
			return
		}
		m := l
		if r := l + 1; r < n && e.less(r, l) {
			m = r
		}
		if !e.less(m, i) {
			return
		}
		e.heap[i], e.heap[m] = e.heap[m], e.heap[i]
		i = m
	}
}
