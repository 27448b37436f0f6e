package live

import (
	"cmp"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync/atomic"
)

// WithOffsets tells the executor where each item came from, for sources
// with offsets such as a Kafka topic: offset returns the item's source
// partition and its offset there. A partition's items must be submitted in
// increasing order of offset (gaps allowed, as compaction and transaction
// markers leave them); Submit refuses an item that is not. Then
// [Executor.Completion] tells, per partition, up to where the source can be
// committed. An item handled, dead-lettered, skipped as stale, dropped by
// [WithGuard]'s enter, or discarded by the resequencer (a duplicate or a
// rejected old step) is finished; one that failed, or that Close reports as not run (an item
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
// partitions and the items held, holding up Submit's next new chunk of a
// partition (see source) for the time it reads that partition.
func (x *Executor[T]) Completion() []Completion {
	x.subMu.Lock()
	parts := slices.Clone(x.parts)
	x.unlockSub()
	var out []Completion
	for _, p := range parts {
		x.lockSource(p)
		c := Completion{Partition: p.id, Committable: p.committable(), Finished: p.finished()}
		x.unlockSource(p, true)
		out = append(out, c)
	}
	slices.SortFunc(out, func(a, b Completion) int { return cmp.Compare(a.Partition, b.Partition) })
	return out
}

// Committable returns the committable offset of source partition p, as
// [Executor.Completion] gives it, and true; or false when no item of p
// was submitted (or there is no [WithOffsets]). It takes constant time,
// amortised over the items finished.
func (x *Executor[T]) Committable(p int) (int64, bool) {
	x.subMu.Lock()
	s := x.partOf(p)
	x.unlockSub()
	if s == nil {
		return 0, false
	}
	x.lockSource(s)
	defer x.unlockSource(s, true)
	return s.committable(), true
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
	defer x.unlockSub()
	s := x.partOf(p)
	if s == nil {
		return true
	}
	x.lockSource(s)
	held := s.headN < s.n.Load()
	x.unlockSource(s, true)
	if held {
		return false // an item held still names s (see finishOffset)
	}
	delete(x.partIndex, p)
	x.parts = slices.DeleteFunc(x.parts, func(q *source) bool { return q == s })
	x.lastPart = nil
	return true
}

// source is one source partition. Its items, in offset order, are in a
// chain of chunks: Submit, under subMu, writes each item's offset at the
// tail and then publishes it (n); the item's consumer marks it finished
// with a store, taking no lock; and whoever holds the source's lock moves
// the head past the finished items at the front (see advance), recycling
// the chunks it leaves. A consumer that finished the item at the head
// (headFlag names its mark) tries the lock, and moves the head if it gets
// it; if not, or if the head reached its item only as it looked, the
// holder looks at the head again once it let the lock go (see
// unlockSource), so that the head never stays behind a finished item. A
// consumer that finished an item behind the head leaves the lock alone:
// whoever passes the head item passes it too. So Submit and the consumers
// share no lock but once a chunk, and a consumer never waits for one.
// Of the consumers, only those of head items take the lock. The lock is
// a word taken and let go with atomic operations, not a sync.Mutex, whose
// TryLock may read the lock's state with a plain load that a processor may
// order before the consumer's mark: both the consumer and the holder could
// then miss the mark.
type source struct {
	id   int
	last int64 // the highest offset submitted, Submit's, under subMu

	tail  *offChunk // Submit's, under subMu: the chunk it fills
	tailN int       // and the items in it

	n atomic.Int64 // the items published, ever
	_ pad          // Submit's fields above, the lock's holders' below

	lock     atomic.Int32 // 1 while held: see lockSource
	head     *offChunk    // the chunk of the first item not committable, under lock
	headI    int          // its place there
	headN    int64        // the items the head has passed, ever
	next     int64        // the committable offset once the head passed every item
	spare    []*offChunk
	headFlag atomic.Pointer[atomic.Bool] // the finished mark at the head's place (see advance)
	_        pad
}

// chunkLen is the items a chunk of a source holds.
const chunkLen = 64

// offChunk is a run of a source's items: their offsets, and whether each
// has finished.
type offChunk struct {
	src    *source
	offset [chunkLen]int64
	done   [chunkLen]atomic.Bool
	next   *offChunk // the chunk after, linked before an item of it is published
}

// lockSource takes s's lock, yielding the processor while another holds
// it (holders hold it for moments: see advance), and moves its head past
// the finished items at its front.
func (x *Executor[T]) lockSource(s *source) {
	for !s.lock.CompareAndSwap(0, 1) {
		runtime.Gosched()
	}
	x.passed(s.advance(), true)
}

