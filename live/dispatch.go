package live

import (
	"runtime"

	"github.com/sirali-konvoy/konvoy"
)

// A consumer (work) takes an item as its policy says (take), runs it, and
// finishes it: it counts it in its own tally, frees its lane for the
// lane's next item, and makes room for Submit. No lock is common to every
// item: a consumer pops the queue of items that can start without one,
// takes its lane's shard's lock to free the lane, its own tally's, and
// with WithOffsets its source partition's when it is free (see source).
// Under lane-aware the consumer that frees a lane keeps the lane's next
// item and takes it itself when it is the oldest that can start (see
// takeReady).

// work is consumer w: it takes items as its policy says and runs them
// until Close ends it. It counts each item in x.running from its start to
// its end, before its finish frees its lane or makes room, so that an item
// another consumer starts thereby is never counted at once with it.
func (x *Executor[T]) work(w int32) {
	defer x.wg.Done()
	free := int64(-1)   // when consumer w became free, if it has not waited since
	worked := false     // it ran an item since it last found none
	var j, next task[T] // next: under lane-aware, the next item of the lane j left
	carry := false      // next holds an item
	running := false    // j runs: the goroutine's end then is runtime.Goexit's
	defer func() {
		if running {
			x.exited(w, &j, free)
		}
	}()
	for {
		ok := x.take(w, &j, &next, carry)
		carry = false
		if !ok || x.halt.Load() {
			if ok {
				x.noteUnstarted(w, &j)
			}
			x.idleAfter(w, &worked)
			if !x.park(w) {
				return
			}
			free = -1
			continue
		}
		x.wakeMore()
		// Under head-of-line a consumer that blocks on its item's lane runs
		// nothing meanwhile: it is counted running once the lane is its.
		if x.policy == konvoy.HeadOfLine && j.hasLane && !x.startLane(w, &j) {
			x.idleAfter(w, &worked)
			if free = x.blockOnLane(w, &j); free < 0 {
				return // Close ended the consumers first
			}
		}
		if !x.claim(w, &j) { // the executor stopped since take
			worked = false
			if !x.park(w) {
				return
			}
			free = -1
			continue
		}
		start := free
		if start < 0 {
			start = x.now()
		}
		free, running = start, true
		r := x.run(w, j.item, j.seq)
		running = false
		free = x.now()
		x.running.Add(-1)
		worked = true
		carry = x.finish(w, &j, r, start, free, &next)
	}
}

// exited finishes j, started at time start, whose run consumer w's
// goroutine left through runtime.Goexit (a handler's t.FailNow, say), as
// failed with ErrGoexit, with no retry and no dead letter (cut short when
// Close had given up, as run's failures are), calling the guard's exit
// when the attempt or dead letter that left had entered it, and starts a
// consumer in w's place: the goroutine ends once its deferred calls
// return, and the executor would otherwise wait for j, and for w, for
// ever. It counts a failed attempt only when the Goexit came from within
// one (the handler, or the version store), not from the guard or the dead
// letter, and the item's attempts as those whose handler was called.
func (x *Executor[T]) exited(w int32, j *task[T], start int64) {
	t := x.now()
	cut := x.ctx.Err() != nil
	x.running.Add(-1)
	if x.tallies[w].trying {
		x.tallies[w].trying = false
		x.errorsN.Add(1)
	}
	ie := x.itemError(j.item, j.seq, x.tallies[w].attempt, ErrGoexit)
	defer func() { // even when the guard's exit, below, ends the goroutine as well
		var next task[T]
		if x.finish(w, j, outcome{err: ie, cut: cut}, start, t, &next) {
			x.pushReady(&next)
		}
		x.runIdle(w) // as a consumer that finds no item after its last
		x.wg.Add(1)
		go x.work(w)
	}()
	if x.tallies[w].guarded { // the attempt or dead letter exited: the guard hears of it
		x.tallies[w].guarded = false
		x.guard.exit(x.ctxs[w], j.item, ie)
	}
}

