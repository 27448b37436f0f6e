package live

import (
	"cmp"
	"math"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sirali-konvoy/konvoy"
)

// Stats are an executor's measures so far, named as [konvoy.Result]'s are
// where they mean the same.
type Stats struct {
	// Events counts the items submitted (under 32-bit int, wrapping past
	// math.MaxInt32: the executor counts in 64 bits).
	Events int
	// Done counts the items handled; DeadLetters those given to the dead
	// letter after their last attempt failed; Failed those whose failure
	// stopped the executor; CutShort those started and then stopped short
	// of an outcome: a failure stopped the executor before their next
	// attempt, or their attempt failed once Close had given up (see
	// [UnrunError], which names them among the items that did not run).
	Done, DeadLetters, Failed, CutShort int
	// InFlight counts the items running now, MaxInFlight the most that ran
	// at once; Held the items submitted and not started; ActiveLanes the
	// lanes with an item held or running now (0 under Static, which keeps
	// no lanes), unlike [konvoy.Result].Lanes, the lanes a run ever used.
	InFlight, MaxInFlight, Held, ActiveLanes int
	// Errors counts the failed attempts, Retries the attempts after an
	// item's first.
	Errors, Retries int
	// Skipped counts the items the [konvoy.VersionStamp] layout skipped as
	// stale (see [VersionStore]).
	Skipped int
	// Under the [konvoy.Resequencer]: Duplicates counts the items discarded
	// because their key had released or held their step already; Buffered
	// the items held for a gap, at least for a while; MaxBuffered the most
	// held at once, MaxKeyBuffered the most for one key; NeverApplied the
	// items still held once Close stopped waiting for them: 0 before
	// Close; under a Timeout, 0 but for items whose submission time, in
	// rounds, plus the Timeout passes the largest int, a time that never
	// comes, as the model never applies an event whose finish plus
	// Timeout passes it.
	Duplicates, Buffered, MaxBuffered, MaxKeyBuffered, NeverApplied int
	// Under the resequencer configured by [WithResequencer], as in
	// [konvoy.Result]: GapsSkipped counts the steps given up on when an
	// item held past its Timeout, or pushed out by its Capacity, was
	// released with steps missing before it (math.MaxInt once they pass
	// it); Forced the held items so
	// released, or taken as old steps, without their gap filling;
	// RejectedOld the old steps discarded under RejectOld; BackwardWrites
	// the old steps run without it, which set their key back. Under any
	// other layout BackwardWrites stays 0: the executor keeps no key's
	// state, where konvoy.Result counts every event offered below its
	// key's (under VersionStamp, the items counted in Skipped).
	GapsSkipped, Forced, RejectedOld, BackwardWrites int
	// Wait is the latency from an item's submission to its start, Response
	// to its finish, over the items finished, in nanoseconds, with the
	// model's percentiles (see [konvoy.Latency]). The clock is read
	// outside any lock: an item's submission when Submit is called (again
	// after it waited for room), its finish when its handler returned, and
	// its start when its consumer became free (its last item finished, or
	// it was woken, or under head-of-line its lane was handed to it, read
	// under the consumer's own tally's lock, which Stats holds for moments)
	// before it took the item; so a wait may be short by the time a
	// consumer took to find the item, or under head-of-line long by a
	// moment of Stats, and is never below 0. Under the
	// resequencer an item's wait includes the time it was held for its
	// gap, since it runs once released; the model runs an event before it
	// holds it, and counts the hold apart (konvoy.Result.HeldRounds).
	// Where int has 32 bits, a latency past math.MaxInt nanoseconds, about
	// 2.1 s, counts as math.MaxInt.
	Wait, Response konvoy.Latency
	// Blocked is the time consumers spent, under [konvoy.HeadOfLine],
	// holding an item whose lane was busy: the head-of-line blocking the
	// other policies avoid, summed over the consumers, a block going on
	// counted up to the time Stats was called, and none after a failure
	// stopped the executor.
	Blocked time.Duration
}

