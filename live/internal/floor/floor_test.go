package floor

import (
	"hash/maphash"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// The load of live's BenchmarkNoOp, and its executor's default bound.
const (
	benchKeys      = 100_000
	benchConsumers = 8
	maxHeld        = 4096
)

// The sizes of the rings and of the lane table: powers of 2, the queue's
// and the finish rings' at least maxHeld, so that neither ever fills, and
// the table's four times as many, so that probes stay short.
const (
	queueCells = 8192
	finCells   = 8192
	tablePlace = 16384
)

var keys = func() []string {
	k := make([]string, benchKeys)
	for i := range k {
		k[i] = "key-" + strconv.Itoa(i)
	}
	return k
}()

type pad [64]byte

// cell is a place in the queue of items that can start, after D.
// Vyukov's bounded queue: turn is its position plus 1 while it holds an
// item, and the position it is free for otherwise.
type cell struct {
	turn atomic.Uint64
	e    entry
}

// entry is an item held, with its submission time and its lane's hash.
type entry struct {
	item int32
	at   int64
	hash uint64
}

// finRing is a consumer's ring of the lane hashes of its finished items:
// the consumer appends, Submit reads.
type finRing struct {
	hash [finCells]uint64
	_    pad
	tail atomic.Uint64 // written by the consumer
	_    pad
	head atomic.Uint64 // written by Submit
	_    pad
}

// executor is the lean lane-aware executor.
type executor struct {
	seed  maphash.Seed
	clock bool
	epoch time.Time

	cells [queueCells]cell
	_     pad
	enq   uint64 // Submit's alone
	_     pad
	deq   atomic.Uint64
	_     pad

	// Submit's alone: the lanes with an item held, as hash|1 in an
	// open-addressing table with linear probing, and how many items are held.
	table [tablePlace]uint64
	held  int
	waits int // times Submit waited for an item's lane to be free

	fins   [benchConsumers]finRing
	parked [benchConsumers]atomic.Bool
	wake   [benchConsumers]chan struct{}
	idleN  atomic.Int32
	ended  atomic.Bool
	wg     sync.WaitGroup
	sum    [benchConsumers]struct {
		wait, response int64
		_              pad
	}
}

func (x *executor) now() int64 {
	if !x.clock {
		return 0
	}
	return int64(time.Since(x.epoch))
}

// home returns the place where the probe for hash h starts.
func home(h uint64) uint64 { return h >> 1 & (tablePlace - 1) }

// busy tells whether the lane of hash h has an item held.
func (x *executor) busy(h uint64) bool {
	for i := home(h); x.table[i] != 0; i = (i + 1) & (tablePlace - 1) {
		if x.table[i] == h|1 {
			return true
		}
	}
	return false
}

// hold adds the lane of hash h, which has no item held.
func (x *executor) hold(h uint64) {
	i := home(h)
	for x.table[i] != 0 {
		i = (i + 1) & (tablePlace - 1)
	}
	x.table[i] = h | 1
	x.held++
}

// free removes the lane of hash h, moving back the places after it.
func (x *executor) free(h uint64) {
	const mask = tablePlace - 1
	at := home(h)
	for x.table[at] != h|1 {
		at = (at + 1) & mask
	}
	for j := (at + 1) & mask; x.table[j] != 0; j = (j + 1) & mask {
		if (j-home(x.table[j]))&mask >= (j-at)&mask {
			x.table[at] = x.table[j]
			at = j
		}
	}
	x.table[at] = 0
	x.held--
}

// drain frees the lanes of the items finished so far.
func (x *executor) drain() {
	for w := range x.fins {
		f := &x.fins[w]
		head, tail := f.head.Load(), f.tail.Load()
		for ; head < tail; head++ {
			x.free(f.hash[head&(finCells-1)])
		}
		f.head.Store(head)
	}
}

// submit hands item n, the n-th, to the consumers.
func (x *executor) submit(item int32, n int) {
	h := maphash.String(x.seed, keys[item]) &^ 1
	at := x.now()
	if n%64 == 0 {
		x.drain()
	}
	for x.held >= maxHeld || x.busy(h) {
		if x.held < maxHeld {
			x.waits++
		}
		x.drain()
		runtime.Gosched()
	}
	x.hold(h)
	c := &x.cells[x.enq&(queueCells-1)]
	c.e = entry{item, at, h} // the cell is free: held < queueCells
	x.enq++
	c.turn.Store(x.enq)
	if x.idleN.Load() > 0 {
		x.wakeOne()
	}
}

// wakeOne wakes a parked consumer.
func (x *executor) wakeOne() {
	for w := range x.parked {
		if x.parked[w].CompareAndSwap(true, false) {
			x.idleN.Add(-1)
			x.wake[w] <- struct{}{}
			return
		}
	}
}

// pop takes the oldest item that can start, or returns false.
func (x *executor) pop() (entry, bool) {
	pos := x.deq.Load()
	for {
		c := &x.cells[pos&(queueCells-1)]
		switch d := int64(c.turn.Load() - (pos + 1)); {
		case d == 0:
			if x.deq.CompareAndSwap(pos, pos+1) {
				e := c.e
				c.turn.Store(pos + queueCells)
				return e, true
			}
			pos = x.deq.Load()
		case d < 0:
			return entry{}, false
		default:
			pos = x.deq.Load()
		}
	}
}

// next takes consumer w's next item, yielding once and then parking when
// there is none, and returns false once the executor ended.
func (x *executor) next(w int) (entry, bool) {
	for {
		if c, ok := x.pop(); ok {
			return c, true
		}
		runtime.Gosched()
		if c, ok := x.pop(); ok {
			return c, true
		}
		if x.ended.Load() {
			return entry{}, false
		}
		x.parked[w].Store(true)
		x.idleN.Add(1)
		c, ok := x.pop()
		if ok && x.parked[w].CompareAndSwap(true, false) {
			x.idleN.Add(-1)
			return c, true
		}
		<-x.wake[w] // woken by wakeOne, or by the end
		if ok {
			return c, true
		}
	}
}

// work is consumer w: it runs items, and reads the clock once an item, as
// live's consumers do: an item's end is the start of the next it takes
// without parking.
func (x *executor) work(w int, handle func(int32)) {
	defer x.wg.Done()
	f, s := &x.fins[w], &x.sum[w]
	free := int64(-1)
	for {
		c, ok := x.next(w)
		if !ok {
			return
		}
		start := free
		if start < 0 {
			start = x.now()
		}
		handle(c.item)
		free = x.now()
		s.wait += start - c.at
		s.response += free - c.at
		tail := f.tail.Load()
		for tail-f.head.Load() >= finCells { // never: held < finCells
			runtime.Gosched()
		}
		f.hash[tail&(finCells-1)] = c.hash
		f.tail.Store(tail + 1)
	}
}

func benchFloor(b *testing.B, clock bool) {
	x := &executor{seed: maphash.MakeSeed(), clock: clock, epoch: time.Now()}
	for i := range x.cells {
		x.cells[i].turn.Store(uint64(i))
	}
	x.wg.Add(benchConsumers)
	for w := range benchConsumers {
		x.wake[w] = make(chan struct{}, 1)
		go x.work(w, func(int32) {})
	}
	b.ResetTimer()
	for i := range b.N {
		x.submit(int32(i%benchKeys), i)
	}
	for x.held > 0 {
		x.drain()
		runtime.Gosched()
	}
	b.StopTimer()
	x.ended.Store(true)
	for w := range x.wake {
		x.wake[w] <- struct{}{} // a parked consumer's, or a token left unread
	}
	x.wg.Wait()
	var wait int64
	for w := range x.sum {
		wait += x.sum[w].wait
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "items/s")
	b.ReportMetric(float64(wait)/float64(b.N), "mean-wait-ns")
	b.ReportMetric(float64(x.waits), "lane-waits")
}

// BenchmarkFloor runs b.N items through the lean executor, on the load of
// live's BenchmarkNoOp: with no clock, and with the two clock reads an
// item that live makes for its wait and response times.
func BenchmarkFloor(b *testing.B) {
	b.Run("no-clock", func(b *testing.B) { benchFloor(b, false) })
	b.Run("clock", func(b *testing.B) { benchFloor(b, true) })
}