// passed counts the k items the head of a source just passed as no longer
// held and, when tell is true, tells a waiting Submit that there may be
// room: the consumer that finished one of them may have found the lock
// taken, and told Submit before the head moved. A consumer finishing an
// item tells Submit once it has finished it (see finish), so its own
// moves need not.
func (x *Executor[T]) passed(k int64, tell bool) {
	if k > 0 {
		x.pendingN.Add(-k)
		if tell && x.waitingN.Load() > 0 {
			x.passSpace()
		}
	}
}

// unlockSource moves s's head past the finished items at its front, lets
// s's lock go, and then, should the head item have finished meanwhile (its
// consumer found the lock taken), takes the lock again, if it can, to move
// the head on: so every finished item at the front is passed by the
// consumer that finished it or by a holder of the lock after it. tell is
// passed's.
func (x *Executor[T]) unlockSource(s *source, tell bool) {
	for {
		x.passed(s.advance(), tell)
		s.lock.Store(0)
		if f := s.headFlag.Load(); f == nil || !f.Load() || !s.lock.CompareAndSwap(0, 1) {
			return
		}
	}
}

// advance moves the head past the finished items at the front, under
// s's lock, and returns how many it passed. It leaves the head at the place
// of the first item not finished, or of the next item to be published,
// and its mark in headFlag; or, when that place is in a chunk not linked
// yet, nil there (Submit links the next chunk under s's lock, whose holder
// advances again, before it publishes an item in it).
func (s *source) advance() int64 {
	n := s.n.Load()
	var k int64
	for {
		if s.headI == chunkLen {
			if s.head.next == nil {
				break
			}
			s.leaveChunk()
		}
		if s.headN == n || !s.head.done[s.headI].Load() {
			break
		}
		s.next = s.head.offset[s.headI] + 1
		s.headI++
		s.headN++
		k++
	}
	var f *atomic.Bool
	if s.headI < chunkLen {
		f = &s.head.done[s.headI]
	}
	if s.headFlag.Load() != f { // a store only when the head moved: consumers read it
		s.headFlag.Store(f)
	}
	return k
}

// leaveChunk moves the head, at the end of its chunk, to the next chunk,
// under s's lock, and keeps the chunk it left, every item of which has
// finished and which Submit has filled and left, for Submit to reuse.
func (s *source) leaveChunk() {
	old := s.head
	s.head, s.headI = old.next, 0
	old.next = nil
	for i := range old.done {
		old.done[i].Store(false)
	}
	s.spare = append(s.spare, old)
}

// committable returns s's committable offset, under s's lock.
func (s *source) committable() int64 {
	if s.headN < s.n.Load() { // then the head's place is in its chunk: see advance
		return s.head.offset[s.headI]
	}
	return s.next
}

// finished returns the offsets of the finished items after the head, in
// order, under s's lock.
func (s *source) finished() []int64 {
	var out []int64
	c, i := s.head, s.headI+1
	for e, n := s.headN+1, s.n.Load(); e < n; e++ {
		if i == chunkLen {
			c, i = c.next, 0
		}
		if c.done[i].Load() {
			out = append(out, c.offset[i])
		}
		i++
	}
	return out
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
// offset o, which placeOffset accepted, and publishes it.
func (x *Executor[T]) addOffset(j *task[T], p int, o int64) {
	s := x.partOf(p)
	if s == nil {
		c := &offChunk{}
		s = &source{id: p, tail: c, head: c}
		s.headFlag.Store(&c.done[0]) // before its first item is published: see finishOffset
		c.src = s
		x.parts = append(x.parts, s)
		x.partIndex[p] = s
		x.lastPart = s
	}
	s.last = o
	if s.tailN == chunkLen {
		x.lockSource(s)
		var c *offChunk
		if k := len(s.spare); k > 0 {
			c, s.spare = s.spare[k-1], s.spare[:k-1]
		} else {
			c = &offChunk{src: s}
		}
		s.tail.next = c // under s's lock, before its first item is published: see advance
		s.tail, s.tailN = c, 0
		x.unlockSource(s, true)
	}
	s.tail.offset[s.tailN] = o
	j.chunk, j.entry = s.tail, int32(s.tailN)
	s.tailN++
	s.n.Add(1)
}

// finishOffset marks j's item finished, counting it as held above its
// partition's committable offset until the head passes it, and, when the
// item is at the head and it gets the source's lock, moves the head (see
// source). The order of the atomic operations is what keeps the head from
// stalling: the consumer stores its mark and then loads headFlag, while a
// holder stores headFlag, lets the lock go, and then loads the mark it
// stored. Whichever of the two loads comes second sees the other's store,
// so either the consumer sees its item at the head, or the holder sees
// the head item finished, and one of them moves the head on.
func (x *Executor[T]) finishOffset(j *task[T]) {
	s, done := j.chunk.src, &j.chunk.done[j.entry]
	x.pendingN.Add(1) // before the mark: the lock's holder may pass it at once
	done.Store(true)
	if s.headFlag.Load() == done && s.lock.CompareAndSwap(0, 1) {
		x.unlockSource(s, false)
	}
}
