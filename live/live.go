package live

import (
	"cmp"
	"context"
	"errors"
	"fmt"
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
// goroutines. A handler must not call Close, which waits for it, nor
// Submit to its own executor without a context that ends: Submit waits
// for room that only finished handlers make.
type Executor[T any] struct {
	layout    konvoy.Layout
	policy    konvoy.Policy
	assignor  konvoy.Assignor
	consumers int
	maxHeld   int
	event     func(T) konvoy.Event
	handle    func(context.Context, T) error
	dead      func(context.Context, T, error) error
	retry     Retry
	sleep     func(context.Context, time.Duration) error
	versions  VersionStore         // under the version stamp
	offsets   func(T) (int, int64) // WithOffsets

	ctx    context.Context   // the handlers'; cancelled when Close gives up
	ctxs   []context.Context // by consumer: ctx, telling the consumer
	cancel context.CancelFunc
	epoch  time.Time
	wg     sync.WaitGroup
	wake   []chan struct{} // by consumer: a token that wakes it
	space  chan struct{}   // a token: maybe room for one more item
	closed chan struct{}   // closed by Close
	halted chan struct{}   // closed when a failed item stops the executor
	drain  chan struct{}   // closed when, closing, nothing more can run
	quit   chan struct{}   // closed by Close to end the consumers

	errorsN, retriesN atomic.Int64

	// Under the static policy (see static.go): the consumers' inboxes;
	// the items running and the most at once; the submission number of
	// the fifo's head; Submit calls waiting for room; whether the
	// executor stopped or gave up, so that no consumer starts an item.
	inboxes                          []inbox[T]
	running, peak, freeSeq, waitingN atomic.Int64
	halt                             atomic.Bool
	owners                           []atomic.Int32 // see fixedOwner

	mu sync.Mutex
	state[T]
}

// state is what the executor's lock guards.
type state[T any] struct {
	slots    []slot[T] // the items held, running or waiting
	free     []int32   // slots not in use
	held     int       // slots in use
	inFlight int
	seq      int // the next item's submission number
	waiting  int // Submit calls waiting for room

	lanes                                             laneTable // lanes with items held, by name
	laneAt                                            []lane
	laneFree                                          []int32
	fifo                                              list    // head-of-line: every item not taken; static: items without a lane
	fresh                                             list    // lane-aware: the items that could start when submitted, not taken
	ready                                             []ready // lane-aware: a heap of the next items of lanes freed since
	seen                                              map[string]int
	idle                                              []int32 // consumers parked, waiting for an item
	parked                                            []bool
	parts                                             []source // WithOffsets: by partIndex
	partIndex                                         map[int]int32
	pending                                           int                  // items finished above their partition's committable offset
	reseq                                             map[string]*reseqKey // under the resequencer, by key
	gapHeld                                           int                  // items the resequencer holds for gaps
	duplicates, buffered, maxBuffered, maxKeyBuffered int
	waking                                            int // consumers woken and not yet back under the lock

	rq resequencer // the rest of the resequencer's state: see resequencer.go

	closing, stopping, aborted, drained bool
	fatal                               []error
	cut                                 []unrun[T] // items whose handler failed after Close gave up

	done, deadLettered, failed, skipped int
	wait, response                      konvoy.LatencyCounter
	blocked                             time.Duration
	maxInFlight, events                 int
	tick                                int64 // the time the last item finished, when ticked
	ticked                              bool
}

// slot is one item held.
type slot[T any] struct {
	item      T
	seq       int
	submitted int64 // nanoseconds since the executor's epoch
	lane      int32 // -1: none; under Static, unused
	next      int32 // in fifo or owned
	laneNext  int32 // in its lane's queue
	waiter    int32 // head-of-line: the consumer blocked on it, -1 for none
	used      bool  // the slot holds an item
	part      int32 // WithOffsets: the source partition's index
	entry     int   // and the item's in it
	started   bool
}

// lane is one lane with items held: those not started, in submission
// order, and whether one runs.
type lane struct {
	name       string
	hash       uint64 // of name, in the executor's laneTable
	head, tail int32
	busy       bool
}

// list is a queue of slots linked by their next field.
type list struct{ head, tail int32 }

// unrun is an item that did not run, with its submission number.
type unrun[T any] struct {
	seq  int
	item T
}

// New returns an executor that runs handle on items under layout on
// consumers consumers, each item in the lane that layout gives
// event(item) ([konvoy.Layout.Lane]); event must give the same Event for
// an item every time it is asked. The default policy is
// [konvoy.LaneAware], at most [DefaultMaxHeld] items are held, and a failed
// item stops the executor (see [WithRetry] and [WithDeadLetter]).
//
// New returns an error when consumers is not 1 to [MaxConsumers], event or
// handle is nil, an option is nil or has a bad value, a dead letter's item
// type is not T.
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
		event: event, handle: handle, retry: c.retry, sleep: c.sleep,
		epoch: time.Now(), wake: make([]chan struct{}, consumers), space: make(chan struct{}, 1),
		closed: make(chan struct{}), halted: make(chan struct{}), drain: make(chan struct{}), quit: make(chan struct{}),
	}
	if c.deadLetter != nil {
		f, ok := c.deadLetter.(func(context.Context, T, error) error)
		if !ok {
			var zero T
			return nil, fmt.Errorf("live: New: WithDeadLetter's function is a %T; want one that takes a %T", c.deadLetter, zero)
		}
		x.dead = f
	}
	if c.offsets != nil {
		f, ok := c.offsets.(func(T) (int, int64))
		if !ok {
			var zero T
			return nil, fmt.Errorf("live: New: WithOffsets's function is a %T; want one that takes a %T", c.offsets, zero)
		}
		x.offsets, x.partIndex = f, make(map[int]int32)
	}
	if layout.Equal(konvoy.Resequencer) {
		x.setResequencer(c.reseq)
	}
	if layout.Equal(konvoy.VersionStamp) {
		x.versions = cmp.Or[VersionStore](c.versions, &MemoryVersions{})
	}
	x.ctx, x.cancel = context.WithCancel(context.Background())
	x.lanes = newLaneTable()
	x.fifo, x.fresh = list{-1, -1}, list{-1, -1}
	x.parked = make([]bool, consumers)
	if x.policy == konvoy.Static {
		x.inboxes = make([]inbox[T], consumers)
		if x.assignor != konvoy.FirstSeenAssignor {
			x.owners = make([]atomic.Int32, min(layout.Partitions(), ownersKept))
		}
		x.freeSeq.Store(noFree)
		x.seen = make(map[string]int)
	}
	x.ctxs = make([]context.Context, consumers)
	x.wg.Add(consumers)
	for w := range consumers {
		x.ctxs[w] = context.WithValue(x.ctx, consumerKey{}, w)
		x.wake[w] = make(chan struct{}, 1)
		go x.work(int32(w))
	}
	return x, nil
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
// wrapping [ErrStopped] once a failure stopped the executor, and an error
// wrapping a [*konvoy.EventError] when the layout cannot place the item's
// event (see [konvoy.Layout.Lane]), whose Index is the submission number
// the item would have had, or an error when [WithOffsets] gives an offset
// below 0 or not above its partition's last. It takes O(log n) time for n
// items held, and allocates nothing once the executor has held as many
// items and lanes.
func (x *Executor[T]) Submit(ctx context.Context, item T) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	var p placement
	err := x.place(item, &p)
	t := x.now() // before the lock: its holders wait no clock read
	x.mu.Lock()
	if err == nil && x.offsets != nil {
		err = x.placeOffset(p.part, p.offset)
	}
	if err != nil && x.refusal() == nil {
		var ee *konvoy.EventError
		if errors.As(err, &ee) {
			ee.Index = x.seq
			err = fmt.Errorf("live: Submit: %w", err)
		}
		x.mu.Unlock()
		return err
	}
	t, err = x.awaitRoom(ctx, t)
	if err != nil {
		return err
	}
	if p.own >= 0 && x.offsets == nil { // Static, its consumer known: no slot
		x.holdOwn(item, t, p.own)
	} else {
		i := x.alloc(item, t)
		if x.offsets != nil {
			x.addOffset(i, p.part, p.offset)
		}
		if x.reseq != nil && p.hasLane {
			x.resequence(i, p.e, p.hash)
		} else {
			x.enqueue(i, p.name, p.hasLane, p.own, p.hash)
		}
	}
	if x.waiting > 0 && x.held+x.pending < x.maxHeld {
		x.passSpace()
	}
	x.mu.Unlock()
	return nil
}

