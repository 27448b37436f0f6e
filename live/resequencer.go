package live

import (
	"errors"
	"fmt"
	"math"
	"sync"
	"time"

	"github.com/sirali-konvoy/konvoy"
)

// ErrNeverApplied is the reason [Executor.Close] gives, in its
// [UnrunError], for items the resequencer still held when nothing else was
// left to run: the steps before them never came.
var ErrNeverApplied = errors.New("live: held by the resequencer for steps that never came")

// The resequencer (see the package's doc) decides what becomes of an item
// when it is submitted: it releases it into its key's lane, holds it for a
// gap, or discards it; a held item is released later by the item that
// fills its gap, by its timeout or to make room under the capacity. The
// key's lane then runs the released items one at a time, in release
// order, which is the order in which the model's resequencer applies them
// (konvoy's resequencer.go, whose steps these functions follow one for
// one).

// reseqOptions is what WithResequencer sets.
type reseqOptions struct {
	konvoy.ResequencerConfig
	timeout time.Duration // Timeout rounds of the round given
	round   time.Duration // the round given, when timeout is set
}

// WithResequencer configures the [konvoy.Resequencer] with the same
// [konvoy.ResequencerConfig] that [konvoy.WithResequencer] gives a
// simulated run; other layouts ignore it. Start, Capacity and RejectOld
// mean what they mean in the model. Timeout is in the model's rounds, and
// round is the wall time of one, as konvoy replay's -unit is: an item held
// for a gap is released, skipping the steps missing before it, once it
// has been held Timeout × round (round is ignored when Timeout is 0).
//
// The timeout runs on one timer for the executor, set to the earliest
// time an item held is due; Submit also releases the items due before it
// places its own, as the model does before it applies an event. Close
// does not wait out the timeouts: no item can fill a gap once Close is
// called, so it releases every item held at once, in the order they were
// held, which is the order their timeouts would release them. An item
// held costs O(log n) time, for the n its key holds (a heap of their
// steps); Timeout and Capacity add a queue of the held items in the order
// held, O(1) amortised time per item held. Each key seen costs its name,
// a map and a heap of its steps held (let go once it held more than 8 and
// holds none), and the words of its state.
//
// The timeout runs in wall time from an item's submission time, which
// [Executor.SubmitAll] reads once for all its items: when its event
// function is slow, the timer may release an item of its first 64 before
// an item of a later 64 that would have filled the gap is placed, where
// the model, which takes every item at the call's time, fills it first.
//
// A Capacity below [WithMaxHeld]'s limit keeps gaps that never fill from
// filling the executor, which they can under the zero configuration:
// Submit then returns an error wrapping [ErrGapsFull]. With [WithOffsets]
// it does not suffice: the items that finish above an item held for a gap
// count against the limit too, until their partition's committable offset
// passes them, which the held item keeps down; there only a Timeout
// does.
//
// [New] returns an error on an unknown Start, a negative Timeout or
// Capacity, a Timeout with a round of 0 or less, or a Timeout × round past
// the largest time.Duration.
func WithResequencer(c konvoy.ResequencerConfig, round time.Duration) Option {
	return func(cf *config) {
		switch {
		case c.Start > konvoy.StartFirstSeen:
			cf.errs = append(cf.errs, fmt.Errorf("WithResequencer: unknown %v; want StartZero or StartFirstSeen", c.Start))
		case c.Timeout < 0 || c.Capacity < 0:
			cf.errs = append(cf.errs, fmt.Errorf("WithResequencer: Timeout %d and Capacity %d; want 0 (none) or more", c.Timeout, c.Capacity))
		case c.Timeout > 0 && round <= 0:
			cf.errs = append(cf.errs, fmt.Errorf("WithResequencer: a Timeout of %d rounds with a round of %v; want a round above 0", c.Timeout, round))
		case c.Timeout > 0 && int64(c.Timeout) > math.MaxInt64/int64(round):
			cf.errs = append(cf.errs, fmt.Errorf("WithResequencer: a Timeout of %d rounds of %v passes the longest time.Duration", c.Timeout, round))
		}
		cf.reseq = reseqOptions{ResequencerConfig: c}
		if c.Timeout > 0 && round > 0 && int64(c.Timeout) <= math.MaxInt64/int64(round) {
			cf.reseq.timeout, cf.reseq.round = time.Duration(c.Timeout)*round, round
		}
	}
}

