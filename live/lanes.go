package live

import (
	"hash/maphash"
	"sync"
	"sync/atomic"

	"github.com/sirali-konvoy/konvoy"
)

// The lanes with items held live in shards, by their name's hash, each
// with its own lock, so that Submit joining an item to its lane and a
// consumer leaving one contend only when their lanes share a shard. A
// lane's entry is in its shard's table, and the items waiting in it after
// the one that can start, in the shard's queued list. Under lane-aware the
// first item of a lane, which can start, is in the executor's queue or
// heap of ready items, or kept by the consumer that freed the lane (see
// takeReady), and the rest wait in the lane; under head-of-line
// every item is in the queue, in submission order, and the lane keeps
// their order and which consumer holds each, blocked.
//
// Under lane-aware a lane with a single item held, the common case when
// lanes are many, needs no shard: it takes a slot, by its hash, in an
// array of words and entries that only the holder of the submit lock sets
// and clears, so that Submit finds most lanes in memory no consumer wrote.
// The consumer of a slot's item does not clear the slot: it adds the item
// to the log of finished items, which the holder reads (see finished.go).
// A lane goes to its shard when a second item comes while the first is
// held, or another lane's item hashes to its slot; the slot then counts
// the lanes of its shard that hash to it, and is changed only under the
// shard's lock.

// shards is how many shards an executor's lanes are in.
const shards = 64

// shard is a share of the lanes.
type shard[T any] struct {
	mu     sync.Mutex
	table  laneTable
	queued []queued[T] // items waiting in lanes, linked by next
	free   []int32     // entries of queued not in use
	_      [64]byte
}

// queued is an item waiting in its lane, and under head-of-line the
// consumer blocked holding it (-1 for none).
type queued[T any] struct {
	task   task[T]
	next   int32
	waiter int32
}

// lane is a lane with items held, in its shard's table.
type lane struct {
	name       string
	n          int32 // items of the lane held, waiting or running; 0 for a free entry
	head, tail int32 // the items waiting in the lane, in submission order (queued), or -1
	busy       bool  // head-of-line: an item of the lane runs
	first      int64 // lane-aware: the submission number of the lane's item that can start or runs
	firstAt    int64 // and its submission time
}

// shardOf returns the shard of the lanes of hash h: that of the slot of h,
// whose number it takes mod shards.
func (x *Executor[T]) shardOf(h uint64) *shard[T] { return &x.shards[h%shards] }

// laneHash returns the hash of the lane named name.
func (x *Executor[T]) laneHash(name string) uint64 { return maphash.String(x.seed, name) }

// joinLane adds j, of a lane, to its lane, making the lane when it has no
// item held, and tells whether j can start: under lane-aware when it is the
// lane's only item. Under head-of-line it queues j in its lane whatever it
// finds, setting j.queued. It runs under the submit lock (one caller at a
// time), and takes the lane's shard's lock unless j's slot is free. Under
// lane-aware it first frees the lanes of the items finished so far (see
// finished.go) every drainEvery items, so that it reads the log behind
// the consumers that write it, not in step; and when the log has an item
// and j's slot holds one item, or an item waits in a lane.
func (x *Executor[T]) joinLane(j *task[T]) bool {
	if x.slots.word == nil {
		s := x.shardOf(j.hash)
		s.mu.Lock()
		defer s.mu.Unlock()
		return x.joinShard(s, j)
	}
	w := x.slots.at(j.hash)
	if x.joined++; x.joined%drainEvery == 0 || (x.laneWaitN.Load() > 0 || w.Load() == slotOne) && x.finLog.ready() {
		x.drainFinished(nil, nil)
	}
	if w.Load() == 0 {
		x.takeSlot(j)
		return true
	}
	s := x.shardOf(j.hash)
	s.mu.Lock()
	defer s.mu.Unlock()
	v := w.Load()
	switch v {
	case 0: // a consumer let its slot's last lane in the shard go since
		x.takeSlot(j)
		return true
	case slotOne:
		v = slotShard | 1
		w.Store(v)
		x.slotToShard(s, j.hash)
	}
	if x.joinShard(s, j) {
		w.Store(v + 1) // a lane more in the shard
		return true
	}
	return false
}

// drainEvery is how many items Submit places between its reads of the
// log of finished items, but for those joinLane makes sooner.
const drainEvery = 64

