package live

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"hash/maphash"
	"runtime/debug"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sirali-konvoy/konvoy"
)

// MaxConsumers is the most consumers an executor runs, each a goroutine.
const MaxConsumers = 1 << 16

// ErrStopped is wrapped by the errors of [Executor.Submit] and
// [Executor.Close] once an item's last attempt failed with no dead letter
// to take it: the executor starts no item after that.
var ErrStopped = errors.New("live: executor stopped by a failed item")

// Executor runs items on a fixed number of consumers, each a goroutine,
// keeping the order a [konvoy.Layout] asks for: two items of one lane never
// run at once, and they run in the order they were submitted. Items without
// a lane run in any order. Which item a free consumer takes next is its
// [konvoy.Policy] ([WithPolicy]). Its methods are safe for concurrent use;
// items submitted concurrently are ordered as Submit takes them.
//
// An executor must be closed with [Executor.Close], which stops its
// goroutines. Submit, SubmitAll and Close panic, with a "live:" prefix,
// when given a nil context. A handler must not call Close, which waits
// for it, nor Submit to its own executor without a context that ends:
// Submit waits for room that only finished handlers make.
type Executor[T any] struct {
	layout    konvoy.Layout
	policy    konvoy.Policy
	assignor  konvoy.Assignor
	consumers int
	maxHeld   int
	event     func(T) konvoy.Event
	handle    func(context.Context, T) error
	dead      func(context.Context, T, error) error
	guard     guard[T] // WithGuard: zero for none
	retry     Retry
	sleep     func(context.Context, time.Duration) error
	versions  VersionStore         // under the version stamp
	offsets   func(T) (int, int64) // WithOffsets
	seed      maphash.Seed         // of the lanes' hashes

	ctx    context.Context   // the handlers'; cancelled when Close gives up
	ctxs   []context.Context // by consumer: ctx, telling the consumer
	cancel context.CancelFunc
	epoch  time.Time
	wg     sync.WaitGroup
	wake   []chan struct{} // by consumer: a token that wakes it
	space  chan struct{}   // a token: maybe room for one more item
	closed chan struct{}   // closed by Close
	halted chan struct{}   // closed when a failed item stops the executor
	haltAt int64           // when it did: written before halted is closed
	drain  chan struct{}   // closed when, closing, nothing more can run
	quit   chan struct{}   // closed by Close to end the consumers
	once   sync.Once       // closes drain

	// pauses is the context of the retries' pauses: ctx's child, also
	// cancelled (endPauses) when a failure stops the executor.
	pauses    context.Context
	endPauses context.CancelFunc

	// Flags and counts read without a lock. halt is set once the executor
	// stopped (stopping) or Close gave up or drained (aborted): no
	// consumer starts an item after that. final is, from Close on, the
	// items submitted less those the resequencer discarded; -1 before.
	_                                pad
	closing, stopping, aborted, halt atomic.Bool
	final, gapHeldN                  atomic.Int64
	_                                pad
	running, peak                    atomic.Int64 // consumers running items, and the most at once
	_                                pad
	waitingN                         atomic.Int64 // Submit calls waiting for room
	_                                pad
	errorsN, retriesN                atomic.Int64
	_                                pad

	fresh   *queue[T]      // the items that can start, in submission order (see queue)
	shards  []shard[T]     // lanes, under lane-aware and head-of-line (see lanes.go)
	slots   slotTable      // lane-aware: lanes of one item held (see lanes.go)
	finLog  *finishLog     // lane-aware: items finished that took slots (see finished.go)
	tallies []tally        // by consumer (see stats.go)
	inboxes []inbox[T]     // by consumer, under static (see static.go)
	owners  []atomic.Int32 // static: the consumers of partitions fixedOwner found, plus 1

	// Under lane-aware: the next items of lanes freed since they were
	// submitted, a heap by submission number (see takeReady).
	readyMu   sync.Mutex
	ready     []readyRef // the heap
	readyAt   []task[T]  // the items, by place
	readyFree []int32    // places of readyAt not in use
	_         pad
	readyN    atomic.Int64
	_         pad
	laneWaitN atomic.Int64 // lanes with items waiting behind another: see finished.go
	_         pad

	// Parked consumers (see park).
	parkMu  sync.Mutex
	idle    []int32 // the parked consumers, the last parked mostly last
	idlePos []int32 // by consumer: its place in idle, -1 for none
	parked  []atomic.Bool
	_       pad
	idleN   atomic.Int32
	waking  atomic.Int32 // consumers woken and not yet taking an item
	_       pad

	// The submitting side, under subMu (the submit lock): submission
	// numbers, room, the static policy's lanes first seen, the resequencer,
	// and under lane-aware the slots (see lanes.go). Let go of it with
	// unlockSub (see finished.go).
	subMu     sync.Mutex
	seq       int64 // the next item's submission number: 64 bits, which no run passes, where a 32-bit int wraps in days
	joined    int   // lane-aware: items joined to their lanes (see joinLane)
	slotsHeld int   // lane-aware: the slots held by one item, counted here, not in x.slots, which consumers read
	gone      int64 // items finished as they were submitted: discarded by the resequencer
	finSeen   int64 // the items finished, as last counted (see hasRoom)
	seen      map[string]int
	reseq     map[string]*reseqKey // under the resequencer, by key
	gaps      []task[T]            // items the resequencer holds for gaps
	gapFree   []int32              // places of gaps not in use
	gapHeld   int
	rq        resequencer // the rest of the resequencer's state: see resequencer.go

	duplicates, buffered, maxBuffered, maxKeyBuffered int
	_                                                 pad

	// WithOffsets: the source partitions, under subMu, each with its lock
	// (see offsets.go).
	parts     []*source
	partIndex map[int]*source
	lastPart  *source      // see partOf
	pendingN  atomic.Int64 // items finished above their partition's committable offset
	_         pad

	// Latencies settled from the tallies, under statMu.
	statMu         sync.Mutex
	wait, response konvoy.LatencyCounter

	// Failures and what did not run, under mu.
	mu        sync.Mutex
	fatal     []error
	failed    int
	cut       []unrun[T] // items whose handler failed after Close gave up
	unstarted []unrun[T] // items taken and never started: the executor stopped
}

