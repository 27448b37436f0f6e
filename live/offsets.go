package live

import (
	"fmt"
	"slices"
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
// partitions and the items held.
func (x *Executor[T]) Completion() []Completion {
	x.offMu.Lock()
	defer x.offMu.Unlock()
	var out []Completion
	for _, p := range x.parts {
		c := Completion{Partition: p.id, Committable: p.next}
		if p.head < len(p.offsets) {
			c.Committable = p.offsets[p.head]
			for j := p.head + 1; j < len(p.offsets); j++ {
				if p.done[j] {
					c.Finished = append(c.Finished, p.offsets[j])
				}
			}
		}
		out = append(out, c)
	}
	slices.SortFunc(out, func(a, b Completion) int { return a.Partition - b.Partition })
	return out
}

// Committable returns the committable offset of source partition p, as
// [Executor.Completion] gives it, and true; or false when no item of p
// was submitted (or there is no [WithOffsets]). It takes constant time.
func (x *Executor[T]) Committable(p int) (int64, bool) {
	x.offMu.Lock()
	defer x.offMu.Unlock()
	k, ok := x.partIndex[p]
	if !ok {
		return 0, false
	}
	s := &x.parts[k]
	if s.head < len(s.offsets) {
		return s.offsets[s.head], true
	}
	return s.next, true
}

// source is one source partition's items not yet committable, in offset
// order from head on, each with whether it has finished; next is the
// committable offset once none is left. base is the number of items
// dropped from the front of offsets, so that base+j names the item at j
// for as long as it is held.
type source struct {
	id      int
	offsets []int64
	done    []bool
	head    int
	base    int
	next    int64
}

// placeOffset checks the offset of an item, of partition p at offset o,
// before Submit takes it: it must be 0 or more and above the partition's
// last.
func (x *Executor[T]) placeOffset(p int, o int64) error {
	x.offMu.Lock()
	defer x.offMu.Unlock()
	if o < 0 {
		return fmt.Errorf("live: Submit: partition %d offset %d; want an offset of 0 or more", p, o)
	}
	if i, ok := x.partIndex[p]; ok {
		if last := x.parts[i].last(); o <= last {
			return fmt.Errorf("live: Submit: partition %d offset %d after offset %d; want increasing offsets", p, o, last)
		}
	}
	return nil
}

// last returns the highest offset submitted.
func (s *source) last() int64 {
	if s.head == len(s.offsets) {
		return s.next - 1
	}
	return s.offsets[len(s.offsets)-1]
}

// addOffset records that j is the item of partition p at offset o, which
// placeOffset accepted.
func (x *Executor[T]) addOffset(j *task[T], p int, o int64) {
	x.offMu.Lock()
	defer x.offMu.Unlock()
	k, ok := x.partIndex[p]
	if !ok {
		k = int32(len(x.parts))
		x.parts = append(x.parts, source{id: p})
		x.partIndex[p] = k
	}
	s := &x.parts[k]
	if s.head > len(s.offsets)/2 && s.head > 0 { // drop the committed front
		n := copy(s.offsets, s.offsets[s.head:])
		copy(s.done, s.done[s.head:])
		s.offsets, s.done = s.offsets[:n], s.done[:n]
		s.base += s.head
		s.head = 0
	}
	j.part, j.entry = k, s.base+len(s.offsets)
	s.offsets = append(s.offsets, o)
	s.done = append(s.done, false)
}

// finishOffset records that the item at entry of source partition part
// (by partIndex) has finished, and moves the partition's committable
// offset past every finished item at its front.
func (x *Executor[T]) finishOffset(part int32, entry int) {
	x.offMu.Lock()
	defer x.offMu.Unlock()
	s := &x.parts[part]
	s.done[entry-s.base] = true
	n := int64(1)
	for s.head < len(s.offsets) && s.done[s.head] {
		s.next = s.offsets[s.head] + 1
		s.head++
		n--
	}
	x.pendingN.Add(n)
}