// placement is where Submit puts an item, found before it takes the lock.
type placement struct {
	e       konvoy.Event
	name    string // the item's lane, when hasLane
	hasLane bool
	part    int    // WithOffsets: the item's source partition
	offset  int64  // and its offset there
	own     int    // Static: the lane's consumer when fixedOwner knows it, or -1
	hash    uint64 // the lane's hash in the laneTable, but under Static
}

// place sets p to where Submit puts item, and returns the layout's error
// for its event. It needs no lock. (Its result is written in place: the
// placement, with its event, is large enough for copies to show in a
// no-op handler's cost.)
func (x *Executor[T]) place(item T, p *placement) error {
	p.e, p.own = x.event(item), -1
	var err error
	if x.reseq != nil {
		p.name, p.hasLane = reseqLane(p.e)
	} else {
		p.name, p.hasLane, err = x.layout.Lane(p.e)
	}
	if x.offsets != nil {
		p.part, p.offset = x.offsets(item)
	}
	if err == nil && p.hasLane {
		if x.policy == konvoy.Static && x.reseq == nil {
			p.own = x.fixedOwner(p.name)
		} else {
			p.hash = x.lanes.hash(p.name) // the seed never changes
		}
	}
	return err
}

// awaitRoom waits, under the lock, until the executor may hold one more
// item, and returns nil, locked, and the item's submission time: t, read
// when Submit was called, or the time now if it waited. It returns
// Submit's error, unlocked, when ctx ends first or the executor takes no
// more.
func (x *Executor[T]) awaitRoom(ctx context.Context, t int64) (int64, error) {
	for waited := false; ; waited = true {
		if err := x.refusal(); err != nil {
			x.mu.Unlock()
			return t, err
		}
		if x.held+x.pending < x.maxHeld {
			if waited {
				t = x.now() // under the lock, after a wait: rare
			}
			return t, nil
		}
		x.waiting++
		x.waitingN.Store(int64(x.waiting))
		if x.settleAll(); x.held+x.pending < x.maxHeld { // room the consumers had not settled
			x.waiting--
			x.waitingN.Store(int64(x.waiting))
			return t, nil
		}
		x.mu.Unlock()
		var err error
		select {
		case <-ctx.Done():
			err = ctx.Err()
		case <-x.closed:
		case <-x.halted:
		case <-x.space:
		}
		x.mu.Lock()
		x.waiting--
		x.waitingN.Store(int64(x.waiting))
		if err != nil {
			x.mu.Unlock()
			return t, err
		}
	}
}