// pad keeps what different goroutines write on different cache lines.
type pad [64]byte

// task is an item held, from its submission to its finish, with what the
// executor keeps of it.
type task[T any] struct {
	item      T
	seq       int64 // its submission number
	submitted int64 // nanoseconds since the executor's epoch
	lane      string
	hash      uint64 // of lane, when hasLane
	hasLane   bool
	li        int32     // its lane's index in its shard's table, once it joined it
	own       int32     // static: the lane's consumer when fixedOwner knows it, or -1
	queued    int32     // head-of-line: its entry in its lane's shard
	entry     int32     // WithOffsets: its place in chunk
	chunk     *offChunk // and the chunk of its source partition holding it
}

// unrun is an item that did not run, with its submission number.
type unrun[T any] struct {
	seq       int64
	item      T
	submitted int64
}

// unrunOf returns j as an item that did not run.
func unrunOf[T any](j *task[T]) unrun[T] { return unrun[T]{j.seq, j.item, j.submitted} }

// New returns an executor that runs handle on items under layout on
// consumers consumers, each item in the lane that layout gives
// event(item) ([konvoy.Layout.Lane]); event must give the same Event for
// an item every time it is asked, and, like a layout's LaneFunc, be safe
// to call from several goroutines at once: Submit, the consumers and
// [Executor.Lanes] call it. The default policy is
// [konvoy.LaneAware], at most [DefaultMaxHeld] items are held, and a failed
// item stops the executor (see [WithRetry] and [WithDeadLetter]).
//
// New returns an error when consumers is not 1 to [MaxConsumers], event or
// handle is nil, an option is nil or has a bad value, a dead letter's item
// type is not T. It returns once every consumer's goroutine has started,
// in time in proportion to the consumers (about a millisecond for a
// thousand), so that the first items do not wait behind their starts.
func New[T any](layout konvoy.Layout, consumers int, event func(T) konvoy.Event,
	handle func(ctx context.Context, item T) error, opts ...Option) (*Executor[T], error) {
	c := config{policy: konvoy.LaneAware, maxHeld: DefaultMaxHeld, sleep: sleep}
	for i, o := range opts {
		if o == nil {
			return nil, fmt.Errorf("live: New: option %d is nil", i)
		}
		o(&c)
	}
	if err := check(layout, consumers, event == nil, handle == nil, c.errs); err != nil {
		return nil, err
	}
	x := &Executor[T]{
		layout: layout, policy: c.policy, assignor: c.assignor, consumers: consumers, maxHeld: c.maxHeld,
		event: event, handle: handle, retry: c.retry, sleep: c.sleep, seed: maphash.MakeSeed(),
		epoch: time.Now(), wake: make([]chan struct{}, consumers), space: make(chan struct{}, 1),
		closed: make(chan struct{}), halted: make(chan struct{}), drain: make(chan struct{}), quit: make(chan struct{}),
	}
	if err := x.setFuncs(c); err != nil {
		return nil, err
	}
	if layout.Equal(konvoy.Resequencer) {
		x.setResequencer(c.reseq)
	}
	if layout.Equal(konvoy.VersionStamp) {
		x.versions = cmp.Or[VersionStore](c.versions, &MemoryVersions{})
	}
	x.final.Store(-1)
	x.ctx, x.cancel = context.WithCancel(context.Background())
	x.pauses, x.endPauses = context.WithCancel(x.ctx)
	x.fresh = newQueue[T](x.maxHeld)
	x.tallies = make([]tally, consumers)
	for w := range x.tallies {
		x.tallies[w].cur.Store(-1)
		x.tallies[w].since = -1
	}
	x.parked = make([]atomic.Bool, consumers)
	x.idlePos = make([]int32, consumers)
	for w := range x.idlePos {
		x.idlePos[w] = -1
	}
	if x.policy == konvoy.Static {
		x.inboxes = make([]inbox[T], consumers)
		if x.assignor != konvoy.FirstSeenAssignor {
			x.owners = make([]atomic.Int32, min(layout.Partitions(), ownersKept))
		}
		x.seen = make(map[string]int)
	} else {
		x.shards = make([]shard[T], shards)
	}
	if x.policy == konvoy.LaneAware {
		x.slots = newSlots(x.maxHeld)
		x.finLog = newFinishLog(max(x.maxHeld, consumers))
	}
	x.ctxs = make([]context.Context, consumers)
	x.wg.Add(consumers)
	var started sync.WaitGroup
	started.Add(consumers)
	for w := range consumers {
		x.ctxs[w] = context.WithValue(x.ctx, consumerKey{}, w)
		x.wake[w] = make(chan struct{}, 1)
		go func() {
			started.Done()
			x.work(int32(w))
		}()
	}
	// A run timed from New's return counted thousands of goroutines'
	// starts in its first items' service (found by a review of replay).
	started.Wait()
	return x, nil
}