// Stats returns the executor's measures so far. It may be called at any
// time, during and after Close; it takes each consumer's lock, and each
// shard's, for as long as it takes to add up what they counted (holding
// Submit up while it counts the lanes), and reads the latency histograms,
// tens of microseconds. Items finish one consumer
// at a time, so Stats read while items run may count an item as finished
// and still running, or held and running: its counts agree once the
// executor is idle, each item counted once, in Done, DeadLetters,
// Skipped, Failed, CutShort, InFlight or Held, or under the resequencer
// in Duplicates or RejectedOld. Done, InFlight and Held never add up to
// more than Events.
func (x *Executor[T]) Stats() Stats {
	var s Stats
	x.statMu.Lock()
	now := x.now()
	for w := range x.tallies {
		x.settle(&x.tallies[w], &s, now)
	}
	s.Wait, s.Response = x.wait.Latency(), x.response.Latency()
	x.statMu.Unlock()
	// Read in this order, the items done, running and submitted are each
	// counted among the next: Done + InFlight + Held is at most Events. A
	// consumer counts its item running before it raises the peak (claim):
	// the most at once is at least those running now.
	s.InFlight = int(x.running.Load())
	s.MaxInFlight = max(int(x.peak.Load()), s.InFlight)
	x.subMu.Lock()
	s.Events = int(x.seq)
	held := x.seq - x.gone
	s.Duplicates, s.Buffered, s.MaxBuffered, s.MaxKeyBuffered = x.duplicates, x.buffered, x.maxBuffered, x.maxKeyBuffered
	s.GapsSkipped, s.Forced, s.RejectedOld, s.BackwardWrites = x.rq.gapsSkipped, x.rq.forced, x.rq.rejectedOld, x.rq.backwardWrites
	if x.aborted.Load() {
		s.NeverApplied = x.gapHeld
	}
	x.unlockSub()
	x.mu.Lock()
	s.Failed, s.CutShort = x.failed, len(x.cut)
	// Every outcome is counted before its item counts as finished (fin),
	// which waits for its lane to be freed: an item counted done is not
	// counted held too.
	counted := s.Done + s.DeadLetters + s.Skipped + x.failed + len(x.cut)
	x.mu.Unlock()
	s.ActiveLanes = x.activeLanes()
	s.Held = int(max(held-max(x.finished(), int64(counted))-int64(s.InFlight), 0))
	// Retries first: a retry is counted after the error before it, so
	// that a snapshot never has more retries than errors.
	s.Retries = int(x.retriesN.Load())
	s.Errors = int(x.errorsN.Load())
	return s
}

// activeLanes returns the lanes with items held: in slots and shards,
// read under the submit lock, so that no lane moves from one to the other
// meanwhile, once the items finished so far have left their lanes.
func (x *Executor[T]) activeLanes() int {
	n := 0
	x.lockSub()
	defer x.unlockSub()
	n += x.slotsHeld
	for i := range x.shards {
		sh := &x.shards[i]
		sh.mu.Lock()
		n += sh.table.n
		sh.mu.Unlock()
	}
	return n
}

// Room returns how many more items Submit takes now without waiting:
// [WithMaxHeld] less the items held (running, waiting, and with
// [WithOffsets] finished above their partition's committable offset).
// Once Submit takes none, after Close or once a failed item stopped the
// executor, it returns 0 and the error Submit would return ([ErrClosed],
// or an error wrapping [ErrStopped]). A source read in batches, such as a
// Kafka consumer, asks it before each read. It takes O(c) time for c
// consumers, reading a count of each.
func (x *Executor[T]) Room() (int, error) {
	x.subMu.Lock()
	defer x.unlockSub()
	if err := x.refusal(); err != nil {
		return 0, err
	}
	x.finSeen = x.finished()
	return int(max(int64(x.maxHeld)-(x.seq-x.gone-x.finSeen)-x.pendingN.Load(), 0)), nil
}

// tally is what one consumer counted: the items it finished, ever (read
// without a lock, for room), and, under its lock, the outcomes and
// latencies of the items it finished since Stats last settled them, at
// most settleEvery items: beyond, it settles them itself.
type tally struct {
	fin     atomic.Int64 // items finished
	cur     atomic.Int64 // the submission number of the item it took last, from claim until it goes idle (runIdle), -1 for none
	mu      sync.Mutex
	lat     []int // wait and response of each item not settled
	done    int   // items handled
	dead    int   // given to the dead letter
	skipped int   // skipped as stale
	blocked int64 // nanoseconds blocked under head-of-line, blocks ended
	since   int64 // when the block going on began, -1 for none
	attempt int   // the consumer's: the attempts of its item whose handler it called (see exited)
	trying  bool  // the consumer's: it is in an attempt, its handler or the version store
	guarded bool  // the consumer's: it entered the guard and has not called its exit
	_       [64]byte
}

// settleEvery is the most items a consumer counts before it settles their
// latencies into the executor's: it bounds the latencies a tally keeps.
const settleEvery = 128

// count counts an item that consumer w finished with outcome r, having
// waited wait and responded in response nanoseconds.
func (x *Executor[T]) count(w int32, r outcome, wait, response int64) {
	c := &x.tallies[w]
	c.mu.Lock()
	switch {
	case r.dead:
		c.dead++
	case r.skipped:
		c.skipped++
	case r.err == nil:
		c.done++
	}
	c.lat = append(c.lat, nanos(wait), nanos(response))
	full := len(c.lat) >= 2*settleEvery
	c.mu.Unlock()
	if full {
		x.statMu.Lock()
		c.mu.Lock()
		x.addLat(c)
		c.mu.Unlock()
		x.statMu.Unlock()
	}
}