// take finds consumer w's next item by the policy, into j, and tells
// whether there was one; when carry is true, next is the next item of the
// lane w's last item left (see takeReady).
func (x *Executor[T]) take(w int32, j, next *task[T], carry bool) bool {
	switch x.policy {
	case konvoy.LaneAware:
		return x.takeReady(j, next, carry)
	case konvoy.Static:
		if x.takeOwned(w, j) {
			return true
		}
		// A consumer of its own inbox that finds none yields once and
		// looks again before it parks: Submit has often delivered its
		// next item by then, and a park and a wake cost more than a yield.
		runtime.Gosched()
		return x.takeOwned(w, j)
	}
	return x.fresh.pop(j) // head-of-line: the next item, whatever its lane (see startLane)
}

// takeReady is the lane-aware policy: consumer takes the oldest item that
// can start, one without a lane or the first of an idle lane. Items that
// could start when submitted wait in the queue, in submission order; the
// next items of lanes freed later, older than the queue's tail, in a heap:
// the oldest is the head of one of the two. When carry is true, next is
// the next item of the lane the consumer has just left, ready now: it
// takes it when it is older than both heads, with no lock when the heap is
// empty, and otherwise adds it to the heap as it takes the oldest, under
// one lock (in the heap's head's place, one sift, when that is the
// oldest); so a lane whose items come close together costs its consumer
// no lock of the heap.
func (x *Executor[T]) takeReady(j, next *task[T], carry bool) bool {
	if x.readyN.Load() == 0 {
		if !carry {
			return x.fresh.pop(j)
		}
		if s, ok := x.fresh.head(); !ok || next.seq < s {
			*j, *next = *next, task[T]{}
			return true
		}
	}
	x.readyMu.Lock()
	defer x.readyMu.Unlock()
	if carry && x.takeCarried(j, next) {
		return true
	}
	if len(x.ready) > 0 {
		if s, ok := x.fresh.head(); !ok || x.ready[0].seq < s {
			x.popReady(j)
			return true
		}
	}
	return x.fresh.pop(j)
}

// takeCarried takes into j, under readyMu, the oldest of next, the next
// item of the lane the consumer has just left, and the heap's head, and
// returns true, when one of them is older than the queue's head, leaving
// the other in the heap; otherwise it adds next to the heap and returns
// false. next is empty after.
func (x *Executor[T]) takeCarried(j, next *task[T]) bool {
	s, ok := x.fresh.head()
	took := true
	switch {
	case (len(x.ready) == 0 || next.seq < x.ready[0].seq) && (!ok || next.seq < s):
		*j = *next
	case len(x.ready) > 0 && (!ok || x.ready[0].seq < s): // the heap's head is the oldest
		x.replaceTop(j, next)
	default:
		x.pushLocked(next)
		took = false
	}
	*next = task[T]{}
	return took
}

// takeOwned is the static policy: consumer w takes the older of the next
// item of its own lanes, in its inbox, and the next item without a lane.
// A lane's items all run on its owner, one after another, so they never
// overlap.
func (x *Executor[T]) takeOwned(w int32, j *task[T]) bool {
	c := &x.inboxes[w]
	if n, ok := c.head(); ok {
		if s, ok := x.fresh.head(); !ok || c.batch[n].seq < s {
			*j = c.batch[n].task(w)
			c.running.Store(true)
			c.next.Store(n + 1)
			return true
		}
	}
	c.running.Store(false)
	return x.fresh.pop(j)
}

// finish ends consumer w's run of j, started at time start and finished at
// t with outcome r: it counts it, finishes its offset, frees its lane for
// the next item, and makes room. A failure is counted before the lane is
// freed, so that a stopped executor starts no later item of the lane.
// Under lane-aware it returns true with the lane's next item, ready, in
// next, for the consumer to take or make ready (see takeReady).
func (x *Executor[T]) finish(w int32, j *task[T], r outcome, start, t int64, next *task[T]) bool {
	if r.err != nil {
		x.fail(j, r)
	}
	x.count(w, r, max(start-j.submitted, 0), max(t-j.submitted, 0))
	if x.offsets != nil && r.err == nil { // handled, dead-lettered or skipped
		x.finishOffset(j)
	}
	carry := j.hasLane && x.policy != konvoy.Static && x.leaveLane(j, next)
	*j = task[T]{}
	x.tallies[w].fin.Add(1)
	if x.waitingN.Load() > 0 {
		x.passSpace()
	}
	return carry
}