// joinShard adds j to its lane in s, under s's lock, as joinLane does.
func (x *Executor[T]) joinShard(s *shard[T], j *task[T]) bool {
	p, found := s.table.find(j.lane, j.hash)
	if found {
		j.li = s.table.index(p)
	} else {
		j.li = s.table.add(p, j.hash, lane{name: j.lane, head: -1, tail: -1, first: j.seq, firstAt: j.submitted})
	}
	l := &s.table.lanes[j.li]
	l.n++
	if !found && x.policy == konvoy.LaneAware {
		return true
	}
	first := l.tail < 0
	j.queued = s.enqueue(l, j)
	if first && x.policy == konvoy.LaneAware {
		x.laneWaitN.Add(1) // see finished.go
	}
	return false
}

// enqueue puts j at the tail of lane l's waiting items and returns its
// entry in queued.
func (s *shard[T]) enqueue(l *lane, j *task[T]) int32 {
	i := s.entry(j)
	if l.tail < 0 {
		l.head = i
	} else {
		s.queued[l.tail].next = i
	}
	l.tail = i
	return i
}

// entry returns an entry of queued not in use, holding j, linked to none.
func (s *shard[T]) entry(j *task[T]) int32 {
	var i int32
	if n := len(s.free); n > 0 {
		i = s.free[n-1]
		s.free = s.free[:n-1]
	} else {
		s.queued = append(s.queued, queued[T]{})
		i = int32(len(s.queued) - 1)
	}
	s.queued[i] = queued[T]{task: *j, next: -1, waiter: -1}
	return i
}

// dequeue takes lane l's first waiting item off its queue, returning its
// entry, which it frees.
func (s *shard[T]) dequeue(l *lane) *queued[T] {
	i := l.head
	q := &s.queued[i]
	l.head = q.next
	if l.head < 0 {
		l.tail = -1
	}
	s.free = append(s.free, i)
	return q
}

// leaveLane frees the lane of j, which has finished, for its next item:
// under lane-aware it puts the lane's next item, now ready, in next and
// returns true, for j's consumer to take or make ready (see takeReady);
// under head-of-line it hands the lane to the consumer blocked holding the
// next item, when one is and the executor has not stopped. A lane with no
// item left is forgotten. An item that took a slot leaves it through the
// log of finished items (see leaveSlot).
func (x *Executor[T]) leaveLane(j, next *task[T]) bool {
	if j.li < 0 {
		return x.leaveSlot(j, next)
	}
	s := x.shardOf(j.hash)
	s.mu.Lock()
	return x.leaveShard(s, j.hash, j.li, next)
}

// leaveShard frees, as leaveLane does, the lane of hash h at index li in
// shard s, whose lock it holds and lets go of.
func (x *Executor[T]) leaveShard(s *shard[T], h uint64, li int32, next *task[T]) bool {
	l := &s.table.lanes[li]
	l.n--
	l.busy = false
	if l.n == 0 {
		s.table.remove(s.table.placeOfIndex(li, h))
		if x.slots.word != nil {
			w := x.slots.at(h)
			if v := w.Load() - 1; v != slotShard {
				w.Store(v)
			} else {
				w.Store(0)
			}
		}
		s.mu.Unlock()
		return false
	}
	if x.policy == konvoy.LaneAware {
		q := s.dequeue(l)
		*next = q.task
		q.task = task[T]{}
		l.first, l.firstAt = next.seq, next.submitted
		if l.head < 0 {
			x.laneWaitN.Add(-1)
		}
		s.mu.Unlock()
		return true
	}
	if q := &s.queued[l.head]; q.waiter >= 0 && !x.halt.Load() {
		w := q.waiter
		l.busy = true
		s.dequeue(l).task = task[T]{}
		s.mu.Unlock()
		x.wake[w] <- struct{}{} // its consumer is blocked: see awaitLane
		return false
	}
	s.mu.Unlock()
	return false
}

// freeSlot frees, under the submit lock, the lane of the item of hash h
// that took its slot and has finished: it clears the slot, or, when a
// later item moved the lane to its shard, leaves it there as leaveLane
// does.
func (x *Executor[T]) freeSlot(h uint64, next *task[T]) bool {
	w, e := x.slots.at(h), &x.slots.entry[h&x.slots.mask]
	if w.Load() == slotOne {
		*e = slotEntry{}
		w.Store(0)
		x.slotsHeld--
		return false
	}
	s := x.shardOf(h)
	s.mu.Lock()
	return x.leaveShard(s, h, e.li, next)
}