// refusal returns Submit's error when the executor takes no more items.
func (x *Executor[T]) refusal() error {
	switch {
	case x.closing:
		return ErrClosed
	case x.stopping:
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

// clock returns the time a consumer became free, read before it took the
// lock, when it takes an item in the same hold of the lock (the time its
// last item finished, or it was woken): that saves reading the clock twice
// at one instant, and keeps clock reads out of the lock. It returns the
// time now otherwise.
func (x *Executor[T]) clock() int64 {
	if x.ticked {
		return x.tick
	}
	return x.now()
}

// alloc puts item, submitted at time t, in a free slot and returns it.
func (x *Executor[T]) alloc(item T, t int64) int32 {
	var i int32
	if n := len(x.free); n > 0 {
		i = x.free[n-1]
		x.free = x.free[:n-1]
	} else {
		x.slots = append(x.slots, slot[T]{})
		i = int32(len(x.slots) - 1)
	}
	x.slots[i] = slot[T]{item: item, seq: x.seq, submitted: t, lane: -1, next: -1, laneNext: -1, waiter: -1, used: true}
	x.seq++
	x.events++
	x.held++
	return i
}

// release empties slot i.
func (x *Executor[T]) release(i int32) {
	x.slots[i] = slot[T]{}
	x.free = append(x.free, i)
	x.held--
	if x.waiting > 0 {
		x.passSpace()
	}
}

// start counts slot i as started now.
func (x *Executor[T]) start(i int32) {
	s := &x.slots[i]
	s.started = true
	x.inFlight++
	x.maxInFlight = max(x.maxInFlight, x.inFlight)
	if x.inboxes != nil {
		x.countRun(1)
	}
	x.wait.Add(int(max(x.clock()-s.submitted, 0))) // a clock read before the lock may precede the submission
}

// work is consumer w: it takes items as its policy says and runs them
// until Close ends it.
func (x *Executor[T]) work(w int32) {
	defer x.wg.Done()
	x.mu.Lock()
	for {
		if x.aborted || x.drained {
			x.mu.Unlock()
			return
		}
		i, act := x.take(w)
		free := x.tick // the time consumer w became free, when ticked
		if !x.ticked {
			free = -1
		}
		x.ticked = false
		if act != park && x.more() {
			x.wakeAny() // the next consumer takes what is left
		}
		switch act {
		case park:
			x.idle = append(x.idle, w)
			x.parked[w] = true
			x.mu.Unlock()
			select {
			case <-x.wake[w]:
			case <-x.quit:
				return
			}
			t := x.now()
			x.mu.Lock()
			x.tick, x.ticked = t, true
			x.waking--
			continue
		case own:
			x.mu.Unlock()
			if free < 0 {
				free = x.now()
			}
			e, r, start, t, ok := x.runOwn(w, free)
			x.mu.Lock()
			if ok {
				x.finishOwn(w, e, r, start, t)
			} else {
				x.settle(w)
			}
			x.tick, x.ticked = t, true
			continue
		case block:
			x.mu.Unlock()
			t0 := time.Now()
			if !x.awaitLane(w) {
				return
			}
			d := time.Since(t0)
			x.mu.Lock()
			x.blocked += d
		}
		s := &x.slots[i]
		item, seq := s.item, s.seq
		x.mu.Unlock()
		r := x.run(w, item, seq)
		t := x.now()
		x.mu.Lock()
		x.finish(i, r, t)
	}
}

// awaitLane waits, under head-of-line, until the lane of the item that
// consumer w took is handed to it, and returns true, or until Close ends
// the consumers, and returns false.
func (x *Executor[T]) awaitLane(w int32) bool {
	select {
	case <-x.wake[w]:
		return true
	case <-x.quit:
		select {
		case <-x.wake[w]: // handed over before Close gave up: it has started
			return true
		default:
			return false
		}
	}
}

// action is what a consumer does after take.
type action uint8

const (
	run   action = iota // run the item taken, started
	park                // wait for an item
	block               // wait, holding the item taken, for its lane (head-of-line)
	own                 // run the items of its inbox (static)
)

// take finds consumer w's next item by the policy.
func (x *Executor[T]) take(w int32) (int32, action) {
	if x.stopping || x.aborted {
		return -1, park
	}
	switch x.policy {
	case konvoy.HeadOfLine:
		return x.takeHeadOfLine(w)
	case konvoy.Static:
		return x.takeOwned(w)
	}
	return x.takeReady()
}

// enqueue puts slot i, of the lane named name when hasLane, where its
// policy looks for it, and wakes a consumer that can take it.
func (x *Executor[T]) enqueue(i int32, name string, hasLane bool, own int, h uint64) {
	switch x.policy {
	case konvoy.HeadOfLine:
		push(&x.fifo, x.slots, i)
		if hasLane {
			x.joinLane(i, name, h)
		}
		x.wakeAny()
	case konvoy.Static:
		if !hasLane {
			push(&x.fifo, x.slots, i)
			x.setFreeSeq()
			x.wakeAny()
			return
		}
		o := own
		if o < 0 {
			o = x.owner(name)
		}
		x.toInbox(i, o)
	default:
		if !hasLane {
			push(&x.fresh, x.slots, i)
			x.wakeAny()
			return
		}
		if l := x.joinLane(i, name, h); !l.busy && l.head == i {
			push(&x.fresh, x.slots, i)
			x.wakeAny()
		}
	}
}

// finish ends slot i's run, finished at time t, with outcome r: it counts
// it, frees its lane for the next item, and its slot.
func (x *Executor[T]) finish(i int32, r outcome, t int64) {
	s := &x.slots[i]
	x.inFlight--
	if x.inboxes != nil {
		x.countRun(-1)
	}
	x.tick, x.ticked = t, true
	x.account(s.seq, s.item, s.submitted, r, t)
	if x.offsets != nil && r.err == nil { // handled, dead-lettered or skipped
		x.finishOffset(i)
	}
	if s.lane >= 0 {
		x.leaveLane(i)
	}
	x.release(i)
	x.checkDrained()
}

// account counts the outcome r of item, submission seq, submitted at time
// submitted and finished at t.
func (x *Executor[T]) account(seq int, item T, submitted int64, r outcome, t int64) {
	x.response.Add(int(max(t-submitted, 0)))
	switch {
	case r.dead:
		x.deadLettered++
	case r.skipped:
		x.skipped++
	case r.err == nil:
		x.done++
	case x.aborted && x.ctx.Err() != nil:
		x.cut = append(x.cut, unrun[T]{seq, item})
	default:
		x.failed++
		x.fatal = append(x.fatal, r.err)
		if !x.stopping {
			x.stopping = true
			x.halt.Store(true)
			close(x.halted)
		}
	}
}

// checkDrained closes drain once Close was called and nothing more can
// run: nothing in flight, and nothing held but what the resequencer holds
// for gaps, or the executor stopped.
func (x *Executor[T]) checkDrained() {
	if x.closing && !x.drained && x.inFlight == 0 && x.running.Load() == 0 && (x.held == x.gapHeld || x.stopping) {
		x.drained = true
		close(x.drain)
	}
}

// outcome is how an item's run ended: handled (err nil), skipped as stale
// by the version stamp, given to the dead letter (dead), or failed (err).
type outcome struct {
	err           error
	dead, skipped bool
}

// run tries item on consumer w, with submission number seq, as often as
// the retry allows, and gives it to the dead letter when the last attempt
// fails.
func (x *Executor[T]) run(w int32, item T, seq int) outcome {
	ctx := x.ctxs[w]
	attempts := max(1, x.retry.Attempts)
	checked := x.versions == nil
	k := 1
	var err error
	for ; ; k++ {
		var stale bool
		if stale, err = x.attempt(ctx, item, &checked); stale {
			return outcome{skipped: true}
		} else if err == nil {
			return outcome{}
		}
		x.errorsN.Add(1)
		if k >= attempts || x.ctx.Err() != nil {
			break
		}
		x.retriesN.Add(1)
		if x.sleep(x.ctx, x.retry.pause(uint64(seq), k)) != nil {
			break
		}
	}
	ie := x.itemError(item, seq, k, err)
	if x.dead == nil || x.ctx.Err() != nil {
		return outcome{err: ie}
	}
	if derr := x.callDead(ctx, item, ie); derr != nil {
		ie.Err = fmt.Errorf("dead letter: %w; after %w", derr, err)
		return outcome{err: ie}
	}
	return outcome{dead: true}
}

// attempt tries item once: under the version stamp, until the store has
// advanced its key (checked), it asks the store first, and reports a stale
// item; then it runs the handler. A panic of either is a *PanicError.
func (x *Executor[T]) attempt(ctx context.Context, item T, checked *bool) (stale bool, err error) {
	defer func() {
		if v := recover(); v != nil {
			err = &PanicError{Value: v, Stack: debug.Stack()}
		}
	}()
	if !*checked {
		if e := x.event(item); e.Step > 0 && e.Key != "" {
			advanced, err := x.versions.Advance(ctx, e.Key, e.Step)
			if err != nil {
				return false, fmt.Errorf("version store: %w", err)
			}
			if !advanced {
				return true, nil
			}
		}
		*checked = true
	}
	return false, x.handle(ctx, item)
}

// itemError returns the error of item, submission seq, failed after
// attempts attempts with err.
func (x *Executor[T]) itemError(item T, seq, attempts int, err error) *ItemError {
	e := x.event(item)
	name, _, _ := x.layout.Lane(e)
	return &ItemError{Seq: seq, Event: e, Lane: name, Attempts: attempts, Err: err}
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
// it returns the failures that stopped the executor ([*ItemError], wrapped
// with [ErrStopped]), and an [*UnrunError] with the items that never ran to
// the end: those not started, and those whose handler failed after ctx
// ended; errors.Join joins them. A second Close returns [ErrClosed].
func (x *Executor[T]) Close(ctx context.Context) error {
	x.mu.Lock()
	if x.closing {
		x.mu.Unlock()
		return ErrClosed
	}
	x.closing = true
	close(x.closed)
	x.releaseHeld()
	x.checkDrained()
	x.mu.Unlock()
	var cause error
	select {
	case <-x.drain:
	case <-ctx.Done():
		cause = ctx.Err()
	}
	x.mu.Lock()
	x.aborted = true
	x.halt.Store(true)
	if cause != nil {
		x.cancel()
	}
	close(x.quit)
	x.mu.Unlock()
	x.wg.Wait()
	x.stopTimer()
	x.cancel()
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.closeError(cause)
}

// closeError returns Close's error, after the consumers ended, when it
// gave up for cause (nil when it did not).
func (x *Executor[T]) closeError(cause error) error {
	var errs []error
	if len(x.fatal) > 0 {
		errs = append(errs, fmt.Errorf("%w: %w", ErrStopped, errors.Join(x.fatal...)))
		if cause == nil {
			cause = ErrStopped
		}
	}
	if x.gapHeld > 0 && cause == nil {
		cause = ErrNeverApplied
	}
	left := x.unrunOwn(x.cut)
	for i := range x.slots {
		if s := &x.slots[i]; s.used && !s.started {
			left = append(left, unrun[T]{s.seq, s.item})
		}
	}
	if len(left) > 0 {
		slices.SortFunc(left, func(a, b unrun[T]) int { return a.seq - b.seq })
		items := make([]T, len(left))
		for i, u := range left {
			items[i] = u.item
		}
		errs = append(errs, &UnrunError[T]{Items: items, Err: cause})
	}
	if len(errs) == 1 {
		return errs[0]
	}
	return errors.Join(errs...)
}

// String returns "live.Executor(LAYOUT, POLICY, N consumers)".
func (x *Executor[T]) String() string {
	return "live.Executor(" + x.layout.String() + ", " + x.policy.String() + ", " + strconv.Itoa(x.consumers) + " consumers)"
}

// consumerKey is the key of the consumer's number in a handler's context.
type consumerKey struct{}

// Consumer returns the number, from 0, of the consumer that runs the
// handler or dead letter given ctx, and false for a context that is not
// one an executor gave.
func Consumer(ctx context.Context) (int, bool) {
	w, ok := ctx.Value(consumerKey{}).(int)
	return w, ok
}