// setFuncs sets the dead letter's and WithOffsets's functions, which must
// take a T, for New.
func (x *Executor[T]) setFuncs(c config) error {
	var zero T
	if c.deadLetter != nil {
		f, ok := c.deadLetter.(func(context.Context, T, error) error)
		if !ok {
			return fmt.Errorf("live: New: WithDeadLetter's function is a %T; want one that takes a %T", c.deadLetter, zero)
		}
		x.dead = f
	}
	if c.guard != nil {
		g, ok := c.guard.(guard[T])
		if !ok {
			return fmt.Errorf("live: New: WithGuard's functions take a %s; want ones that take a %T", c.guard.itemType(), zero)
		}
		x.guard = g
	}
	if c.offsets != nil {
		f, ok := c.offsets.(func(T) (int, int64))
		if !ok {
			return fmt.Errorf("live: New: WithOffsets's function is a %T; want one that takes a %T", c.offsets, zero)
		}
		x.offsets, x.partIndex = f, make(map[int]*source)
	}
	return nil
}

// check returns New's error for its arguments, nil when they are good.
func check(layout konvoy.Layout, consumers int, noEvent, noHandle bool, errs []error) error {
	switch {
	case consumers < 1 || consumers > MaxConsumers:
		return fmt.Errorf("live: New: %d consumers; want 1 to %d", consumers, MaxConsumers)
	case noEvent || noHandle:
		return errors.New("live: New: the event and handle functions must not be nil")
	case len(errs) > 0:
		return fmt.Errorf("live: New: %w", errors.Join(errs...))
	}
	return nil
}

