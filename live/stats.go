package live

import (
	"cmp"
	"slices"
	"strings"
	"time"

	"github.com/sirali-konvoy/konvoy"
)

// Stats are an executor's measures so far, named as [konvoy.Result]'s are
// where they mean the same.
type Stats struct {
	// Events counts the items submitted.
	Events int
	// Done counts the items handled; DeadLetters those given to the dead
	// letter after their last attempt failed; Failed those whose failure
	// stopped the executor.
	Done, DeadLetters, Failed int
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
	// items still held when Close returned (0 before, and always 0 with a
	// Timeout).
	Duplicates, Buffered, MaxBuffered, MaxKeyBuffered, NeverApplied int
	// Under the resequencer configured by [WithResequencer], as in
	// [konvoy.Result]: GapsSkipped counts the steps given up on when an
	// item held past its Timeout, or pushed out by its Capacity, was
	// released with steps missing before it; Forced the held items so
	// released, or taken as old steps, without their gap filling;
	// RejectedOld the old steps discarded under RejectOld; BackwardWrites
	// the old steps run without it, which set their key back.
	GapsSkipped, Forced, RejectedOld, BackwardWrites int
	// Wait is the latency from an item's submission to its start, Response
	// to its finish, over the items finished, in nanoseconds, with the
	// model's percentiles (see [konvoy.Latency]). The clock is read
	// outside the executor's lock: an item's submission when Submit is
	// called (again after it waited for room), its finish when its handler
	// returned, and its start when its consumer became free (its last item
	// finished, or it was woken) before it took the lock (under
	// [konvoy.Static], its own queue's for items of its lanes); so a wait
	// may be short by the time a consumer waited for the lock, and is
	// never below 0.
	Wait, Response konvoy.Latency
	// Blocked is the time consumers spent, under [konvoy.HeadOfLine],
	// holding an item whose lane was busy: the head-of-line blocking the
	// other policies avoid, summed over the consumers.
	Blocked time.Duration
}

// Stats returns the executor's measures so far. It may be called at any
// time, during and after Close; it holds the executor up for the time it
// takes to read the latency histograms, tens of microseconds, and under
// [konvoy.Static] to count what each consumer ran since it last reported
// (at most 256 items each).
func (x *Executor[T]) Stats() Stats {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.settleAll()
	never := 0
	if x.aborted {
		never = x.gapHeld
	}
	return Stats{
		Events: x.events, Done: x.done, DeadLetters: x.deadLettered, Failed: x.failed,
		InFlight: x.inFlightNow(), MaxInFlight: x.maxInFlightNow(), Held: x.held - x.inFlightNow(), ActiveLanes: x.lanes.n,
		Errors: int(x.errorsN.Load()), Retries: int(x.retriesN.Load()), Skipped: x.skipped,
		Duplicates: x.duplicates, Buffered: x.buffered, MaxBuffered: x.maxBuffered, MaxKeyBuffered: x.maxKeyBuffered,
		Wait: x.wait.Latency(), Response: x.response.Latency(), Blocked: x.blocked, NeverApplied: never,
		GapsSkipped: x.rq.gapsSkipped, Forced: x.rq.forced, RejectedOld: x.rq.rejectedOld, BackwardWrites: x.rq.backwardWrites,
	}
}

// Room returns how many more items Submit takes now without waiting:
// [WithMaxHeld] less the items held (running, waiting, and with
// [WithOffsets] finished above their partition's committable offset).
// Once Submit takes none, after Close or once a failed item stopped the
// executor, it returns 0 and the error Submit would return ([ErrClosed],
// or an error wrapping [ErrStopped]). A source read in batches, such as a
// Kafka consumer, asks it before each read. It takes constant time, and
// under [konvoy.Static] the time to count what each consumer ran since it
// last reported, as Stats does.
func (x *Executor[T]) Room() (int, error) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if err := x.refusal(); err != nil {
		return 0, err
	}
	x.settleAll()
	return max(x.maxHeld-x.held-x.pending, 0), nil
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
	seq int
}

// Lanes returns up to n of the lanes that have items held now, the
// longest current wait first (see [LaneStat]; among equal waits, the lane
// whose waiting item was submitted first, and the lanes with none waiting
// last, by name); none for n ≤ 0. Items without a lane, and items the
// resequencer holds for a gap (in no lane until released), are in none.
// An executor remembers only the lanes with items held, so a lane drained
// is gone from the answer.
//
// It holds the executor up for O(p + s) time, for p the most lanes and s
// the most items held at once, and then takes O(m log m) time and O(m)
// memory for the m lanes held now. Under [konvoy.Static], which keeps no lanes, it instead
// copies the items held under the lock and asks the layout their lanes
// after, calling the event function once for each.
func (x *Executor[T]) Lanes(n int) []LaneStat {
	if n <= 0 {
		return nil
	}
	now := x.now() // before the lock, as Submit reads it
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
	x.mu.Lock()
	defer x.mu.Unlock()
	var out []laneStat
	for ln := range x.laneAt {
		l := &x.laneAt[ln]
		if j, ok := x.lanes.find(x.laneAt, l.name, l.hash); !ok || j != int32(ln) {
			continue // a lane freed, forgotten
		}
		s := laneStat{LaneStat: LaneStat{Lane: l.name, Running: l.busy}}
		first := int64(0)
		for i := l.head; i >= 0; i = x.slots[i].laneNext {
			if sl := &x.slots[i]; s.Held == 0 || sl.seq < s.seq {
				first, s.seq = sl.submitted, sl.seq
			}
			s.Held++
		}
		if s.Held > 0 {
			s.Wait = time.Duration(max(now-first, 0))
		}
		out = append(out, s)
	}
	return out
}

// heldItem is an item held, copied out of the lock by ownedLanes.
type heldItem[T any] struct {
	item      T
	seq       int
	submitted int64
	started   bool
}

// ownedLanes returns a LaneStat, at time now, for each lane with items
// held under Static: it copies the items held in the consumers' queues and
// running, and asks their lanes outside the lock.
func (x *Executor[T]) ownedLanes(now int64) []laneStat {
	var items []heldItem[T]
	x.mu.Lock()
	for w := range x.inboxes {
		c := &x.inboxes[w]
		c.mu.Lock()
		for _, e := range c.q[c.head:] {
			items = append(items, heldItem[T]{e.item, e.seq, e.submitted, false})
		}
		if c.running {
			items = append(items, heldItem[T]{item: c.cur, started: true})
		}
		c.mu.Unlock()
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