// reseqKey is one key's resequencer: the last step released, the items
// held for steps ahead, by step, and the key's lane.
type reseqKey struct {
	state int
	// low is kept when the configuration can make old steps (see
	// resequencer.olds): the lowest step released without a gap since the
	// key's start or its last gap skipped; 0 before either. Under
	// StartFirstSeen it is set, with state, by the key's first item.
	low   int
	held  map[int]int32 // kept once empty, unless it grew past smallHeld (big): see emptied
	steps []int         // the steps held, a min-heap, with steps released since at its top (see lowest)
	big   bool
	name  string // the key, its lane's name
	hash  uint64 // the lane's hash in the laneTable
}

// smallHeld is the most items a key's map of held items holds, at its
// largest, for the map to be kept once empty: a key that fills its gaps
// again and again then allocates nothing, and a key that once held many
// lets their memory go.
const smallHeld = 8

// emptied lets k's map of held items go once it is empty, if it grew past
// smallHeld.
func (k *reseqKey) emptied() {
	if len(k.held) > 0 {
		return
	}
	k.steps = k.steps[:0]
	if k.big {
		k.held, k.steps, k.big = nil, nil, false
	}
}

// holdStep adds step, just held, to k's heap of held steps, in O(log n)
// time for the n in it.
func (k *reseqKey) holdStep(step int) {
	h := append(k.steps, step)
	for c := len(h) - 1; c > 0; {
		p := (c - 1) / 2
		if h[p] <= h[c] {
			break
		}
		h[p], h[c] = h[c], h[p]
		c = p
	}
	k.steps = h
}

// lowest returns the lowest step k holds, dropping from its heap the
// steps released since they were held, and false when k holds none. A
// step released is at or below the key's state, and every step held is
// above it, so the released ones are the heap's lowest: each is dropped
// once, in O(log n) time.
func (k *reseqKey) lowest() (int, bool) {
	for len(k.steps) > 0 {
		if _, ok := k.held[k.steps[0]]; ok {
			return k.steps[0], true
		}
		h := k.steps
		n := len(h) - 1
		h[0] = h[n]
		h = h[:n]
		for p := 0; ; {
			c := 2*p + 1
			if c >= n {
				break
			}
			if c+1 < n && h[c+1] < h[c] {
				c++
			}
			if h[p] <= h[c] {
				break
			}
			h[p], h[c] = h[c], h[p]
			p = c
		}
		k.steps = h
	}
	return 0, false
}

// resequencer is what the resequencer keeps beyond its keys: its
// configuration, under a Timeout or a Capacity the queue of held items in
// the order held, under a Timeout the timer, and the counts of what it did.
type resequencer struct {
	reseqOptions
	olds  bool      // a Start, Timeout or Capacity can make old steps
	queue []heldRef // held items in the order held; an entry released since is stale
	head  int       // queue's first entry not yet dropped
	last  int64     // the latest deadline given, which later ones never precede

	timer *time.Timer    // made on first use; its callback is onTimer
	armed bool           // a callback is due, counted in fires
	off   bool           // Close has stopped the timer: never set it again
	fires sync.WaitGroup // callbacks due or running

	gapsSkipped, forced, rejectedOld, backwardWrites int
}

// heldRef is an entry of the queue of held items: the item's key, step,
// place in gaps and submission number (which tell a stale entry), and the time,
// since the executor's epoch, when its timeout releases it.
type heldRef struct {
	k        *reseqKey
	step     int
	slot     int32
	seq      int64
	deadline int64
}

// setResequencer configures the resequencer by o, for New.
func (x *Executor[T]) setResequencer(o reseqOptions) {
	x.reseq = make(map[string]*reseqKey)
	x.rq.reseqOptions = o
	x.rq.olds = o.Start == konvoy.StartFirstSeen || o.Timeout > 0 || o.Capacity > 0
}