// Submit hands item to the executor, waiting while it holds as many items
// as it may ([WithMaxHeld]) until one finishes or ctx ends. It returns
// ctx's error when ctx ends first, [ErrClosed] after Close, an error
// wrapping [ErrStopped] once a failure stopped the executor, one wrapping
// [ErrGapsFull] when it is full of items the resequencer holds for gaps,
// which nothing else can release, and an error wrapping a
// [*konvoy.EventError] when the item's event has a Step below 0,
// as the model refuses it, or the layout cannot place it (see
// [konvoy.Layout.Lane]), whose Index is the submission number
// the item would have had, or an error when [WithOffsets] gives an offset
// below 0, math.MaxInt64 (whose next would not fit), or not above its
// partition's last. A panic of the event function or WithOffsets's
// reaches the caller, the executor unchanged by the item.
// It takes O(1) time (O(log n) for n items held when the resequencer
// releases held items, or when it frees lanes whose next items wait),
// shares with the consumers no lock but its item's lane's shard's (see
// lanes.go; none for a lane-aware lane of one item), the submit lock
// while an item waits in a lane or the log of finished items is full (see
// finished.go), under static its
// consumer's inbox's, with WithOffsets its partition's once every 64
// items (see source), and every partition's when every item held but
// those finished waits for a gap (see gapsFull), and, when a consumer is
// parked, the lock of parked consumers; it allocates nothing once the
// executor has held as many items and lanes.
func (x *Executor[T]) Submit(ctx context.Context, item T) error {
	if ctx == nil {
		panic("live: Submit: ctx is nil; want a context, such as context.Background()")
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	j := task[T]{item: item, own: -1, queued: -1}
	var pl placement
	x.place(&j, &pl)
	t := x.now() // before the lock: its holders wait no clock read
	x.subMu.Lock()
	if err := x.admit(ctx, &j, &pl, &t); err != nil {
		return err
	}
	x.unlockSub()
	return nil
}

// SubmitAll hands items to the executor in their order, as that many
// calls of Submit would, for a source that reads items in batches, such
// as a Kafka poll: it takes Submit's lock once for up to submitChunk
// (64) items, and reads the clock once, so that every item's submission
// time is the call's (or, after a wait for room, the time the wait
// ended). It returns how many items it took, the first of items onwards,
// and the error of the first item it did not take, Submit's for it; a
// [*konvoy.EventError]'s Index is that item's submission number. It calls
// the event function, and WithOffsets's, for each 64 items before it
// takes the lock for them: neither another Submit nor a consumer waits
// for them. A panic of either reaches the caller, as it does Submit's,
// with the items before the one that panicked taken, up to the first that
// Submit would refuse (the panic then replaces that item's error), and
// the executor as usable as before. It takes O(1) time an item, as Submit
// does, and allocates nothing once the executor has held as many items
// and lanes.
func (x *Executor[T]) SubmitAll(ctx context.Context, items []T) (int, error) {
	if ctx == nil {
		panic("live: SubmitAll: ctx is nil; want a context, such as context.Background()")
	}
	if len(items) == 0 {
		return 0, nil // no call of Submit: no error, whatever ctx
	}
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	t := x.now()
	var chunk [submitChunk]placed[T]
	for done := 0; done < len(items); {
		n, err := x.placeAndAdmit(ctx, items[done:min(done+submitChunk, len(items))], &chunk, &t)
		if done += n; err != nil {
			return done, err
		}
	}
	return len(items), nil
}

// submitChunk is how many items SubmitAll places, calling the event
// function for each, before it takes the submit lock for them.
const submitChunk = 64

// placed is an item that SubmitAll placed and has yet to admit.
type placed[T any] struct {
	j  task[T]
	pl placement
}

// placeAndAdmit places items, at most submitChunk, into chunk, outside the
// submit lock, then admits them under it, as SubmitAll does, and returns
// how many it took and the error of the first it did not. When the event
// or offsets function panics, it admits the items placed before, and the
// panic goes on.
func (x *Executor[T]) placeAndAdmit(ctx context.Context, items []T, chunk *[submitChunk]placed[T], t *int64) (int, error) {
	n := 0 // items placed
	defer func() {
		if n < len(items) { // a panic: the items before it are taken
			_, _ = x.admitChunk(ctx, chunk[:n], t)
		}
		clear(chunk[:n]) // the items are the executor's now
	}()
	for ; n < len(items); n++ {
		c := &chunk[n]
		c.j, c.pl = task[T]{item: items[n], own: -1, queued: -1}, placement{}
		x.place(&c.j, &c.pl)
	}
	return x.admitChunk(ctx, chunk[:n], t)
}

// admitChunk admits the placed items of chunk in order under the submit
// lock, as SubmitAll does, and returns how many it took and the error of
// the first it did not.
func (x *Executor[T]) admitChunk(ctx context.Context, chunk []placed[T], t *int64) (int, error) {
	if len(chunk) == 0 {
		return 0, nil
	}
	x.subMu.Lock()
	for i := range chunk {
		if err := x.admit(ctx, &chunk[i].j, &chunk[i].pl, t); err != nil {
			return i, err // admit let go of the lock
		}
	}
	x.unlockSub()
	return len(chunk), nil
}

// placement is what place finds of an item besides its lane: its event,
// its source partition and offset under WithOffsets, and the layout's
// error for its event.
type placement struct {
	e      konvoy.Event
	part   int
	offset int64
	err    error
}

// admit takes j, placed as pl, under subMu, when the executor may hold it,
// waiting for room (see awaitRoom): it gives it its submission number and
// time, *t (the time now if it waited, which it then sets *t to), and
// puts it where its policy looks for it. It returns Submit's error,
// unlocked, when it does not take j.
func (x *Executor[T]) admit(ctx context.Context, j *task[T], pl *placement, t *int64) error {
	err := x.placeError(pl)
	if err != nil && x.refusal() == nil {
		x.unlockSub()
		return err
	}
	var waited bool
	if *t, waited, err = x.awaitRoom(ctx, *t); err != nil {
		return err
	}
	if x.offsets != nil && waited {
		// Again: while it waited for room, another Submit may have taken
		// a later offset of the partition.
		if err := x.placeOffset(pl.part, pl.offset); err != nil {
			if x.waitingN.Load() > 0 && x.hasRoom() {
				x.passSpace() // the room it waited for is another's
			}
			x.unlockSub()
			return err
		}
	}
	j.seq, j.submitted = x.seq, *t
	x.seq++
	if x.offsets != nil {
		x.addOffset(j, pl.part, pl.offset)
	}
	if x.reseq != nil && j.hasLane {
		x.resequence(j, pl.e)
	} else {
		x.dispatch(j)
	}
	if x.waitingN.Load() > 0 && (x.hasRoom() || x.gapsFull()) {
		x.passSpace() // room, or none ever (gapsFull): a waiting Submit is to know
	}
	return nil
}

// placeError returns, under subMu, Submit's error for an item placed as
// pl, nil when the layout and WithOffsets take it: an EventError's Index
// is the submission number the item would have.
func (x *Executor[T]) placeError(pl *placement) error {
	err := pl.err
	if err == nil && x.offsets != nil {
		err = x.placeOffset(pl.part, pl.offset)
	}
	if err == nil {
		return nil
	}
	var ee *konvoy.EventError // on the heap, as errors.As takes its address: not for every item
	if errors.As(err, &ee) {
		ee.Index = int(x.seq)
		err = fmt.Errorf("live: Submit: %w", err)
	}
	return err
}

// place sets j's lane and, under static, its consumer when fixedOwner
// knows it, and pl to the rest of what Submit needs of it. It needs no
// lock. (Its results are written in place: the placement, with its event,
// is large enough for copies to show in a no-op handler's cost.)
func (x *Executor[T]) place(j *task[T], pl *placement) {
	pl.e = x.event(j.item)
	if pl.e.Step < 0 {
		pl.err = &konvoy.EventError{Key: pl.e.Key, Field: "Step", Value: pl.e.Step, Want: "0 (history only) or more"}
		return
	}
	if x.reseq != nil {
		j.lane, j.hasLane = reseqLane(pl.e)
	} else {
		j.lane, j.hasLane, pl.err = x.layout.Lane(pl.e)
	}
	if x.offsets != nil {
		pl.part, pl.offset = x.offsets(j.item)
	}
	if pl.err == nil && j.hasLane {
		if x.policy == konvoy.Static && x.reseq == nil {
			j.own = int32(x.fixedOwner(j.lane))
		} else {
			j.hash = x.laneHash(j.lane)
		}
	}
}

// awaitRoom waits, under subMu, until the executor may hold one more
// item, and returns nil, still locked, the item's submission time (t, read
// when Submit was called, or the time now if it waited), and whether it
// waited, letting subMu go meanwhile. It returns Submit's error, unlocked,
// when ctx ends first or the executor takes no more.
func (x *Executor[T]) awaitRoom(ctx context.Context, t int64) (int64, bool, error) {
	for waited := false; ; waited = true {
		if err := x.refusal(); err != nil {
			x.unlockSub()
			return t, waited, err
		}
		if x.hasRoom() {
			if waited {
				t = x.now() // after a wait: rare
			}
			return t, waited, nil
		}
		x.waitingN.Add(1)
		if x.hasRoom() { // a consumer finished before it could see the count
			x.waitingN.Add(-1)
			return t, waited, nil
		}
		if x.gapsFull() {
			// Nothing runs or waits to: no finish, and no timeout, can make
			// room. Another Submit waiting is told so too, in turn: no
			// finish will wake it.
			if x.waitingN.Add(-1) > 0 {
				x.passSpace()
			}
			err := x.gapsFullError()
			x.unlockSub()
			return t, waited, err
		}
		x.unlockSub()
		var err error
		select {
		case <-ctx.Done():
			err = ctx.Err()
		case <-x.closed:
		case <-x.halted:
		case <-x.space:
		}
		x.subMu.Lock()
		x.waitingN.Add(-1)
		if err != nil {
			x.unlockSub()
			return t, true, err
		}
	}
}

// hasRoom tells, under subMu, whether the executor may hold one more item:
// the items held and, with WithOffsets, finished above their partitions'
// committable offsets are fewer than WithMaxHeld. It counts the items
// finished, reading each consumer's count, only when the last count
// leaves no room.
func (x *Executor[T]) hasRoom() bool {
	if x.seq-x.gone-x.finSeen+x.pendingN.Load() < int64(x.maxHeld) {
		return true
	}
	x.finSeen = x.finished()
	return x.seq-x.gone-x.finSeen+x.pendingN.Load() < int64(x.maxHeld)
}

// gapsFull tells, under subMu, once hasRoom has said no, whether every
// item the executor holds waits for a gap with no timeout that comes to
// release it (see neverDue):
// nothing runs or waits to, so no finish can make room (ErrGapsFull).
// Items finished above their partitions' committable offsets may still
// make room, when a partition's head has finished and the source's lock
// was held by another as it did: it moves each head on first (waiting for
// the lock's holders, who hold it for moments; see source), which tells a
// waiting Submit of the room it makes.
func (x *Executor[T]) gapsFull() bool {
	if !(x.gapHeld > 0 && !x.dueInTime() && x.seq-x.gone-x.finSeen == int64(x.gapHeld)) {
		return false
	}
	if x.pendingN.Load() > 0 {
		for _, s := range x.parts {
			x.lockSource(s)
			x.unlockSource(s, true)
		}
		return !x.hasRoom()
	}
	return true
}

// gapsFullError returns, under subMu, Submit's error when gapsFull: the
// items held for gaps and, with WithOffsets, those finished above their
// partitions' committable offsets, which add up to WithMaxHeld.
func (x *Executor[T]) gapsFullError() error {
	held := fmt.Sprintf("%d held for gaps", x.gapHeld)
	if x.gapHeld == 1 {
		held = "1 held for a gap"
	}
	switch n := x.pendingN.Load(); n {
	case 0:
	case 1:
		held += " and 1 finished above its partition's committable offset"
	default:
		held += fmt.Sprintf(" and %d finished above their partitions' committable offsets", n)
	}
	return fmt.Errorf("%w: %s, of at most %d", ErrGapsFull, held, x.maxHeld)
}

// refusal returns Submit's error when the executor takes no more items.
func (x *Executor[T]) refusal() error {
	switch {
	case x.closing.Load():
		return ErrClosed
	case x.stopping.Load():
		x.mu.Lock()
		defer x.mu.Unlock()
		return fmt.Errorf("%w: %w", ErrStopped, x.fatal[0])
	}
	return nil
}

// passSpace tells one waiting Submit that there may be room.
func (x *Executor[T]) passSpace() {
	select {
	case x.space <- struct{}{}:
	default:
	}
}

// now returns the nanoseconds since the executor was made, on the
// monotonic clock.
func (x *Executor[T]) now() int64 { return int64(time.Since(x.epoch)) }

// dispatch puts j, under subMu, where its policy looks for it: an item
// without a lane, and under lane-aware the first of its lane, in the
// queue of items that can start; under head-of-line every item in the
// queue, and in its lane; under lane-aware an item whose lane has items
// held, in its lane; under static, in its lane's consumer's inbox.
func (x *Executor[T]) dispatch(j *task[T]) {
	switch {
	case !j.hasLane:
	case x.policy == konvoy.Static:
		o := int(j.own)
		if o < 0 {
			o = x.owner(j.lane)
		}
		x.deliver(o, j)
		return
	case !x.joinLane(j) && x.policy == konvoy.LaneAware:
		return
	}
	x.fresh.push(j)
	x.wakeAny()
}

// fail counts j's failure r.err: an item cut short when Close gave up
// (r.cut), or a failure that stops the executor.
func (x *Executor[T]) fail(j *task[T], r outcome) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if r.cut {
		x.cut = append(x.cut, unrunOf(j))
		return
	}
	x.failed++
	x.fatal = append(x.fatal, r.err)
	if !x.stopping.Load() {
		// Under statMu (x.mu, then statMu: no path takes them the other
		// way), so that no Stats reads its time between haltAt and the
		// close: one that did would count a block going on past haltAt,
		// where the next cuts it there (see endBlock).
		x.statMu.Lock()
		x.haltAt = x.now()
		x.stopping.Store(true)
		x.halt.Store(true)
		close(x.halted)
		x.statMu.Unlock()
		x.endPauses() // an item waiting for its next attempt gets none
	}
}