// noteUnstarted keeps j, taken by consumer w once the executor stopped or
// ended, as not started, for Close; under static, w's inbox no longer
// says it runs j.
func (x *Executor[T]) noteUnstarted(w int32, j *task[T]) {
	x.mu.Lock()
	x.unstarted = append(x.unstarted, unrunOf(j))
	x.mu.Unlock()
	if x.inboxes != nil {
		x.inboxes[w].running.Store(false)
	}
	*j = task[T]{}
}

// claim marks j, which consumer w took (and under head-of-line holds
// its lane), as w's, counts it running, and the most running at once,
// and returns true; unless the executor has stopped, in which case it
// keeps j as not started, marks w idle, and returns false. It marks j
// before it reads halt, as fail sets halt before its consumer looks for a
// consumer with an item (checkDrained): so either claim sees the stop, or
// the stopped executor's drain waits for j. An item taken, or a lane
// handed over, before the stop thus never starts once Close has stopped
// watching its context.
func (x *Executor[T]) claim(w int32, j *task[T]) bool {
	x.tallies[w].cur.Store(j.seq)
	if x.halt.Load() {
		if x.policy == konvoy.HeadOfLine && j.hasLane {
			x.unstartLane(j) // the lane was j's: it waits in it again, not running
		}
		x.noteUnstarted(w, j)
		x.runIdle(w)
		return false
	}
	n := x.running.Add(1)
	for p := x.peak.Load(); n > p && !x.peak.CompareAndSwap(p, n); p = x.peak.Load() {
	}
	return true
}

// idleAfter notes consumer w idle (runIdle) when it ran an item since it
// last was, as *worked tells, which it then sets to false.
func (x *Executor[T]) idleAfter(w int32, worked *bool) {
	if *worked {
		*worked = false
		x.runIdle(w)
	}
}

// allIdle tells whether no consumer holds an item it took: each has
// found none since its last, or has been marked idle (see claim). It
// takes time in proportion to the consumers.
func (x *Executor[T]) allIdle() bool {
	for w := range x.tallies {
		if x.tallies[w].cur.Load() >= 0 {
			return false
		}
	}
	return true
}

// runIdle notes consumer w idle: it found no item after the ones it ran,
// the executor stopped, or it blocks. It is where Close learns that the
// executor has drained: the consumer that finishes the last item finds
// none after it, and checks, in time in proportion to the consumers; no
// item's finish pays for that.
func (x *Executor[T]) runIdle(w int32) {
	x.tallies[w].cur.Store(-1)
	x.checkDrained()
}

// blockOnLane blocks consumer w, under head-of-line, holding j until its
// lane is handed to it, counting the time blocked, and returns the time
// it may start j; or, when Close ends the consumers first, it keeps j as
// not started and returns -1.
func (x *Executor[T]) blockOnLane(w int32, j *task[T]) int64 {
	x.tallies[w].blockFrom(x.now())
	handed := x.awaitLane(w, j)
	t := x.endBlock(&x.tallies[w])
	if !handed {
		x.noteUnstarted(w, j)
		return -1
	}
	return t
}

// awaitLane waits, under head-of-line, until the lane of j, which consumer
// w holds, is handed to it (see leaveLane), and returns true; or until
// Close ends the consumers, and returns false, unless the lane was handed
// over meanwhile.
func (x *Executor[T]) awaitLane(w int32, j *task[T]) bool {
	select {
	case <-x.wake[w]:
		return true
	case <-x.quit:
		if x.unblock(w, j) {
			<-x.wake[w] // handed over before Close gave up: it has started
			return true
		}
		return false
	}
}