// startLane tells, under head-of-line, whether consumer w may start j,
// which it took: when j's lane is idle, j is its first waiting item, and
// the executor has not halted (a failure that stopped it frees the failed
// item's lane after it halts, so that no later item of the lane starts).
// Otherwise it marks w as blocked holding j, for leaveLane to hand the
// lane to, which it does not once halted.
func (x *Executor[T]) startLane(w int32, j *task[T]) bool {
	s := x.shardOf(j.hash)
	s.mu.Lock()
	defer s.mu.Unlock()
	l := &s.table.lanes[j.li]
	if !l.busy && l.head == j.queued && !x.halt.Load() {
		l.busy = true
		s.dequeue(l).task = task[T]{}
		return true
	}
	s.queued[j.queued].waiter = w
	return false
}

// unstartLane gives back, under head-of-line, the lane of j, which its
// consumer had started (startLane) or was handed (leaveLane) and then kept
// as not started, the executor having stopped: the lane is no longer
// busy, and j is its first waiting item again, as Lanes and Stats count
// an item not started.
func (x *Executor[T]) unstartLane(j *task[T]) {
	s := x.shardOf(j.hash)
	s.mu.Lock()
	defer s.mu.Unlock()
	l := &s.table.lanes[j.li]
	l.busy = false
	i := s.entry(j)
	s.queued[i].next, l.head = l.head, i
	if l.tail < 0 {
		l.tail = i
	}
	j.queued = i
}

// unblock tells, under head-of-line, once the executor ends, whether the
// lane of j, which consumer w holds blocked, was handed to it (then it
// must run j); otherwise it takes back w's mark, leaving j not run.
func (x *Executor[T]) unblock(w int32, j *task[T]) bool {
	s := x.shardOf(j.hash)
	s.mu.Lock()
	defer s.mu.Unlock()
	if q := &s.queued[j.queued]; q.waiter == w && q.task.seq == j.seq {
		q.waiter = -1
		return false
	}
	return true
}

// laneTable holds the lanes with items held: the lanes in a dense array,
// by index, and an open-addressing hash table with linear probing whose
// places are 8 bytes, a lane's index and the high half of its name's hash
// (the low bits of the lanes of a shard are alike: they chose it),
// so that a probe reads eight places a cache line and a lane's own entry
// is read only once found. A lane keeps its index while it has items
// held, so that they reach it without a probe; a forgotten lane's index is
// the next one reused. The table holds at most half as many lanes as it
// has places and doubles when full; neither part shrinks, so its memory is
// that of the most lanes in its shard at once.
type laneTable struct {
	place []uint64 // 0 for none, or a lane's index + 1 << 32 | the high half of its hash
	lanes []lane   // by index; a lane with no item held (n == 0) is free
	free  []int32  // the free indexes of lanes, the last freed last
	n     int      // lanes in the table
}

// placeOf returns the place value of the lane at index i, of hash h.
func placeOf(i int32, h uint64) uint64 { return uint64(i+1)<<32 | h>>32 }

// find returns the place of the lane named name, of hash h, and true; or,
// when the table has no such lane, the place where it would go and false.
func (t *laneTable) find(name string, h uint64) (int, bool) {
	if t.place == nil {
		t.place = make([]uint64, 16)
	}
	mask, high := uint64(len(t.place)-1), uint32(h>>32)
	for j := uint64(high) & mask; ; j = (j + 1) & mask {
		v := t.place[j]
		if v == 0 {
			return int(j), false
		}
		if uint32(v) == high && t.lanes[v>>32-1].name == name {
			return int(j), true
		}
	}
}

// placeOfIndex returns the place of the lane at index i, of hash h, which
// the table holds: a probe that compares places, not names.
func (t *laneTable) placeOfIndex(i int32, h uint64) int {
	mask, v := uint64(len(t.place)-1), placeOf(i, h)
	j := h >> 32 & mask
	for t.place[j] != v {
		j = (j + 1) & mask
	}
	return int(j)
}

// index returns the index of the lane at place p.
func (t *laneTable) index(p int) int32 { return int32(t.place[p]>>32 - 1) }