// checkDrained closes drain once Close was called and nothing more can
// run: every item finished but those the resequencer holds for gaps, or
// the executor stopped and no consumer holds an item it took (allIdle).
func (x *Executor[T]) checkDrained() {
	f := x.final.Load()
	if f < 0 {
		return
	}
	if x.stopping.Load() {
		if x.allIdle() {
			x.once.Do(func() { close(x.drain) })
		}
		return
	}
	if f-x.finished() == x.gapHeldN.Load() {
		x.once.Do(func() { close(x.drain) })
	}
}

// outcome is how an item's run ended: handled (err nil), skipped as stale
// by the version stamp, given to the dead letter (dead), or failed (err):
// cut short (cut) when Close had given up before its last attempt or its
// dead letter returned, or kept it from a retry or the dead letter.
type outcome struct {
	err                error
	dead, skipped, cut bool
}

// run tries item on consumer w, with submission number seq, as often as
// the retry allows, and gives it to the dead letter when the last attempt
// fails.
func (x *Executor[T]) run(w int32, item T, seq int64) outcome {
	ctx := x.ctxs[w]
	attempts := max(1, x.retry.Attempts)
	k := 1
	var err error
	var cut bool
	x.tallies[w].attempt = 0
	for ; ; k++ {
		if x.guard.enter != nil {
			if !x.guard.enter(ctx, item) {
				return outcome{} // dropped by its runtime: done
			}
			x.tallies[w].guarded = true
		}
		if k > 1 {
			x.retriesN.Add(1) // an attempt after the first, made
		}
		x.tallies[w].attempt, x.tallies[w].trying = k, true
		var stale bool
		stale, err = x.attempt(ctx, item)
		x.tallies[w].trying = false
		cut = x.ctx.Err() != nil // as the attempt returned: not after the guard's exit
		if err != nil {
			x.errorsN.Add(1) // before the guard's exit, which may leave the goroutine
		}
		if x.guard.exit != nil {
			x.tallies[w].guarded = false
			x.guard.exit(ctx, item, err)
		}
		if stale {
			return outcome{skipped: true}
		} else if err == nil {
			return outcome{}
		}
		if k >= attempts || cut {
			break
		}
		if !x.pause(seq, k) {
			cut = true // Close gave up, or a failure stopped the executor: no retry
			break
		}
	}
	return x.lastFailed(w, item, x.itemError(item, seq, k, err), cut)
}

