// Package live runs real handlers under the layouts and policies that
// package konvoy simulates, so that a layout planned with the simulator
// can be run as planned, and a run checked against the simulator's
// prediction.
//
// # Which API to use
//
//   - [New] makes an [Executor] for items of any type: a [konvoy.Layout]
//     says which lane each item runs in (from the [konvoy.Event] the
//     item's event function gives: Key, Line, Step, Partition), consumers
//     how many handlers run at once. Two items of one lane never run at
//     once and run in the order they were submitted; items without a lane
//     (the free layout, an empty Key, a history-only step under the
//     selective convoy) run in any order.
//   - [Executor.Submit] hands an item over, waiting while the executor
//     holds [WithMaxHeld] items, and [Executor.SubmitAll] a batch, as a
//     source read in batches has them (a lock for each 64 items, and one
//     clock reading unless it waits for room);
//     [Executor.Close] takes no more and runs what it holds, or, when its
//     context ends first, cancels the handlers and reports the items that
//     did not run ([UnrunError]).
//   - [WithPolicy] chooses how a free consumer picks its next item, as
//     [konvoy.Policy] defines: [konvoy.LaneAware], the default, takes the
//     oldest item whose lane is idle; [konvoy.HeadOfLine] takes the next
//     item in submission order and waits while its lane is busy (the
//     blocking of a naive keyed pool, measured in [Stats].Blocked);
//     [konvoy.Static] runs each lane on the consumer its assignor deals it
//     to ([WithAssignor]), which runs its lanes' items one at a time, in
//     submission order, as a goroutine per partition does (a consumer is
//     one goroutine, whatever its lanes).
//   - [WithRetry] tries a failed item again after a backoff while its lane
//     waits; [WithDeadLetter] takes an item whose last attempt failed, and
//     its lane moves on. Without a dead letter a failed item stops the
//     executor: no later item runs, and Close returns the failure
//     ([ItemError], [ErrStopped]). A handler's panic is an error
//     ([PanicError]); one that calls runtime.Goexit, as t.FailNow does,
//     fails its item at once and stops the executor ([ErrGoexit]).
//   - [Executor.Stats] gives the measures at any time, named as in
//     [konvoy.Result]: items done, in flight and held, errors, retries,
//     dead letters, stale steps skipped, what the resequencer held,
//     skipped and rejected, wait and response percentiles in nanoseconds,
//     the head-of-line blocked time; [Executor.Lanes] the lanes with items
//     held now, longest current wait first.
//   - [WithOffsets] tells where items came from, for sources with offsets
//     such as a Kafka topic; [Executor.Completion] then gives, per source
//     partition, the committable offset, below which every item has
//     finished, and the finished offsets above it; [Executor.Forget]
//     drops a partition given up once its items have finished.
//   - [Consumer] tells a handler which consumer runs it; [WithGuard]
//     brackets each attempt, for a runtime built on the executor that may
//     drop an item it no longer owns, as package kafka does a revoked
//     partition's records.
//
// # Guarantees and costs
//
// Lanes are the simulator's own ([konvoy.Layout.Lane]), and under Static a
// lane's consumer is the simulator's ([konvoy.Layout.Owner]). An
// executor's memory grows with the items it holds, at most WithMaxHeld,
// and the lanes they are in: a lane with no item held is forgotten, except
// that Static with lanes dealt in the order first seen (all but the
// partitions of [konvoy.Partitioned] and [konvoy.Recorded]) remembers every
// lane's number, as the simulator does. Submit takes O(1) time and
// allocates nothing in steady state. No lock is common to Submit and every
// consumer for every item: items that can start wait in a queue that
// consumers pop without a lock, lanes are in shards by hash each with its
// own lock (under LaneAware a lane of one item in a slot that only Submit
// writes, its finish passed back through a ring), and each consumer counts
// what it ran on its own (see [Executor.Stats]).
//
// Under [konvoy.VersionStamp] items run free, and a [VersionStore]
// ([WithVersions], [MemoryVersions] by default) is asked about each item
// once its handler has returned: an item whose step is below its key's
// version then, a lower step that finished after a higher one, is stale,
// as the model's version stamp, applying events in the order they finish,
// says, and counts in [Stats].Skipped. A [VersionReader] also skips,
// unrun, an item whose key is past its step before it starts.
// [VersionStore]'s doc shows the compare-and-set in SQL that the
// handler's write must make.
//
// Under [konvoy.Resequencer] each key's steps apply 1, 2, 3, … in order,
// as the lesson's resequencer (the zero [konvoy.ResequencerConfig]) does:
// an item whose step is its key's next runs in the key's lane, followed by
// the items held for the steps after it; an item further ahead is held,
// not run, until the gap fills; a step the key has released or holds
// already is a duplicate, discarded. History-only items (Step 0) and items
// with an empty Key run free. Held items count against WithMaxHeld, so
// that gaps that never fill can fill the executor, and Submit then returns
// an error wrapping [ErrGapsFull]; Close reports the items whose gap never filled
// ([ErrNeverApplied]). [WithResequencer] runs the model's whole
// configuration: where keys start, a timeout in wall time and a capacity,
// which release held items with their gaps skipped, and whether an old
// step is rejected or run, backward; each key's items then run in the
// order the model applies them, counted in [Stats] as the model counts
// them. The resequencer remembers each key's last step, so its memory
// grows with the keys.
//
// No goroutine of an executor outlives Close, which waits for handlers
// that ignore their context. An executor that is never closed keeps its
// consumers' goroutines.
package live
