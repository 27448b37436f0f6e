package live

import (
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
	// items still held when Close returned (0 before).
	Duplicates, Buffered, MaxBuffered, MaxKeyBuffered, NeverApplied int
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
	}
}