// lastFailed returns the outcome of item on consumer w, whose last attempt
// failed with ie, cut short when cut: its dead letter's, or, without one,
// a failure, unless the guard drops it (see stillOwned).
func (x *Executor[T]) lastFailed(w int32, item T, ie *ItemError, cut bool) outcome {
	switch {
	case x.dead == nil && !cut && x.ctx.Err() == nil && !x.stillOwned(w, item, ie):
		return outcome{} // dropped by its runtime: done, and the executor goes on
	case x.dead == nil:
		return outcome{err: ie, cut: cut}
	case cut || x.ctx.Err() != nil:
		return outcome{err: ie, cut: true} // Close gave up: no dead letter
	}
	return x.deadLetter(w, item, ie)
}

// stillOwned asks the guard, if any, on consumer w, whether item, whose
// last attempt failed with ie and which has no dead letter or whose dead
// letter failed (ie then wraps the dead letter's error too), is still its
// runtime's, before its failure stops the executor: enter, then at once
// exit with ie when enter let it. Without a guard it is.
func (x *Executor[T]) stillOwned(w int32, item T, ie *ItemError) bool {
	if x.guard.enter == nil {
		return true
	}
	ctx := x.ctxs[w]
	if !x.guard.enter(ctx, item) {
		return false
	}
	x.guard.exit(ctx, item, ie)
	return true
}