// park waits, counted idle, until consumer w is woken for an item (true)
// or Close ends the consumers (false). It counts itself idle before it
// looks for an item once more, and a producer puts an item where it looks
// before it looks for an idle consumer, so that no item waits while every
// consumer sleeps.
func (x *Executor[T]) park(w int32) bool {
	x.parkMu.Lock()
	x.idlePos[w] = int32(len(x.idle))
	x.idle = append(x.idle, w)
	x.parked[w].Store(true)
	x.idleN.Add(1)
	x.parkMu.Unlock()
	if x.more(w) && x.unpark(w) {
		return true
	}
	select {
	case <-x.wake[w]:
		x.waking.Add(-1)
		return true
	case <-x.quit:
		return false
	}
}

// unpark takes consumer w, which found an item after it counted itself
// idle, off the idle list, and tells whether it was still on it: if not,
// a producer has woken it, and its token is on its way.
func (x *Executor[T]) unpark(w int32) bool {
	x.parkMu.Lock()
	defer x.parkMu.Unlock()
	if !x.parked[w].Load() {
		return false
	}
	x.leaveIdle(w)
	x.parked[w].Store(false)
	x.idleN.Add(-1)
	return true
}

// more tells whether there is an item consumer w could take, unless the
// executor has halted.
func (x *Executor[T]) more(w int32) bool {
	if x.halt.Load() {
		return false
	}
	if x.readyN.Load() > 0 || !x.fresh.empty() {
		return true
	}
	if x.inboxes != nil {
		_, ok := x.inboxes[w].head()
		return ok
	}
	return false
}

// wakeAny wakes a parked consumer, if one is and none woken is on its way
// to take an item: the one on its way wakes the next when it finds more
// (wakeMore), so that a fast stream of short items does not wake a
// consumer for each.
func (x *Executor[T]) wakeAny() {
	if x.idleN.Load() == 0 || x.waking.Load() > 0 {
		return
	}
	x.parkMu.Lock()
	defer x.parkMu.Unlock()
	if n := len(x.idle); n > 0 && x.waking.Load() == 0 {
		x.wakeLocked(x.idle[n-1])
	}
}

// wakeMore wakes another consumer when items are left that any could take.
func (x *Executor[T]) wakeMore() {
	if x.idleN.Load() > 0 && x.waking.Load() == 0 && (x.readyN.Load() > 0 || !x.fresh.empty()) {
		x.wakeAny()
	}
}

// wakeOne wakes consumer w if it is parked.
func (x *Executor[T]) wakeOne(w int32) {
	if !x.parked[w].Load() {
		return
	}
	x.parkMu.Lock()
	defer x.parkMu.Unlock()
	if x.idlePos[w] >= 0 {
		x.wakeLocked(w)
	}
}

// wakeLocked wakes consumer w, on the idle list, under parkMu.
func (x *Executor[T]) wakeLocked(w int32) {
	x.leaveIdle(w)
	x.parked[w].Store(false)
	x.idleN.Add(-1)
	x.waking.Add(1)
	x.wake[w] <- struct{}{}
}

// leaveIdle takes consumer w off the idle list, under parkMu, in O(1)
// time: the last on the list takes its place.
func (x *Executor[T]) leaveIdle(w int32) {
	i, last := x.idlePos[w], x.idle[len(x.idle)-1]
	x.idle[i], x.idlePos[last] = last, i
	x.idle = x.idle[:len(x.idle)-1]
	x.idlePos[w] = -1
}

// pushReady adds j, the next item of a lane just freed, to the lane-aware
// heap of such items, ordered by submission number, and wakes a consumer.
func (x *Executor[T]) pushReady(j *task[T]) {
	x.readyMu.Lock()
	x.pushLocked(j)
	x.readyMu.Unlock()
	x.wakeAny()
}