// nanos returns d nanoseconds as an int, math.MaxInt for more: where int
// has 32 bits, about 2.1 s (see Stats.Wait).
func nanos(d int64) int { return int(min(d, math.MaxInt)) }

// blockEnd returns the end of a block going on at time t: t, or the time
// a failure stopped the executor, when one did before t. A consumer blocked
// then waits for Close, not for its lane, which is never handed to it.
func (x *Executor[T]) blockEnd(t int64) int64 {
	select {
	case <-x.halted:
		return min(t, x.haltAt)
	default:
		return t
	}
}

// blockFrom notes that the consumer is blocked from time t on.
func (c *tally) blockFrom(t int64) {
	c.mu.Lock()
	c.since = t
	c.mu.Unlock()
}

// endBlock counts the block going on in c as ended now, and returns the
// time now. It reads the clock under c's lock: a Stats that counted the
// block going on, up to its own time, read that time before it took the
// lock, so the block ends no earlier than Stats counted it, and Blocked
// never falls from one Stats to the next. (A halt cuts blocks at haltAt,
// which fail sets, and closes halted, under statMu: a Stats reads its
// time either before both or after both.)
func (x *Executor[T]) endBlock(c *tally) int64 {
	c.mu.Lock()
	t := x.now()
	c.blocked += max(x.blockEnd(t)-c.since, 0)
	c.since = -1
	c.mu.Unlock()
	return t
}

// addLat adds c's latencies to the executor's, under statMu and c's lock.
func (x *Executor[T]) addLat(c *tally) {
	for j := 0; j < len(c.lat); j += 2 {
		x.wait.Add(c.lat[j])
		x.response.Add(c.lat[j+1])
	}
	c.lat = c.lat[:0]
}

// settle adds what c counted to s, and its latencies to the executor's,
// under statMu.
func (x *Executor[T]) settle(c *tally, s *Stats, now int64) {
	c.mu.Lock()
	x.addLat(c)
	s.Done += c.done
	s.DeadLetters += c.dead
	s.Skipped += c.skipped
	s.Blocked += time.Duration(c.blocked)
	if c.since >= 0 {
		s.Blocked += time.Duration(max(x.blockEnd(now)-c.since, 0)) // a block going on, so far
	}
	c.mu.Unlock()
}

// finished returns the items finished.
func (x *Executor[T]) finished() int64 {
	n := int64(0)
	for w := range x.tallies {
		n += x.tallies[w].fin.Load()
	}
	return n
}

// LaneStat is one lane with items held now, as [Executor.Lanes] gives it.
type LaneStat struct {
	// Lane is the lane's name, as the layout gives it ([konvoy.Layout.Lane];
	// under the [konvoy.Resequencer], the key).
	Lane string
	// Held counts the lane's items submitted and not started, as
	// [Stats].Held does over all; Running tells whether one of its items
	// runs now.
	Held    int
	Running bool
	// Wait is how long the first submitted of those items has waited so
	// far, from its submission (as [Stats].Wait reads it) to the call; 0
	// when none waits.
	Wait time.Duration
}

// laneStat is a LaneStat with the submission number of the item that
// waited longest, which orders lanes whose waits are equal.
type laneStat struct {
	LaneStat
	seq int64
}

// Lanes returns up to n of the lanes that have items held now, the
// longest current wait first (see [LaneStat]; among equal waits, the lane
// whose waiting item was submitted first, and the lanes with none waiting
// last, by name); none for n ≤ 0. Items without a lane, and items the
// resequencer holds for a gap (in no lane until released), are in none.
// An executor remembers only the lanes with items held, so a lane drained
// is gone from the answer.
//
// It holds Submit up, and each shard of lanes in turn, for the time it
// takes to read the lanes, O(p + s) in all for p the most lanes and s the
// most items held at once, and under [konvoy.LaneAware] O(h) more, h the
// slots of lanes with one item (2·[WithMaxHeld] rounded up to a power of
// 2, 64 to 65,536); it then takes O(m log m) time and O(m) memory for the
// m lanes held now. Under [konvoy.Static], which keeps no lanes, it instead
// copies the items held under each consumer's lock and asks the layout
// their lanes after, calling the event function once for each.
func (x *Executor[T]) Lanes(n int) []LaneStat {
	if n <= 0 {
		return nil
	}
	now := x.now() // before any lock, as Submit reads it
	var all []laneStat
	if x.policy == konvoy.Static {
		all = x.ownedLanes(now)
	} else {
		all = x.heldLanes(now)
	}
	slices.SortFunc(all, func(a, b laneStat) int {
		if a.Held == 0 || b.Held == 0 {
			return cmp.Or(cmp.Compare(b.Held, a.Held), strings.Compare(a.Lane, b.Lane))
		}
		return cmp.Or(cmp.Compare(b.Wait, a.Wait), cmp.Compare(a.seq, b.seq))
	})
	out := make([]LaneStat, min(n, len(all)))
	for i := range out {
		out[i] = all[i].LaneStat
	}
	return out
}