// pause pauses before attempt k+1 of the item with submission number seq,
// and tells whether it may be made: false when Close gave up or a failure
// stopped the executor, before the pause or during it. The pauses' context
// is looked at before and after the pause too: a pause of 0, or one
// ending as the stop comes, would otherwise end as often by its timer as
// by the stop.
func (x *Executor[T]) pause(seq int64, k int) bool {
	return x.pauses.Err() == nil && x.sleep(x.pauses, x.retry.pause(uint64(seq), k)) == nil && x.pauses.Err() == nil
}

// deadLetter gives item, whose last attempt failed with ie, to the dead
// letter on consumer w, within the guard, and returns the outcome. When
// the dead letter fails, the guard is asked once more, as lastFailed
// asks it, whether the item is still its runtime's.
func (x *Executor[T]) deadLetter(w int32, item T, ie *ItemError) outcome {
	ctx := x.ctxs[w]
	if x.guard.enter != nil {
		if !x.guard.enter(ctx, item) {
			return outcome{}
		}
		x.tallies[w].guarded = true
	}
	derr := x.callDead(ctx, item, ie)
	cut := x.ctx.Err() != nil
	if x.guard.exit != nil {
		x.tallies[w].guarded = false
		x.guard.exit(ctx, item, derr)
	}
	if derr != nil {
		ie.Err = fmt.Errorf("dead letter: %w; after %w", derr, ie.Err)
		if !cut && !x.stillOwned(w, item, ie) {
			return outcome{} // dropped by its runtime: done, and the executor goes on
		}
		return outcome{err: ie, cut: cut}
	}
	return outcome{dead: true}
}

// attempt tries item once: under the version stamp it asks a
// VersionReader first, and reports an item stale already without running
// it; then it runs the handler, and once it returned nil, under the
// version stamp, advances the item's key, reporting a stale item when the
// store refuses. A panic of any of them is a *PanicError.
func (x *Executor[T]) attempt(ctx context.Context, item T) (stale bool, err error) {
	defer func() {
		if v := recover(); v != nil {
			err = &PanicError{Value: v, Stack: debug.Stack()}
		}
	}()
	var e konvoy.Event
	if x.versions != nil {
		e = x.event(item)
	}
	if e.Step <= 0 || e.Key == "" { // no version stamp, or an item it never checks
		return false, x.handle(ctx, item)
	}
	if r, ok := x.versions.(VersionReader); ok {
		v, err := r.Version(ctx, e.Key)
		if err != nil {
			return false, fmt.Errorf("version store: %w", err)
		}
		if e.Step < v {
			return true, nil
		}
	}
	if err := x.handle(ctx, item); err != nil {
		return false, err
	}
	advanced, err := x.versions.Advance(ctx, e.Key, e.Step)
	if err != nil {
		return false, fmt.Errorf("version store: %w", err)
	}
	return !advanced, nil
}

// itemError returns the error of item, submission seq, failed after
// attempts attempts with err.
func (x *Executor[T]) itemError(item T, seq int64, attempts int, err error) *ItemError {
	name, _ := x.laneOfItem(item)
	return &ItemError{Seq: int(seq), Event: x.event(item), Lane: name, Attempts: attempts, Err: err}
}

// callDead runs the dead letter on item and err, turning a panic into a
// *PanicError.
func (x *Executor[T]) callDead(ctx context.Context, item T, err error) (derr error) {
	defer func() {
		if v := recover(); v != nil {
			derr = &PanicError{Value: v, Stack: debug.Stack()}
		}
	}()
	return x.dead(ctx, item, err)
}