// reseqLane returns the lane an item runs in under the resequencer: its
// key's, for a step above 0 and a key.
func reseqLane(e konvoy.Event) (string, bool) {
	return e.Key, e.Step > 0 && e.Key != ""
}

// resequence takes j, of event e that has a lane under the resequencer,
// under subMu: after releasing the held items due by its submission, it
// releases it into its key's lane with the items held after it, holds it,
// discards it as a duplicate or a rejected old step, or releases it as an
// old step written backward.
func (x *Executor[T]) resequence(j *task[T], e konvoy.Event) {
	if x.rq.timeout > 0 {
		x.expire(j.submitted)
	}
	k := x.reseq[e.Key]
	if k == nil {
		k = &reseqKey{name: e.Key, hash: j.hash}
		x.reseq[e.Key] = k
	}
	if x.rq.Start == konvoy.StartFirstSeen && k.low == 0 {
		k.state, k.low = e.Step-1, e.Step
	}
	x.sequence(x.keep(j), k, e.Step)
}

// keep puts j in a free place of gaps, the resequencer's items, and
// returns it.
func (x *Executor[T]) keep(j *task[T]) int32 {
	if n := len(x.gapFree); n > 0 {
		i := x.gapFree[n-1]
		x.gapFree = x.gapFree[:n-1]
		x.gaps[i] = *j
		return i
	}
	x.gaps = append(x.gaps, *j)
	return int32(len(x.gaps) - 1)
}

// unkeep empties place i of gaps.
func (x *Executor[T]) unkeep(i int32) {
	x.gaps[i] = task[T]{}
	x.gapFree = append(x.gapFree, i)
}

// release dispatches the item at place i of gaps into its key's lane.
// Under lane-aware one that can start goes to the heap of ready items, by
// its submission number, not to the queue, whose items must come in
// submission order for takeReady to find the oldest at its head: it is
// older than the items submitted while it was held.
func (x *Executor[T]) release(i int32) {
	j := x.gaps[i]
	x.unkeep(i)
	if x.policy != konvoy.LaneAware {
		x.dispatch(&j)
	} else if x.joinLane(&j) { // a key's items all have its lane
		x.pushReady(&j)
	}
}

// sequence takes item i, of key k and a step above 0, as resequence says.
func (x *Executor[T]) sequence(i int32, k *reseqKey, step int) {
	switch {
	case step <= k.state:
		x.old(i, k, step)
	case step == k.state+1:
		x.advance(i, k, step)
	default:
		x.hold(i, k, step)
	}
}

// old takes item i, of key k, whose step is at or below the key's state: a
// duplicate when the key released it or holds it (the configuration can
// make no old steps, or the step is at or above low), else an old step,
// rejected under RejectOld and released, backward, otherwise.
func (x *Executor[T]) old(i int32, k *reseqKey, step int) {
	_, held := k.held[step]
	switch {
	case !x.rq.olds || step >= k.low || held:
		x.duplicates++
		x.discard(i)
	case x.rq.RejectOld:
		x.rq.rejectedOld++
		x.discard(i)
	default:
		x.rq.backwardWrites++
		x.release(i)
	}
}

// advance releases item i, of key k, whose step is above the key's state,
// skipping the steps between, and then the held items whose steps follow
// on.
func (x *Executor[T]) advance(i int32, k *reseqKey, step int) {
	if x.rq.olds && step > k.state+1 {
		x.rq.gapsSkipped = satAdd(x.rq.gapsSkipped, step-k.state-1)
		k.low = step
	}
	k.state = step
	x.release(i)
	for {
		j, ok := k.held[k.state+1]
		if !ok {
			break
		}
		delete(k.held, k.state+1)
		x.gapHeld--
		k.state++
		x.release(j)
	}
	k.lowest() // drops the steps just released, so that the heap holds no more than the map
	k.emptied()
}