// heldLanes returns a LaneStat, at time now, for each lane with items held
// (every policy but Static).
func (x *Executor[T]) heldLanes(now int64) []laneStat {
	x.lockSub() // no lane moves from its slot to its shard meanwhile
	defer x.unlockSub()
	runs := make(map[int64]bool, len(x.tallies)) // read once the log is drained
	for w := range x.tallies {
		if c := x.tallies[w].cur.Load(); c >= 0 {
			runs[c] = true
		}
	}
	var out []laneStat
	for i := range x.slots.word {
		if x.slots.word[i].Load() != slotOne {
			continue
		}
		e := &x.slots.entry[i]
		st := laneStat{LaneStat: LaneStat{Lane: e.name, Running: runs[e.first]}}
		if !st.Running {
			st.Held, st.seq, st.Wait = 1, e.first, time.Duration(max(now-e.firstAt, 0))
		}
		out = append(out, st)
	}
	for i := range x.shards {
		out = x.shards[i].lanes(out, now, x.policy == konvoy.LaneAware, runs)
	}
	return out
}

// lanes appends a LaneStat, at time now, for each lane of the shard to
// out: under lane-aware (first) a lane's first item is running when it is
// in runs, and waits otherwise.
func (s *shard[T]) lanes(out []laneStat, now int64, first bool, runs map[int64]bool) []laneStat {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, l := range s.table.lanes {
		if l.n == 0 {
			continue
		}
		st := laneStat{LaneStat: LaneStat{Lane: l.name, Running: l.busy}}
		at := int64(0)
		if first {
			if st.Running = runs[l.first]; !st.Running {
				st.Held, st.seq, at = 1, l.first, l.firstAt
			}
		}
		for i := l.head; i >= 0; i = s.queued[i].next {
			if q := &s.queued[i].task; st.Held == 0 || q.seq < st.seq {
				st.seq, at = q.seq, q.submitted
			}
			st.Held++
		}
		if st.Held > 0 {
			st.Wait = time.Duration(max(now-at, 0))
		}
		out = append(out, st)
	}
	return out
}

// heldItem is an item held, copied out of its consumer's lock by
// ownedLanes.
type heldItem[T any] struct {
	item      T
	seq       int64
	submitted int64
	started   bool
}

// ownedLanes returns a LaneStat, at time now, for each lane with items
// held under Static: it copies the items held in the consumers' inboxes,
// running, and kept as not started, and asks their lanes outside the locks.
func (x *Executor[T]) ownedLanes(now int64) []laneStat {
	var items []heldItem[T]
	for w := range x.inboxes {
		c := &x.inboxes[w]
		c.mu.Lock()
		waiting, cur, running := c.held()
		c.mu.Unlock()
		for _, j := range waiting {
			items = append(items, heldItem[T]{j.item, j.seq, j.submitted, false})
		}
		if running {
			items = append(items, heldItem[T]{item: cur.item, started: true})
		}
	}
	x.mu.Lock()
	for _, u := range x.unstarted { // taken once the executor stopped or ended: held still
		items = append(items, heldItem[T]{u.item, u.seq, u.submitted, false})
	}
	x.mu.Unlock()
	at := map[string]int{}
	var out []laneStat
	for _, it := range items {
		name, ok := x.laneOfItem(it.item)
		if !ok {
			continue // run free
		}
		j, seen := at[name]
		if !seen {
			j = len(out)
			at[name] = j
			out = append(out, laneStat{LaneStat: LaneStat{Lane: name}})
		}
		s := &out[j]
		if it.started {
			s.Running = true
			continue
		}
		if s.Held == 0 || it.seq < s.seq {
			s.seq, s.Wait = it.seq, time.Duration(max(now-it.submitted, 0))
		}
		s.Held++
	}
	return out
}

// laneOfItem returns the lane item runs in, as Submit places it, and false
// for none.
func (x *Executor[T]) laneOfItem(item T) (string, bool) {
	e := x.event(item)
	if x.reseq != nil {
		return reseqLane(e)
	}
	name, ok, err := x.layout.Lane(e)
	return name, ok && err == nil
}