// Close takes no more items and waits until the executor has run every
// item it holds, then ends its consumers and returns. When ctx ends first,
// Close starts no more items, cancels the context of the handlers that
// are running, and waits for them to return. No goroutine of the executor
// outlives Close, which therefore waits for handlers that ignore their
// context.
//
// Close returns nil when every item was handled or dead-lettered. Otherwise
// it returns the failures that stopped the executor ([*ItemError]s,
// wrapped with [ErrStopped]) and an [*UnrunError] with the items that never
// ran to the end (those not started, those whose handler failed after
// ctx ended, and those a failure that stopped the executor kept from
// their next attempt), joined by errors.Join; when Close did not give up
// waiting, the failures being why the items did not run, the
// UnrunError's Err is the failures, and Close returns it alone. A second
// Close returns [ErrClosed].
func (x *Executor[T]) Close(ctx context.Context) error {
	if ctx == nil {
		panic("live: Close: ctx is nil; want a context, such as context.Background()")
	}
	x.subMu.Lock()
	if x.closing.Load() {
		x.unlockSub()
		return ErrClosed
	}
	x.releaseHeld()
	x.gapHeldN.Store(int64(x.gapHeld))
	x.final.Store(x.seq - x.gone)
	x.closing.Store(true)
	close(x.closed)
	x.unlockSub()
	x.checkDrained()
	var cause error
	select {
	case <-x.drain:
	case <-ctx.Done():
		select {
		case <-x.drain: // drained too: the drain decides, not select's pick
		default:
			cause = ctx.Err()
		}
	}
	x.mu.Lock()
	x.aborted.Store(true)
	x.halt.Store(true)
	if cause != nil {
		x.cancel()
	}
	x.mu.Unlock()
	close(x.quit)
	x.wg.Wait()
	x.lockSub() // the lanes forget the items that finished last
	x.unlockSub()
	x.stopTimer()
	x.cancel()
	return x.closeError(cause)
}

// closeError returns Close's error, after the consumers ended, when it
// gave up for cause (nil when it did not).
func (x *Executor[T]) closeError(cause error) error {
	var errs []error
	x.mu.Lock()
	var stopped error // the failures that stopped the executor, if any
	if len(x.fatal) > 0 {
		stopped = fmt.Errorf("%w: %w", ErrStopped, errors.Join(x.fatal...))
		if cause == nil {
			cause = stopped // the UnrunError carries it: said once
		} else {
			errs = append(errs, stopped)
		}
	}
	left := append(slices.Clone(x.cut), x.unstarted...)
	x.mu.Unlock()
	if x.gapHeld > 0 && cause == nil {
		cause = ErrNeverApplied
	}
	for _, j := range x.heldJobs() {
		left = append(left, unrunOf(&j))
	}
	if len(left) > 0 {
		slices.SortFunc(left, func(a, b unrun[T]) int { return cmp.Compare(a.seq, b.seq) })
		items := make([]T, len(left))
		for i, u := range left {
			items[i] = u.item
		}
		errs = append(errs, &UnrunError[T]{Items: items, Err: cause})
	} else if stopped != nil && cause == stopped {
		errs = append(errs, stopped) // the failures, with no item left unrun
	}
	if len(errs) == 1 {
		return errs[0]
	}
	return errors.Join(errs...)
}

// heldJobs returns the items held and not started, once the consumers have
// ended: in the queue, the heap of ready items, the lanes (under
// head-of-line the lanes' items are in the queue, or were noted as
// unstarted by their consumers), the inboxes, and held for gaps.
func (x *Executor[T]) heldJobs() []task[T] {
	out := x.fresh.drain(nil)
	for _, r := range x.ready {
		out = append(out, x.readyAt[r.i])
	}
	if x.policy == konvoy.LaneAware {
		for i := range x.shards {
			s := &x.shards[i]
			for _, l := range s.table.lanes {
				for q := l.head; l.n > 0 && q >= 0; q = s.queued[q].next {
					out = append(out, s.queued[q].task)
				}
			}
		}
	}
	for w := range x.inboxes {
		c := &x.inboxes[w]
		for _, held := range [][]owned[T]{c.batch[c.next.Load():], c.q} {
			for i := range held {
				out = append(out, held[i].task(int32(w)))
			}
		}
	}
	for _, r := range x.reseq {
		for _, i := range r.held {
			out = append(out, x.gaps[i])
		}
	}
	return out
}

// String returns "live.Executor(LAYOUT, POLICY, N consumers)", or "1
// consumer" for one.
func (x *Executor[T]) String() string {
	consumers := strconv.Itoa(x.consumers) + " consumers"
	if x.consumers == 1 {
		consumers = "1 consumer"
	}
	return "live.Executor(" + x.layout.String() + ", " + x.policy.String() + ", " + consumers + ")"
}

// consumerKey is the key of the consumer's number in a handler's context.
type consumerKey struct{}

// Consumer returns the number, from 0, of the consumer that runs the
// handler or dead letter given ctx, and false for a context that is not
// one an executor gave, nil included.
func Consumer(ctx context.Context) (int, bool) {
	if ctx == nil {
		return 0, false
	}
	w, ok := ctx.Value(consumerKey{}).(int)
	return w, ok
}