// hold keeps item i, of key k, for the gap before its step, unless its
// step is held already (a duplicate). Under a Capacity that is full it
// first releases the item held first, and then takes item i again, since
// its key's state may have moved.
func (x *Executor[T]) hold(i int32, k *reseqKey, step int) {
	if _, dup := k.held[step]; dup {
		x.duplicates++
		x.discard(i)
		return
	}
	if c := x.rq.Capacity; c > 0 && x.gapHeld >= c {
		if r, ok := x.firstHeld(); ok {
			x.force(r)
		}
		x.sequence(i, k, step)
		return
	}
	if k.held == nil {
		k.held = make(map[int]int32)
	}
	k.held[step] = i
	k.holdStep(step)
	k.big = k.big || len(k.held) > smallHeld
	x.gapHeld++
	x.buffered++
	x.maxBuffered = max(x.maxBuffered, x.gapHeld)
	x.maxKeyBuffered = max(x.maxKeyBuffered, len(k.held))
	if x.rq.timeout > 0 || x.rq.Capacity > 0 {
		d := x.gaps[i].submitted // read only under a Timeout
		if x.rq.timeout > 0 {
			d = x.rq.deadline(d)
		}
		x.rq.last = max(x.rq.last, d) // submissions' clock reads precede the lock, so they may be out of order
		x.queueHeld(heldRef{k, step, i, x.gaps[i].seq, x.rq.last})
		// From the time now, not t: t was read before the submit lock (by
		// SubmitAll, before it placed the item's chunk), and a timer set
		// for deadline−t from now would fire late by as much.
		x.arm(x.now())
	}
}

// queueHeld adds r to the queue of held items, dropping the stale entries
// when they outnumber the held ones, and the entries firstHeld has passed
// when they are half the queue (a queue never empty, as a full Capacity
// keeps it, would otherwise keep them all), in O(1) amortised time.
func (x *Executor[T]) queueHeld(r heldRef) {
	q := &x.rq
	q.queue = append(q.queue, r)
	if !dueForCompaction(len(q.queue), q.head, x.gapHeld) {
		return
	}
	held := q.queue[:0]
	for _, e := range q.queue[q.head:] {
		if x.isHeld(e) {
			held = append(held, e)
		}
	}
	clear(q.queue[len(held):])
	q.queue, q.head = held, 0
}

// dueForCompaction tells whether a queue of held items of n entries, the
// first head of them passed, while held items are held, is to drop its
// stale and passed entries: when those after head outnumber twice the
// held ones and 64, or the passed ones are more than half. Either way the
// entries dropped pay for the compaction: O(1) amortised time an entry.
func dueForCompaction(n, head, held int) bool { return n-head > 2*held+64 || 2*head > n }

// isHeld tells whether queue entry r is still held.
func (x *Executor[T]) isHeld(r heldRef) bool {
	j, ok := r.k.held[r.step]
	return ok && j == r.slot && x.gaps[j].seq == r.seq
}

// firstHeld returns the entry of the item held first that is still held,
// dropping the stale entries before it, and false when none is held.
func (x *Executor[T]) firstHeld() (heldRef, bool) {
	q := &x.rq
	for q.head < len(q.queue) {
		if r := q.queue[q.head]; x.isHeld(r) {
			return r, true
		}
		q.queue[q.head] = heldRef{}
		q.head++
	}
	q.queue, q.head = q.queue[:0], 0
	return heldRef{}, false
}

// force gives up, for held item r, the gap before the lowest step its key
// holds, as the model does: it releases that step's item, r's or one below
// it, skipping the steps missing before it, or takes it as an old step
// when a gap skipped since has passed it. So a key's held items run in
// step order; r, if still held, is given up again until it runs. It takes
// O(log n) time for the n items the key holds.
func (x *Executor[T]) force(r heldRef) {
	k := r.k
	if step, ok := k.lowest(); ok && step < r.step { // ok: r is held
		r.step, r.slot = step, k.held[step]
	}
	delete(k.held, r.step)
	k.emptied()
	x.gapHeld--
	x.rq.forced++
	if r.step <= k.state {
		x.old(r.slot, k, r.step)
		return
	}
	x.advance(r.slot, k, r.step)
}