// pushLocked adds j to the heap of ready items, under readyMu. The heap
// holds each item's number and its place in readyAt, so that sifting
// moves 16 bytes an entry, not the item.
func (x *Executor[T]) pushLocked(j *task[T]) {
	var i int32
	if n := len(x.readyFree); n > 0 {
		i = x.readyFree[n-1]
		x.readyFree = x.readyFree[:n-1]
		x.readyAt[i] = *j
	} else {
		x.readyAt = append(x.readyAt, *j)
		i = int32(len(x.readyAt) - 1)
	}
	x.ready = append(x.ready, readyRef{j.seq, i})
	h := x.ready
	for k := len(h) - 1; k > 0; {
		p := (k - 1) / 2
		if h[p].seq <= h[k].seq {
			break
		}
		h[p], h[k] = h[k], h[p]
		k = p
	}
	x.readyN.Add(1)
}

// popReady takes the oldest item off the heap of lanes' next items into j,
// under readyMu.
func (x *Executor[T]) popReady(j *task[T]) {
	h := x.ready
	top := h[0].i
	*j = x.readyAt[top]
	x.readyAt[top] = task[T]{}
	x.readyFree = append(x.readyFree, top)
	n := len(h) - 1
	h[0] = h[n]
	h = h[:n]
	x.ready = h
	x.readyN.Add(-1)
	siftDown(h)
}

// siftDown moves the head of heap h down to its place, in O(log n) time.
func siftDown(h []readyRef) {
	n := len(h)
	for k := 0; ; {
		c := 2*k + 1
		if c >= n {
			break
		}
		if c+1 < n && h[c+1].seq < h[c].seq {
			c++
		}
		if h[k].seq <= h[c].seq {
			break
		}
		h[k], h[c] = h[c], h[k]
		k = c
	}
}

// replaceTop takes the oldest item off the heap of lanes' next items into
// j and puts next, younger, in its place, under readyMu: a pop and a push
// in one sift, O(log n) time.
func (x *Executor[T]) replaceTop(j, next *task[T]) {
	h := x.ready
	top := h[0].i
	*j = x.readyAt[top]
	x.readyAt[top] = *next
	h[0].seq = next.seq
	siftDown(h)
}

// readyRef is an entry of the heap of lanes' next items: the item's
// submission number and its place in readyAt.
type readyRef struct {
	seq int64
	i   int32
}

// owner returns the consumer that runs the lane named name under the
// static policy, as the simulator deals it (konvoy.Layout.Owner). Lanes
// not dealt by a partition's number are numbered in the order first seen,
// which the executor remembers for every lane it has seen.
func (x *Executor[T]) owner(name string) int {
	seen := 0
	if x.layout.Partitions() == 0 || x.assignor == konvoy.FirstSeenAssignor {
		n, ok := x.seen[name]
		if !ok {
			n = len(x.seen)
			x.seen[name] = n
		}
		seen = n
	}
	return x.layout.Owner(x.assignor, name, seen, x.consumers)
}

// fixedOwner returns, outside the lock, the consumer that runs the lane
// named name under the static policy when the executor's state does not
// decide it (the partitions of konvoy.Partitioned and konvoy.Recorded,
// dealt by their number), and -1 otherwise.
// The owners of the partitions numbered below len(x.owners) are kept
// once found, since Owner parses the lane's name each time.
func (x *Executor[T]) fixedOwner(name string) int {
	if x.policy != konvoy.Static || x.layout.Partitions() == 0 || x.assignor == konvoy.FirstSeenAssignor {
		return -1
	}
	p := smallNumber(name)
	if p < 0 || p >= len(x.owners) {
		return x.layout.Owner(x.assignor, name, 0, x.consumers)
	}
	if o := x.owners[p].Load(); o > 0 {
		return int(o) - 1
	}
	o := x.layout.Owner(x.assignor, name, 0, x.consumers)
	x.owners[p].Store(int32(o) + 1)
	return o
}

// ownersKept is the most partitions whose owners fixedOwner keeps.
const ownersKept = 1024

// smallNumber returns the number that name writes in decimal digits, when
// it is below ownersKept, and -1 otherwise.
func smallNumber(name string) int {
	if len(name) == 0 || len(name) > 4 {
		return -1
	}
	n := 0
	for i := 0; i < len(name); i++ {
		d := name[i] - '0'
		if d > 9 {
			return -1
		}
		n = 10*n + int(d)
	}
	if n >= ownersKept {
		return -1
	}
	return n
}
