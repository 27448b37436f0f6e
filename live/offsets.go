package live

import (
	"fmt"
	"math"
	"slices"
	"sync"
)

// WithOffsets tells the executor where each item came from, for sources
// with offsets such as a Kafka topic: offset returns the item's source
// partition and its offset there. A partition's items must be submitted in
// increasing order of offset (gaps allowed, as compaction and transaction
// markers leave them); Submit refuses an item that is not. Then
// [Executor.Completion] tells, per partition, up to where the source can be
// committed. An item handled, dead-lettered, skipped as stale, or
// discarded by the resequencer (a duplicate or a rejected old step) is
// finished; one that failed, or that Close reports as not run (an item
// the resequencer still holds among them), never is.
//
// A finished item above its partition's committable offset is still held,
// as an offset to commit later: Submit waits while the items running,
// waiting and finished above the committable offsets reach [WithMaxHeld],
// so that one slow item bounds what the executor remembers.
//
// T must be the executor's item type, or [New] returns an error.
func WithOffsets[T any](offset func(T) (partition int, offset int64)) Option {
	return func(c *config) {
		if offset == nil {
			c.errs = append(c.errs, fmt.Errorf("WithOffsets: the function is nil"))
		}
		c.offsets = offset
	}
}

// Completion is what one source partition may commit: every item of the
// partition with an offset below Committable has finished, and the item
// at Committable, if one was submitted, has not; Finished lists, in
// increasing order, the offsets above Committable whose items have
// finished. Committable is the offset a Kafka consumer commits, the next
// one to read, once every item submitted has finished: the last offset
// plus 1.
type Completion struct {
	Partition   int
	Committable int64
	Finished    []int64
}

// Completion returns, for each source partition that an item came from,
// in increasing order of partition, what it may commit (see [WithOffsets]),
// nil without WithOffsets. It takes time and memory in proportion to the
// partitions and the items held, holding up each partition's consumers for
// the time it reads that partition.
func (x *Executor[T]) Completion() []Completion {
	x.subMu.Lock()
	parts := slices.Clone(x.parts)
	x.subMu.Unlock()
	var out []Completion
	for _, p := range parts {
		p.mu.Lock()
		c := Completion{Partition: p.id, Committable: p.next}
		if p.head < len(p.offsets) {
			c.Committable = p.offsets[p.head]
			for j := p.head + 1; j < len(p.offsets); j++ {
				if p.done[j] {
					c.Finished = append(c.Finished, p.offsets[j])
				}
			}
		}
		p.mu.Unlock()
		out = append(out, c)
	}
	slices.SortFunc(out, func(a, b Completion) int { return a.Partition - b.Partition })
	return out
}

// Committable returns the committable offset of source partition p, as
// [Executor.Completion] gives it, and true; or false when no item of p
// was submitted (or there is no [WithOffsets]). It takes constant time.
func (x *Executor[T]) Committable(p int) (int64, bool) {
	x.subMu.Lock()
	s := x.partOf(p)
	x.subMu.Unlock()
	if s == nil {
		return 0, false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.head < len(s.offsets) {
		return s.offsets[s.head], true
	}
	return s.next, true
}

// Forget drops source partition p, every item of which has finished, from
// what the executor remembers: [Executor.Completion] and
// [Executor.Committable] no longer report it, and an item of p submitted
// later starts it afresh, at any offset. It returns false, forgetting
// nothing, while an item of p is held (running, waiting, or finished
// above p's committable offset), and true once p is forgotten or was
// never submitted. A source whose partitions come and go, such as a Kafka
// consumer's assignments, calls it for each partition it gave up, so that
// memory follows the partitions it holds, not every one it ever held. It
// takes O(n) time for the n partitions remembered.
func (x *Executor[T]) Forget(p int) bool {
	x.subMu.Lock()
	defer x.subMu.Unlock()
	s := x.partOf(p)
	if s == nil {
		return true
	}
	s.mu.Lock()
	held := s.head < len(s.offsets)
	s.mu.Unlock()
	if held {
		return false // an item held still names s (see finishOffset)
	}
	delete(x.partIndex, p)
	x.parts = slices.DeleteFunc(x.parts, func(q *source) bool { return q == s })
	x.lastPart = nil
	return true
}

// source is one source partition: the highest offset submitted (last,
// Submit's, under subMu), and under its own lock its items not yet
// committable, in offset order from head on, each with whether it has
// finished; next is the committable offset once none is left. base is the
// number of items dropped from the front of offsets, so that base+j names
// the item at j for as long as it is held.
type source struct {
	id      int
	last    int64
	mu      sync.Mutex
	offsets []int64
	done    []bool
	head    int
	base    int
	next    int64
	_       pad
}

// placeOffset checks, under subMu, the offset of an item, of partition p
// at offset o, before Submit takes it: it must be 0 to math.MaxInt64−1
// (the committable offset, one past it, must fit) and above the
// partition's last. Its error names the item by the submission number it
// would have, as an EventError's Index does.
func (x *Executor[T]) placeOffset(p int, o int64) error {
	if o < 0 || o == math.MaxInt64 {
		return fmt.Errorf("live: Submit: item %d: partition %d offset %d; want an offset from 0 to %d, so that the committable offset, one past the last, fits", x.seq, p, o, int64(math.MaxInt64-1))
	}
	if s := x.partOf(p); s != nil && o <= s.last {
		return fmt.Errorf("live: Submit: item %d: partition %d offset %d after offset %d; want increasing offsets", x.seq, p, o, s.last)
	}
	return nil
}

// partOf returns, under subMu, source partition p, nil when no item of p
// was submitted. It remembers the last it found, since a source submits
// runs of one partition's items.
func (x *Executor[T]) partOf(p int) *source {
	if s := x.lastPart; s != nil && s.id == p {
		return s
	}
	s := x.partIndex[p]
	if s != nil {
		x.lastPart = s
	}
	return s
}

// addOffset records, under subMu, that j is the item of partition p at
// offset o, which placeOffset accepted.
func (x *Executor[T]) addOffset(j *task[T], p int, o int64) {
	s := x.partOf(p)
	if s == nil {
		s = &source{id: p}
		x.parts = append(x.parts, s)
		x.partIndex[p] = s
		x.lastPart = s
	}
	s.last = o
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.head > len(s.offsets)/2 && s.head > 0 { // drop the committed front
		n := copy(s.offsets, s.offsets[s.head:])
		copy(s.done, s.done[s.head:])
		s.offsets, s.done = s.offsets[:n], s.done[:n]
		s.base += s.head
		s.head = 0
	}
	j.src, j.entry = s, s.base+len(s.offsets)
	s.offsets = append(s.offsets, o)
	s.done = append(s.done, false)
}

// finishOffset records that j's item has finished, and moves its
// partition's committable offset past every finished item at its front.
func (x *Executor[T]) finishOffset(j *task[T]) {
	s := j.src
	s.mu.Lock()
	defer s.mu.Unlock()
	s.done[j.entry-s.base] = true
	n := int64(1)
	for s.head < len(s.offsets) && s.done[s.head] {
		s.next = s.offsets[s.head] + 1
		s.head++
		n--
	}
	x.pendingN.Add(n)
}