// expire releases the held items due before now, in the order held, as
// the model releases the events whose timeout comes before the event it
// meets: an item due at now itself waits for the items submitted at now.
// now math.MaxInt64, as Close gives, releases them all but those never
// due.
func (x *Executor[T]) expire(now int64) {
	for {
		r, ok := x.firstHeld()
		if !ok || r.deadline == neverDue || r.deadline > now || r.deadline == now && now < math.MaxInt64 {
			return
		}
		x.force(r)
	}
}

// neverDue is the deadline of an item held whose submission time, in
// rounds, plus the Timeout passes the largest int: a time that never
// comes, as the model never applies an event whose finish plus Timeout
// passes it; Close leaves it held (ErrNeverApplied). Deadlines never
// precede those before them, so the items held after it are never due
// either.
const neverDue = math.MaxInt64

// deadline returns when the Timeout releases an item submitted at time t:
// neverDue when t's rounds (whole rounds of the round given) plus Timeout
// pass the largest int; otherwise t plus the Timeout's wall time, or,
// past the largest time the clock reads, the time just below neverDue,
// which only Close reaches, as the model applies such an event at the end
// of its run.
func (q *resequencer) deadline(t int64) int64 {
	if t/int64(q.round) > int64(math.MaxInt)-int64(q.Timeout) {
		return neverDue
	}
	if t > neverDue-1-int64(q.timeout) {
		return neverDue - 1
	}
	return t + int64(q.timeout)
}

// dueInTime tells whether a Timeout will release an item held, under
// subMu: the first held is due some time.
func (x *Executor[T]) dueInTime() bool {
	if x.rq.timeout == 0 {
		return false
	}
	r, ok := x.firstHeld()
	return ok && r.deadline != neverDue
}

// releaseHeld releases, when Close is called under a Timeout, every item
// held, in the order held: nothing can fill their gaps any more, so their
// timeouts would release them in this order.
func (x *Executor[T]) releaseHeld() {
	if x.rq.timeout > 0 {
		x.expire(math.MaxInt64)
	}
}

// arm sets the timer, at time now, for the item held first, under a
// Timeout, unless it is set already or stopped.
func (x *Executor[T]) arm(now int64) {
	q := &x.rq
	if q.timeout == 0 || q.armed || q.off {
		return
	}
	r, ok := x.firstHeld()
	if !ok || r.deadline == neverDue {
		return
	}
	d := r.deadline - now // the timer fires just after the deadline: see expire
	if d < math.MaxInt64 {
		d++
	}
	d = max(d, 1)
	q.fires.Add(1)
	q.armed = true
	if q.timer == nil {
		q.timer = time.AfterFunc(time.Duration(d), x.onTimer)
	} else {
		q.timer.Reset(time.Duration(d))
	}
}

// onTimer is the timer's callback: it releases the held items due and sets
// the timer for the next.
func (x *Executor[T]) onTimer() {
	defer x.rq.fires.Done()
	x.subMu.Lock()
	defer x.unlockSub()
	x.rq.armed = false
	if x.rq.off {
		return
	}
	now := x.now()
	x.expire(now)
	x.arm(now)
	if x.waitingN.Load() > 0 && x.hasRoom() {
		x.passSpace() // a discard made room that no consumer's finish will tell
	}
}

// stopTimer stops the timer for good and waits for a callback that is
// running, for Close once the consumers have ended.
func (x *Executor[T]) stopTimer() {
	q := &x.rq
	x.subMu.Lock()
	q.off = true
	if q.armed && q.timer.Stop() {
		q.armed = false
		q.fires.Done()
	}
	x.unlockSub()
	q.fires.Wait()
}

// discard drops the item at place i of gaps, a duplicate or a rejected
// old step, as if it had finished at once: its offset, if any, is
// finished.
func (x *Executor[T]) discard(i int32) {
	if x.offsets != nil {
		x.finishOffset(&x.gaps[i])
	}
	x.unkeep(i)
	x.gone++
}

// satAdd returns a+b, for b ≥ 0, or math.MaxInt when it would pass it.
func satAdd(a, b int) int {
	if a > math.MaxInt-b {
		return math.MaxInt
	}
	return a + b
}