// add puts l, of hash h, at place p, which find gave, growing the table
// when it is then full, and returns l's index.
func (t *laneTable) add(p int, h uint64, l lane) int32 {
	var i int32
	if k := len(t.free); k > 0 {
		i = t.free[k-1]
		t.free = t.free[:k-1]
		t.lanes[i] = l
	} else {
		i = int32(len(t.lanes))
		t.lanes = append(t.lanes, l)
	}
	t.place[p] = placeOf(i, h)
	t.n++
	if 2*t.n <= len(t.place) {
		return i
	}
	old := t.place
	t.place = make([]uint64, 2*len(old))
	mask := uint64(len(t.place) - 1)
	for _, v := range old {
		if v == 0 {
			continue
		}
		j := uint64(uint32(v)) & mask
		for t.place[j] != 0 {
			j = (j + 1) & mask
		}
		t.place[j] = v
	}
	return i
}

// remove takes the lane at place p out of the table, freeing its index,
// and moves back the places after it in its probe sequence so that every
// lane stays reachable from its hash's place without crossing an empty one.
func (t *laneTable) remove(p int) {
	i := t.index(p)
	t.lanes[i] = lane{}
	t.free = append(t.free, i)
	mask := uint64(len(t.place) - 1)
	at := uint64(p)
	for j := (at + 1) & mask; t.place[j] != 0; j = (j + 1) & mask {
		home := uint64(uint32(t.place[j])) & mask
		// The place at j may move to at when its home is not in (at, j],
		// cyclically.
		if (j-home)&mask >= (j-at)&mask {
			t.place[at] = t.place[j]
			at = j
		}
	}
	t.place[at] = 0
	t.n--
}

// slotTable is, under lane-aware, the lanes with a single item held and no
// other lane of their slot held: a lane's slot is its hash mod the slots.
// A slot's word is 0 when no lane of the slot has an item held; slotOne
// when one lane has one item held, whose name and first item are in the
// slot's entry; or slotShard plus the number of lanes of the slot in its
// shard, which hold the slot's every item held then. Only the holder of
// the submit lock sets a word from 0 or slotOne, or to 0 from slotOne;
// the rest is done under the shard's lock. So while an item that took a
// slot runs, the slot is its own or its shard's: never another item's;
// and once its lane moved to the shard, the entry keeps the lane's index
// there for its finish.
type slotTable struct {
	word  []atomic.Uint64
	entry []slotEntry // written under the submit lock
	mask  uint64
}

// slotEntry is the lane with one item held of a slot whose word is slotOne.
type slotEntry struct {
	name    string
	hash    uint64
	first   int64 // the item's submission number
	firstAt int64 // and time
	li      int32 // once the lane moved to its shard, its index there
}

// The words of a slot, besides 0 and a count of lanes in the shard.
const (
	slotOne   = 1
	slotShard = 1 << 63
)

// newSlots returns the slots for an executor holding up to maxHeld items:
// twice as many, so that a new lane seldom finds its slot taken by another,
// rounded up to a power of 2, at least shards and at most slotsMax, so
// that slots and shards agree (see shardOf). They take 56 bytes each.
func newSlots(maxHeld int) slotTable {
	n := shards
	for n/2 < maxHeld && n < slotsMax { // n/2: 2*maxHeld may pass the largest int
		n *= 2
	}
	return slotTable{word: make([]atomic.Uint64, n), entry: make([]slotEntry, n), mask: uint64(n - 1)}
}

// slotsMax is the most slots an executor has.
const slotsMax = 1 << 16

// at returns the word of the slot of hash h.
func (t *slotTable) at(h uint64) *atomic.Uint64 { return &t.word[h&t.mask] }

// takeSlot gives j, the only item held of its lane, its lane's slot, whose
// word is 0, under the submit lock.
func (x *Executor[T]) takeSlot(j *task[T]) {
	t := &x.slots
	i := j.hash & t.mask
	t.entry[i] = slotEntry{name: j.lane, hash: j.hash, first: j.seq, firstAt: j.submitted}
	j.li = -1
	t.word[i].Store(slotOne)
	x.slotsHeld++
}

// slotToShard moves the lane of the slot of hash h, whose word Submit has
// just turned from slotOne to slotShard+1, to its shard s, under s's lock,
// keeping its index there in the slot's entry.
func (x *Executor[T]) slotToShard(s *shard[T], h uint64) {
	e := &x.slots.entry[h&x.slots.mask]
	p, _ := s.table.find(e.name, e.hash)
	li := s.table.add(p, e.hash, lane{name: e.name, n: 1, head: -1, tail: -1, first: e.first, firstAt: e.firstAt})
	*e = slotEntry{li: li}
	x.slotsHeld--
}
