package kafka

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/live"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
)

// Defaults of the options.
const (
	// DefaultCommitInterval is how often a running consumer commits, unless
	// [WithCommitInterval] says otherwise.
	DefaultCommitInterval = 5 * time.Second
	// DefaultRevokeTimeout is the longest a revocation waits for the
	// revoked partitions' running handlers, unless [WithRevokeTimeout]
	// says otherwise: half franz-go's default rebalance timeout of 60 s,
	// so that the member is not thrown out of the group while it waits
	// and commits. A client given a rebalance timeout of 60 s or less
	// ([kgo.RebalanceTimeout]) waits half of that instead.
	DefaultRevokeTimeout = 30 * time.Second
	// DefaultCloseTimeout is the longest [Consumer.Run], once its context
	// ends, waits for the records it holds to finish, unless
	// [WithCloseTimeout] says otherwise.
	DefaultCloseTimeout = 30 * time.Second
)

// Option changes how [New] makes a consumer.
type Option func(*config)

// config is what the options set.
type config struct {
	commitEvery, revokeWait, closeWait time.Duration
	revokeSet                          bool // WithRevokeTimeout was given
	exec                               []live.Option
	maxHeld                            int
	dead                               func(context.Context, *kgo.Record, error) error
	deadTopic                          string // WithDeadLetterTopic's
	errs                               []error
	// Test hooks: blocked is called with what a pause covers, revoking
	// once a revocation stopped its partitions, throttling when a
	// partition is throttled from offset on, commitSent per partition a
	// commit sent, with its offset and metadata, and commitRead with the
	// partitions a commit read, before it waits for franz-go's turn.
	blocked, revoking func(map[string][]int32)
	throttling        func(topic string, partition int32, offset int64)
	commitSent        func(tp topicPartition, offset int64, metadata string)
	commitRead        func(tps []topicPartition)
}

// WithCommitInterval sets how often the consumer commits, per partition,
// the offset below which every record has finished; d must be above 0.
// Commits also happen on revocation and when Run ends. A commit of an
// offset already committed is not sent again.
func WithCommitInterval(d time.Duration) Option {
	return func(c *config) {
		if d <= 0 {
			c.errs = append(c.errs, fmt.Errorf("WithCommitInterval(%v): want a duration above 0", d))
		}
		c.commitEvery = d
	}
}

// WithRevokeTimeout sets the longest a revocation waits for the handlers
// still running records of the revoked partitions before it commits and
// lets the rebalance go on; d must be above 0 and below the client's
// rebalance timeout ([kgo.RebalanceTimeout], 60 s by default), which New
// checks: a member that waits longer is thrown out of the group while
// it waits, and its partitions' new owners handle the records its
// handlers still run. A handler still running once d has passed may run
// at the same time as the partition's new owner handles the same key:
// keep d above the longest handler (with its retries and dead letter),
// with room below the rebalance timeout for the commit that follows.
func WithRevokeTimeout(d time.Duration) Option {
	return func(c *config) {
		if d <= 0 {
			c.errs = append(c.errs, fmt.Errorf("WithRevokeTimeout(%v): want a duration above 0", d))
		}
		c.revokeWait, c.revokeSet = d, true
	}
}

// WithCloseTimeout sets the longest [Consumer.Run], once its context ends,
// waits for the records held to finish before it cancels their handlers,
// a revocation's among them when one is going on; d must be above 0.
// Records that did not finish are not committed, and are read again by
// the partition's next owner.
func WithCloseTimeout(d time.Duration) Option {
	return func(c *config) {
		if d <= 0 {
			c.errs = append(c.errs, fmt.Errorf("WithCloseTimeout(%v): want a duration above 0", d))
		}
		c.closeWait = d
	}
}

// WithExecutor passes options to the [live.Executor] that runs the
// records: [live.WithPolicy], [live.WithAssignor], [live.WithMaxHeld],
// [live.WithRetry], and so on. Use [WithMaxHeld] and [WithDeadLetter]
// rather than live's own: the consumer sets the executor's offsets and
// most items held itself, replacing live.WithOffsets and live.WithMaxHeld,
// and New refuses a live.WithDeadLetter or a live.WithGuard, whose item
// type is not the consumer's (the consumer's own guard keeps revoked
// records from running).
func WithExecutor(opts ...live.Option) Option {
	return func(c *config) {
		for i, o := range opts {
			if o == nil { // named here: live.New would count the consumer's own options before it
				c.errs = append(c.errs, fmt.Errorf("WithExecutor: option %d is nil", i))
			}
		}
		c.exec = append(c.exec, opts...)
	}
}

// WithMaxHeld sets the most records the consumer holds at once, running,
// waiting, or finished above a record not finished; it passes n to
// [live.WithMaxHeld] after any given through [WithExecutor], whose value
// it replaces (though one out of range there is still refused). When
// that many are held, fetching pauses until records finish. The default
// is [live.DefaultMaxHeld].
func WithMaxHeld(n int) Option {
	return func(c *config) { c.maxHeld = n } // live.WithMaxHeld checks n
}

// WithDeadLetter sets the function that takes a record whose last attempt
// failed (see [live.WithDeadLetter]); once it returns nil the record counts
// as finished, and its offset may be committed. A revocation waits for it
// as for a handler; once the record's partition was revoked it is not
// called (the next owner reads the record again). Without it a failed record
// stops the consumer: [Consumer.Run] returns the failure, having committed
// only the offsets below it; unless the record's partition was revoked or
// lost by the time its last attempt failed: the record is then dropped,
// as a revoked partition's records not started are, and the next owner
// reads it again. A dead letter that returns an error does as a failed
// record without one: it stops the consumer, with its error and the
// record's, or drops the record of a partition revoked or lost by then.
// A record whose event the executor refuses for what it holds (see
// [live.Executor.Submit]: a Step below 0, or no Line under a line layout)
// fails with that refusal, a [*konvoy.EventError], its handler not
// called, and runs in no lane: under a dead letter it is retried and
// dead-lettered as a failed record is; without one Run returns its
// refusal, having committed only the offsets below it. A Partition that
// [konvoy.Recorded] lacks stops Run, dead letter or not: it tells a
// layout that does not fit the topic.
// New refuses it together with
// [WithDeadLetterTopic].
func WithDeadLetter(f func(ctx context.Context, r *kgo.Record, err error) error) Option {
	return func(c *config) {
		if f == nil {
			c.errs = append(c.errs, errors.New("WithDeadLetter: the function is nil"))
		}
		c.dead = f
	}
}

// Consumer is a member of a Kafka consumer group that runs every record it
// is assigned through one [live.Executor]: records of one lane of the
// layout run in offset order and never two at once, at most as many as
// the executor's consumers run at once, and a handler's error follows the
// executor's retries and dead letter ([WithDeadLetter] or
// [WithDeadLetterTopic]).
//
// Per partition it commits the offset below which every record has
// finished (handled or dead-lettered), so that a commit never skips a
// record: every [WithCommitInterval], when partitions are revoked, and
// when Run ends. With the offset it commits, as metadata, the offsets above
// it whose records finished ([Finished.Metadata]); a member assigned the
// partition reads that metadata back and does not run those records
// again, unless the log has diverged below the highest of them since (the
// commit carries that record's leader epoch, which the member checks with
// the partition's leader: see [CommitStats].Diverged). The other records
// above a record still running are read again by the partition's next
// owner after a rebalance or a crash, and all of them when the metadata
// cannot be read (it counts as none): delivery is at least once.
//
// So that the metadata always fits in Kafka's default limit
// ([MaxMetadata]), a partition's records are taken only up to [Reach] of
// its committable offset, about 24,500 offsets above it: a record further
// up throttles the partition. Fetching it pauses (PauseFetchPartitions)
// and its fetch offset is set back to that record (SetOffsets), so that
// the records polled past it are dropped and fetched again in order,
// holding no room, once Reach of the committable offset is 1,024 offsets
// past that record, or every record taken has finished; the other
// partitions go on meanwhile. A record waiting on a lane busy with
// another partition's record is held, so the committable offset moves as
// soon as that record runs. (Were the metadata too long all the same, as
// when it also carries the runs named by the commit the assignment
// started from, the offset would be committed alone, and those records
// run again.)
//
// Rebalances go on only between polls (kgo.BlockRebalanceOnPoll), never
// while records of a poll are being handed to the executor. When
// partitions are revoked, their records held and not started are not run
// (the next owner reads them again), the handlers running their records
// are waited for ([WithRevokeTimeout]), and then their offsets are
// committed, before the rebalance goes on: a partition is never handled by
// two members at once unless a handler outlasts that timeout. When
// partitions are lost, their records held are not run and nothing is
// committed. When the executor holds [WithMaxHeld] records, fetching
// pauses (PauseFetchPartitions) until records finish: memory grows with
// the records held, not with the backlog. A data loss franz-go reports
// ([kgo.ErrDataLoss], as after an unclean leader election) does not stop
// it: fetching goes on from where franz-go reset the partition, or from
// the first record not finished when that is lower, and records fetched
// again run again ([CommitStats].DataLoss, Reset).
//
// Costs: each poll asks the executor for its [live.Executor.Room], in
// time in proportion to its consumers, and reads the client's paused
// partitions; each partition a poll returns records of is looked up once,
// reads its [live.Executor.Committable] once, and hands its records to
// [live.Executor.SubmitAll] at once, whatever the number of records; a
// record then costs the consumer constant time (O(log r) for an
// assignment that started from a commit naming r runs of finished
// offsets), no allocation and no lock shared by handlers (but the
// executor's own);
// each throttle fetches again the records polled past the throttled one,
// and those franz-go buffered for the other partitions (SetOffsets
// restarts its fetch session); franz-go's buffered fetches are outside
// WithMaxHeld (kgo.FetchMaxBytes and kgo.FetchMaxPartitionBytes bound
// them, before decompression): franz-go keeps a fetch, decoded, until the
// last of its records is polled, and a record held keeps its batch, so
// for small records that compress well its defaults (1 MiB a partition,
// 50 MiB a fetch) can take far more memory than WithMaxHeld records
// (konvoy replay, with kgo.FetchMaxBytes(1 MiB), measured a third of
// it: docs/replay.md);
// each assignment fetches the group's committed offsets, checks the
// finished offsets their metadata names against the log (where a commit's
// leader epoch ends, or the log's end for one of none, asked of the
// partitions' leaders for those partitions alone; 10 s at most for it
// all), and keeps their runs; each commit encodes the metadata, in time
// proportional to the finished offsets; an assignment given up is forgotten by the executor
// once its records held have settled ([live.Executor.Forget]), so memory
// follows the partitions assigned, not the rebalances.
//
// A Consumer runs once: make it with [New], then call [Consumer.Run]. New
// starts the client, which joins the group; to release a consumer that is
// not to consume, call [Consumer.Close]. Run, [Consumer.CaughtUp] and
// [Lag] panic, with a "kafka:" prefix, when given a nil context, before
// they do anything.
type Consumer struct {
	cl     *kgo.Client
	x      *live.Executor[item]
	handle func(context.Context, *kgo.Record) error
	cfg    config
	state  atomic.Int32 // made, running (Run called) or closed (Close called first)

	mu       sync.Mutex
	assigned map[topicPartition]*part // the partitions owned now
	nextID   int                      // the executor partition of the next assignment
	retired  []int                    // executor partitions of assignments forgotten, for the executor to forget (see retire)
	idle     *sync.Cond               // signalled when a handler of a revoked partition returns
	// seats are the executor's consumers, by number (live.Consumer): what
	// each runs, and what it finished last.
	seats []seat

	commitMu sync.Mutex    // held through each commit, so commits never cross
	settled  chan struct{} // a token: a record settled, maybe room for more
	soon     chan struct{} // a token: commit now, not at the next tick (see commitSoon)
	batch    []item        // the poll loop's: a partition's records taken from one poll
	// resetTo is the client's kgo.ConsumeResetOffset, as assign last read
	// it, and assignedBy the client assign was called with, under mu (see
	// resetPastEnd).
	resetTo    kgo.Offset
	assignedBy *kgo.Client
	// refetch are the partitions whose fetch offset this poll set back
	// (see resetPart): the poll loop's, their records in it dropped.
	refetch map[topicPartition]bool

	// dropped counts the commits made without their metadata, too long
	// for Kafka (the throttle leaves none); unread, the assignments whose
	// committed metadata could not be fetched, read or checked against the
	// log (see checkDiverged); reset, those whose metadata was set aside
	// (see setAside) or whose fetching was reset below the records taken
	// (see resetPart). All mean records run again, never skipped.
	// diverged counts the assignments whose committed metadata named
	// finished records of a log that has diverged since (see
	// checkDiverged); dataLoss franz-go's reports of records lost from a
	// log (see fetchError); throttled the times a partition was throttled
	// (see taken).
	dropped, unread, reset, diverged, dataLoss, throttled atomic.Int64
	// commits counts the commits sent, under its lock (see Commits).
	commits struct {
		sync.Mutex
		sent, failed int
		last         error
		lastMeta     error // see noteMetadata
	}
	// markers counts the transactions' markers taken, markersDone those
	// finished (see enterAs): Stats leaves them out.
	markers, markersDone atomic.Int64
	// ending is set for Run's last commit (see pending).
	ending atomic.Bool
}

// topicPartition names a partition of a topic.
type topicPartition struct {
	topic     string
	partition int32
}

// part is one assignment of a partition to this member. Its id is the
// executor's partition number for it: a partition assigned again gets a
// new id, since it is read again from its committed offset, below the
// offsets the executor saw. Its fields but id, tp and revoked are
// guarded by Consumer.mu.
type part struct {
	id int
	tp topicPartition
	// revoked is set, under Consumer.mu, once no more of its records may
	// start; atomic, so that a handler takes no lock to start (see seat).
	revoked   atomic.Bool
	skipFrom  int64 // the lowest offset not run because it was revoked, or -1
	committed int64 // the offset last committed, or -1
	// committedMeta is the metadata last committed.
	committedMeta string
	// prior is what the commit this assignment started from names
	// finished: those records are not run again. Set before the part is
	// shared, it changes only when the assignment's first record comes
	// from below that commit (see setAside), before any record of the part
	// reaches the executor; handlers read it without a lock after that.
	prior Finished
	// priorEpoch is the leader epoch that commit carries: of the highest
	// offset prior names finished (see pending), or -1 when unknown.
	priorEpoch int32
	// priorCut bounds prior: 0 for none, or 1 + the offset from which
	// nothing prior names counts finished, set by the poll loop at a
	// record that prior names finished but that was written after that
	// commit (see noteRewritten); read without a lock.
	priorCut atomic.Int64
	// last is the highest offset submitted, or -1, and stoppedAt the
	// offset from which the partition is throttled, or -1 (see taken);
	// only the poll loop's goroutine touches them once the part is
	// assigned.
	last, stoppedAt int64

	// skipped are the offsets not run because it was revoked: the
	// executor counts them finished, so commits must not.
	skipped []int64
	// late are the offsets whose handler or dead letter finished once it
	// was revoked, which the executor may not count finished yet when
	// the revocation commits.
	late []int64
	// epochs are the leader epochs of the records read, each from
	// the offset of the first record of it on, in offset order, for
	// commits to carry the epoch of the record below the offset they
	// commit (see epochBelow), or of the highest their metadata names
	// finished (see epochOf); appended by the poll loop and read by
	// commits under Consumer.mu, and pruned below the last commit. So the
	// slice grows with the leader changes, not with the records.
	epochs    []epochFrom
	notedTo   atomic.Int64 // the highest offset whose epoch is noted, or -1
	lastEpoch int32        // the epoch noted last, or noEpoch: the poll loop's
	// gone is set once the assignment is forgotten (revoked or lost): a
	// commit that gathered it before then, and waited for commitMu, must
	// not commit it, since the partition's next owner may have committed
	// since.
	gone bool
	// resetFrom is, for an assignment resetPart started, the offset it
	// set fetching back to, and resetEpoch the leader epoch of the record
	// below it (for one whose first record setAside found below the
	// group's commit, that record's offset, and -1; for one whose commit
	// assign found past the log's end, 0 or where a reset to the end starts (see pastEnd), and -1):
	// committed with no metadata until the assignment has records of its
	// own, so that the old commit, whose metadata may name offsets of the
	// log before it diverged, never stands (see pending). -1 otherwise.
	resetFrom  int64
	resetEpoch int32
	// resetGen counts the resets that set resetFrom; landedGen is the
	// count as of the last commit of the assignment that landed, and
	// sentGen as of the one in flight: the group's commit may be the old
	// one while they differ (see resetUncommitted), and a commit gathered
	// before a later reset does not count for it.
	resetGen, sentGen, landedGen int
	// from is the group's committed offset the assignment started from,
	// -1 for none or unknown: a first record below it means fetching did
	// not resume there (see setAside). stale is, until resetPastEnd has
	// run, the committed offset assign found past the log's end, which
	// that hook replaces, or, when unlisted, could not list the end of; -1
	// otherwise. named tells that the commit has metadata.
	from, stale     int64
	unlisted, named bool
}

// epochFrom is a leader epoch of a partition's records from offset on.
type epochFrom struct {
	offset int64
	epoch  int32
}

// noteEpoch notes the leader epoch of r, a record of p read after those
// noted, when it differs from the last noted: under Consumer.mu,
// seldom, as epochs change only with a partition's leader.
func (c *Consumer) noteEpoch(p *part, r *kgo.Record) {
	if p.lastEpoch == r.LeaderEpoch {
		return
	}
	p.lastEpoch = r.LeaderEpoch
	c.mu.Lock()
	p.epochs = append(p.epochs, epochFrom{r.Offset, r.LeaderEpoch})
	c.mu.Unlock()
}

// noteEpochs notes the leader epochs of b, p's records about to be
// submitted, before they run, for a commit made as soon as one finishes
// (see commitEpoch); those of records the executor does not take are the
// log's all the same.
func (c *Consumer) noteEpochs(p *part, b []item) {
	for _, it := range b {
		c.noteEpoch(p, it.r)
		if p.priorEpoch >= 0 && it.r.LeaderEpoch > p.priorEpoch && p.priorDone(it.r.Offset) {
			c.noteRewritten(p, it.r)
		}
	}
	if len(b) > 0 {
		p.notedTo.Store(b[len(b)-1].r.Offset)
	}
}

// noteRewritten takes nothing of what the commit p started from names
// finished as finished from r's offset on, counting a divergence: r, at
// an offset that commit names finished, is of a leader epoch after the
// commit's, the epoch of the highest record it names, so the log was cut
// below r and grown again since the commit (an unclean leader election),
// after the assignment's check (checkDiverged) and above the fetch
// position, whose check by franz-go finds nothing: r and the records
// after it are new, and they run. It runs on the poll loop before r is
// submitted, so that r's run reads the lowered bound.
func (c *Consumer) noteRewritten(p *part, r *kgo.Record) {
	p.priorCut.Store(r.Offset + 1) // records come in offset order: the first is the lowest
	c.diverged.Add(1)
	c.noteMetadata(p.tp.topic, p.tp.partition, fmt.Errorf("%w: the record at offset %d, which its metadata names finished, is of leader epoch %d, after the commit's %d; "+
		"the records from offset %d run", ErrDiverged, r.Offset, r.LeaderEpoch, p.priorEpoch, r.Offset))
}

// noEpoch is a part's lastEpoch before any: no record's.
const noEpoch = math.MinInt32

// epochBelow returns, under Consumer.mu, the leader epoch of p's record
// below offset at, which a commit of at carries (as franz-go's own
// commits do, for the next owner to check that the log was not cut and
// grown again past it: KIP-320), or -1 when no record below at was
// read; and forgets the epochs of the records below that one's.
func (p *part) epochBelow(at int64) int32 {
	i := len(p.epochs) - 1
	for i >= 0 && p.epochs[i].offset >= at {
		i--
	}
	if i < 0 {
		return -1
	}
	p.epochs = p.epochs[i:]
	return p.epochs[0].epoch
}

// epochOf returns, under Consumer.mu, the leader epoch of p's record at
// offset, at or above the record below its last commit, as the epochs
// noted say it: that of the last record noted when offset is above it,
// and -1 when no record at or below offset was noted.
func (p *part) epochOf(offset int64) int32 {
	for i := len(p.epochs) - 1; i >= 0; i-- {
		if p.epochs[i].offset <= offset {
			return p.epochs[i].epoch
		}
	}
	return -1
}

// newPart returns the assignment numbered id (its executor partition) of
// tp, whose records the prior commit's metadata marked finished: nothing
// submitted, run, committed or throttled yet.
func newPart(id int, tp topicPartition, prior Finished) *part {
	p := &part{id: id, tp: tp, prior: prior, priorEpoch: -1, skipFrom: -1, committed: -1, last: -1, stoppedAt: -1,
		lastEpoch: noEpoch, resetFrom: -1, from: -1, stale: -1}
	p.notedTo.Store(-1)
	return p
}

// priorDone tells whether the commit p started from names offset o
// finished, above its committed offset and below priorCut's offset: the
// record there is not run again.
func (p *part) priorDone(o int64) bool {
	cut := p.priorCut.Load()
	return o > p.prior.Committable() && (cut == 0 || o < cut-1) && p.prior.Done(o)
}

// priorKept returns, under Consumer.mu, what p counts finished of the
// commit it started from: prior, below priorCut's offset.
func (p *part) priorKept() Finished {
	if cut := p.priorCut.Load(); cut > 0 {
		return p.prior.below(cut - 1)
	}
	return p.prior
}

// ended is a record whose handler or dead letter finished.
type ended struct {
	p      *part
	offset int64
}

// seat is one of the executor's consumers, as the consumer sees it; a
// handler writes only its own seat, so that records cost no lock or cache
// line shared by handlers (seats are padded apart).
//
// on is the assignment whose record the consumer runs now, from begin to
// end, or nil: begin sets it before it reads the part's revoked, and a
// revocation sets revoked before it reads the seats (awaitIdle), so
// either begin sees the revocation or the revocation waits for the
// record.
//
// last, guarded by mu, is the record whose handler or dead letter
// finished last on the consumer: the executor takes a handler's result
// after it returns, so a commit made just then may not see it in
// Completion, and counts it finished too. A consumer takes no other
// record before the executor took its result, so a record stays in its
// seat until Completion counts it (pending reads seats first).
type seat struct {
	on   atomic.Pointer[part]
	mu   sync.Mutex
	last ended
	_    [32]byte
}

// item is what the executor holds: a record and its assignment, and,
// for a record whose event the executor refused, under a dead letter, the
// refusal, with which the record then runs free and fails (see submit).
type item struct {
	r       *kgo.Record
	p       *part
	refused error
}

// New returns a consumer that joins the group the client options name
// (kgo.ConsumerGroup and kgo.ConsumeTopics among opts) and runs each record
// with handle, in the lane that layout gives event(record), on consumers
// handlers at once (see [live.New]). It adds to opts the options it needs:
// kgo.DisableAutoCommit, kgo.BlockRebalanceOnPoll, kgo.KeepControlRecords
// (a transaction's markers count as finished without reaching event or
// handle, so that commits, and the group's lag, pass them), the
// partition hooks (OnPartitionsAssigned, OnPartitionsRevoked,
// OnPartitionsLost) and kgo.AdjustFetchOffsetsFn, which replace any
// given: the last starts a partition whose commit, of no leader epoch,
// lies past the log's end where kgo.ConsumeResetOffset says, as franz-go
// does an offset out of range, though the log grew past the commit before
// the first fetch. handle must return nil once the record is done; an
// error is retried and dead-lettered as the options say.
//
// New refuses [konvoy.Resequencer]: it keeps each key's steps in one
// member's memory, so a partition revoked and read again, by this member
// or another, would find the key's state ahead of the records read again
// and discard them unrun, or hold them for steps already applied. The
// version stamp, whose [live.VersionStore] can be shared, keeps a key's
// order across members.
//
// New returns an error when an argument or option is bad, as [live.New]
// does, when the client cannot be made, when opts name no consumer group
// (kgo.ConsumerGroup), when the client reads [WithDeadLetterTopic]'s topic, or when
// [WithRevokeTimeout] is not below the client's rebalance timeout.
func New(opts []kgo.Opt, layout konvoy.Layout, consumers int, event func(*kgo.Record) konvoy.Event,
	handle func(ctx context.Context, r *kgo.Record) error, options ...Option) (*Consumer, error) {
	c := &Consumer{
		handle: handle, assigned: map[topicPartition]*part{},
		settled: make(chan struct{}, 1), soon: make(chan struct{}, 1),
		cfg: config{maxHeld: live.DefaultMaxHeld, commitEvery: DefaultCommitInterval, revokeWait: DefaultRevokeTimeout, closeWait: DefaultCloseTimeout},
	}
	c.idle = sync.NewCond(&c.mu)
	for i, o := range options {
		if o == nil {
			return nil, fmt.Errorf("kafka: New: option %d is nil", i)
		}
		o(&c.cfg)
	}
	if c.cfg.dead != nil && c.cfg.deadTopic != "" {
		c.cfg.errs = append(c.cfg.errs, errors.New("WithDeadLetter and WithDeadLetterTopic: give one"))
	}
	if len(c.cfg.errs) > 0 {
		return nil, fmt.Errorf("kafka: New: %w", errors.Join(c.cfg.errs...))
	}
	if event == nil || handle == nil {
		return nil, errors.New("kafka: New: the event and handle functions must not be nil")
	}
	if layout.Equal(konvoy.Resequencer) {
		return nil, errors.New("kafka: New: layout resequencer: a member's per-key steps do not survive a rebalance; use version-stamp")
	}
	x, err := c.executor(layout, consumers, event)
	if err != nil {
		return nil, fmt.Errorf("kafka: New: %w", err)
	}
	c.x = x
	c.seats = make([]seat, consumers) // live.New accepted consumers
	all := append(append([]kgo.Opt(nil), opts...),
		kgo.DisableAutoCommit(), kgo.BlockRebalanceOnPoll(), kgo.KeepControlRecords(),
		kgo.OnPartitionsAssigned(c.assign), kgo.OnPartitionsRevoked(c.revoke), kgo.OnPartitionsLost(c.lose),
		kgo.AdjustFetchOffsetsFn(c.resetPastEnd))
	cl, err := kgo.NewClient(all...)
	if err == nil {
		if err = c.fitClient(cl); err != nil {
			cl.Close()
		}
	} else if !namesGroup(opts) {
		err = errors.New("want kgo.ConsumerGroup among the client options: a Consumer is a member of a consumer group, which its commits are for")
	}
	if err != nil {
		_ = x.Close(context.Background())
		return nil, fmt.Errorf("kafka: New: %w", err)
	}
	c.cl = cl
	return c, nil
}

// namesGroup tells whether opts, with which the client New makes was
// refused, name a consumer group, which franz-go's refusal of the
// options New adds (kgo.DisableAutoCommit) does not say: a client of opts
// alone, made to read its options and closed at once, tells.
func namesGroup(opts []kgo.Opt) bool {
	cl, err := kgo.NewClient(opts...)
	if err != nil {
		return true // refused for some other reason, which New reports
	}
	defer cl.Close()
	group, _ := cl.OptValue(kgo.ConsumerGroup).(string)
	return group != ""
}

// fitClient checks the options against what the client was made with,
// for New: WithDeadLetterTopic's topic must not be one the client reads,
// and WithRevokeTimeout must be below the rebalance timeout.
func (c *Consumer) fitClient(cl *kgo.Client) error {
	if c.cfg.deadTopic != "" && readsTopic(cl, c.cfg.deadTopic) {
		return fmt.Errorf("WithDeadLetterTopic(%q): the consumer reads that topic, and would run its dead letters again", c.cfg.deadTopic)
	}
	if rebalance, ok := rebalanceTimeout(cl); ok && c.cfg.revokeSet && c.cfg.revokeWait >= rebalance {
		return fmt.Errorf("WithRevokeTimeout(%v): want a duration below the client's rebalance timeout, %v (kgo.RebalanceTimeout): the group throws out a member that waits so long", c.cfg.revokeWait, rebalance)
	}
	return nil
}

// revokeTimeout returns the longest a revocation of cl's waits for its
// handlers: WithRevokeTimeout's, or DefaultRevokeTimeout, at most half
// cl's rebalance timeout. It reads cl's options, which New's client
// hooks may do before New returns, rather than a value New writes after
// the client started.
func (c *config) revokeTimeout(cl *kgo.Client) time.Duration {
	if rebalance, ok := rebalanceTimeout(cl); ok && !c.revokeSet {
		return min(c.revokeWait, rebalance/2)
	}
	return c.revokeWait
}

// rebalanceTimeout returns cl's rebalance timeout (kgo.RebalanceTimeout),
// and false when cl does not say it.
func rebalanceTimeout(cl *kgo.Client) (time.Duration, bool) {
	d, ok := cl.OptValue(kgo.RebalanceTimeout).(time.Duration)
	return d, ok
}

// executor makes the executor that runs the records.
func (c *Consumer) executor(layout konvoy.Layout, consumers int, event func(*kgo.Record) konvoy.Event) (*live.Executor[item], error) {
	var opts []live.Option
	dead := c.cfg.dead
	if c.cfg.deadTopic != "" {
		dead = c.produceDead // c.cl is set by the time a record fails
	}
	if dead != nil {
		// The guard brackets the dead letter as it does a handler: a
		// revocation waits for it, and after one it does not run (the next
		// owner reads the record again), so that, unless it outlasts
		// WithRevokeTimeout, a record is never dead-lettered by two members.
		opts = append(opts, live.WithDeadLetter(func(ctx context.Context, it item, err error) error {
			return dead(ctx, it.r, err)
		}))
	}
	// A user's live.WithDeadLetter or live.WithGuard, placed after the
	// consumer's, replaces it, and live.New refuses it: its item is not
	// the consumer's. Placed last, these replace a user's live.WithOffsets
	// and live.WithMaxHeld.
	opts = append(opts, live.WithGuard(c.enter, c.exit))
	opts = append(opts, c.cfg.exec...)
	opts = append(opts, live.WithOffsets(func(it item) (int, int64) { return it.p.id, it.r.Offset }),
		live.WithMaxHeld(c.cfg.maxHeld))
	return live.New(layout, consumers, func(it item) konvoy.Event {
		if it.r.Attrs.IsControl() {
			return konvoy.Event{} // runs in no lane, and is not run: see enterAs
		}
		if it.refused != nil {
			return konvoy.Event{} // runs in no lane, and fails: see run
		}
		return event(it.r)
	}, c.run, opts...)
}

// run is the executor's handler: the consumer's, on the record, which the
// guard let run (see enter).
func (c *Consumer) run(ctx context.Context, it item) (err error) {
	defer func() {
		if v := recover(); v != nil {
			err = &live.PanicError{Value: v, Stack: debug.Stack()}
		}
		if err != nil {
			err = &recordError{it.r, err}
		}
	}()
	if it.refused != nil {
		return it.refused
	}
	return c.handle(ctx, it.r)
}

// recordError is a handler's error, or its panic's, on record r: so Run's
// error names the record, by [Where], where the executor's names its item
// number.
type recordError struct {
	r   *kgo.Record
	err error
}

func (e *recordError) Error() string { return "kafka: record " + Where(e.r) + ": " + e.err.Error() }
func (e *recordError) Unwrap() error { return e.err }

// handlerError returns err, an attempt's, without the record that
// recordError names: the handler's own error.
func handlerError(err error) error {
	if re, ok := err.(*recordError); ok {
		return re.err
	}
	return err
}

// enter is the executor's guard before each attempt of a record, and
// before its dead letter (see [live.WithGuard]): enterAs, on the consumer
// ctx names. The guard comes before the version stamp's store, which thus
// never advances a key for a record that does not run.
func (c *Consumer) enter(ctx context.Context, it item) bool {
	return c.enterAs(c.consumer(ctx), it)
}

// enterAs tells whether the executor's consumer w may run the record,
// counting it as running (see begin). It may not when the record is a
// transaction's marker, or the commit its assignment started from names
// it finished (an offset above that commit's, when fetching resumed
// there: see setAside): it then counts as finished without running. Nor
// when its partition was revoked or lost: the record
// is not run (its next owner reads it again) and its offset bounds what
// may be committed (see begin).
func (c *Consumer) enterAs(w int, it item) bool {
	if it.r.Attrs.IsControl() {
		c.markersDone.Add(1)
		c.settle()
		return false
	}
	if it.p.priorDone(it.r.Offset) {
		c.settle()
		return false
	}
	return c.begin(w, it)
}

// exit is the executor's guard after each attempt of a record that enter
// let run, and after its dead letter: exitAs, on the consumer ctx names.
func (c *Consumer) exit(ctx context.Context, it item, err error) {
	c.exitAs(c.consumer(ctx), it, err)
}

// exitAs counts the record no longer running on consumer w (see end),
// finished when err is nil: handled, skipped as stale, or dead-lettered.
func (c *Consumer) exitAs(w int, it item, err error) {
	c.end(w, it, err == nil)
	if err == nil {
		c.settle()
	}
}

// consumer returns the number of the executor's consumer that runs the
// handler or dead letter given ctx, which indexes Consumer.seats. The
// executor gives every handler and dead letter such a context (see
// [live.Consumer]); were it not to, consumer panics, which the executor
// reports as the record's failure, rather than let a commit miss it.
func (c *Consumer) consumer(ctx context.Context) int {
	w, ok := live.Consumer(ctx)
	if !ok || w < 0 || w >= len(c.seats) {
		panic("konvoy: kafka: a handler's context names no consumer of the executor")
	}
	return w
}

// begin counts it.r as running on consumer w, so that a revocation
// waits for it, and returns true; unless its partition was revoked, in
// which case the record is not run: begin notes its offset as not run
// (the lowest of them bounds what may be committed, and none is committed
// as finished), settles it, and returns false. Unless the partition was
// revoked it takes no lock.
func (c *Consumer) begin(w int, it item) bool {
	p := it.p
	c.seats[w].on.Store(p)
	if !p.revoked.Load() {
		return true
	}
	c.mu.Lock()
	if p.skipFrom < 0 || it.r.Offset < p.skipFrom {
		p.skipFrom = it.r.Offset
	}
	p.skipped = append(p.skipped, it.r.Offset)
	c.mu.Unlock()
	c.leave(w, p) // once noted: the revocation's commit, waiting for the seat, sees the skip
	c.settle()
	return false
}

// end counts what begin counted as running on consumer w no longer
// running, finished or not, waking a revocation that waits for it. A
// record that finished is noted in w's seat, and, of a revoked partition,
// in late: a commit, the revocation's among them, may be made before the
// executor counts it finished. Unless the partition was revoked it takes
// no lock but w's seat's.
func (c *Consumer) end(w int, it item, finished bool) {
	p := it.p
	if finished {
		s := &c.seats[w]
		s.mu.Lock()
		s.last = ended{p, it.r.Offset}
		s.mu.Unlock()
		if p.revoked.Load() {
			c.mu.Lock()
			p.late = append(p.late, it.r.Offset)
			c.mu.Unlock()
		}
	}
	c.leave(w, p)
}

// leave empties consumer w's seat, which ran a record of p, and wakes a
// revocation that may wait for it. The broadcast is made under
// Consumer.mu, so that awaitIdle, which reads the seats under it, cannot
// miss it.
func (c *Consumer) leave(w int, p *part) {
	c.seats[w].on.Store(nil)
	if p.revoked.Load() {
		c.mu.Lock()
		c.idle.Broadcast()
		c.mu.Unlock()
	}
}

// settle tells the poll loop that a record finished, so there may be room.
func (c *Consumer) settle() {
	select {
	case c.settled <- struct{}{}:
	default:
	}
}

// The states of a Consumer: Run and Close each move it out of made, once.
const (
	made int32 = iota
	running
	closed
)

// errNotMade is Run's error when Run or Close was called before.
var errNotMade = errors.New("kafka: Run: called after Run or Close")

// Close releases a consumer whose Run was never called: it closes the
// executor and the client, which leaves the group (the client joins it as
// New makes it, and would hold its partitions unread). Run, called after
// Close, returns an error. Once Run was called, Close does nothing: Run
// releases both as it returns.
func (c *Consumer) Close() {
	if c.state.CompareAndSwap(made, closed) {
		_ = c.x.Close(context.Background()) // it holds no record: Run never submitted one
		c.cl.Close()
	}
}

// Run consumes until ctx ends or the executor stops on a failed record,
// then takes no more records, waits for those held ([WithCloseTimeout]),
// committing on the interval what finishes meanwhile as before, commits,
// and leaves the group, closing the client. It returns nil when ctx ended
// and every record held finished; otherwise the executor's failure
// ([live.ErrStopped], whose [live.ItemError] names the record by
// [Where]), the records that did not run (a [live.UnrunError] of
// *kgo.Record, wrapped in an error naming the first of them; a
// transaction's marker is none), a fetch error that is not retriable, or
// a commit's error, joined. Run must be called once: called again, or
// after Close, it returns an error and does nothing else. A panic of the
// event function reaches Run's caller, as it does
// [live.Executor.SubmitAll]'s, with no commit made for it, once Run has
// ended what it started (the executor, drained as above, and the client,
// which leaves the group): a handler's panic is an error (see
// [live.New]), the event function's a bug to fix.
func (c *Consumer) Run(ctx context.Context) error {
	if ctx == nil {
		panic("kafka: Run: ctx is nil; want a context, such as context.Background()")
	}
	if !c.state.CompareAndSwap(made, running) {
		return errNotMade
	}
	// The interval's commits go on while the executor drains, after ctx
	// ended: what finishes then is committed as it finishes, in case the
	// process is stopped for good before the drain ends. Once it has, a
	// commit of theirs still going on is cut short (errSuperseded): Run's
	// own commit takes over.
	commits, endCommits := context.WithCancelCause(context.WithoutCancel(ctx))
	defer endCommits(errSuperseded)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		c.commitEvery(commits)
	}()
	var closing sync.Once
	var closeErr error
	closeExecutor := func() { // once, and every caller returns when it is done
		closing.Do(func() {
			end, cancel := context.WithTimeout(context.WithoutCancel(ctx), c.cfg.closeWait)
			defer cancel()
			closeErr = c.x.Close(end)
		})
	}
	// The executor closes as soon as ctx ends, not once the poll loop sees
	// it: a revocation going on then holds the poll loop until the revoked
	// partitions' handlers return, which a handler that waits for its
	// context does only once Close, after WithCloseTimeout, cancels it.
	unhook := context.AfterFunc(ctx, closeExecutor)
	end := func() error { // ends what Run started but the client
		unhook()
		closeExecutor()
		endCommits(errSuperseded)
		wg.Wait()
		return closeErr
	}
	polled := false
	defer func() {
		if !polled { // poll panicked: the panic goes on once the member is gone
			_ = end()
			c.cl.CloseAllowingRebalance() // the poll that panicked blocked rebalances
		}
	}()
	err := c.poll(ctx)
	polled = true
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) || errors.Is(err, kgo.ErrClientClosed) ||
		errors.Is(err, live.ErrClosed) { // closed as ctx ended, while records were submitted
		err = nil
	}
	cerr := recordsUnrun(end())
	c.ending.Store(true)
	merr := c.commit(context.WithoutCancel(ctx))
	c.cl.CloseAllowingRebalance() // the final revoke commits nothing new
	return errors.Join(err, cerr, merr)
}

// commitEvery commits on the interval, and when asked (commitSoon), until
// ctx ends. A failed commit is made again at the next tick; but
// while an assignment that a data-loss reset started has no commit of its
// own (resetUncommitted), whose absence leaves standing a commit naming
// offsets of the log before it diverged, it is made again sooner: after
// commitRetry, doubling up to the interval.
func (c *Consumer) commitEvery(ctx context.Context) {
	t := time.NewTicker(c.cfg.commitEvery)
	defer t.Stop()
	again := time.NewTimer(time.Hour)
	again.Stop()
	defer again.Stop()
	pause := time.Duration(0)
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		case <-c.soon:
		case <-again.C:
		}
		if ctx.Err() != nil { // a tick as ctx ended: no commit started after it
			return
		}
		_ = c.commit(ctx)
		if !c.resetUncommitted() {
			pause = 0
			continue
		}
		pause = min(max(2*pause, commitRetry), c.cfg.commitEvery)
		again.Reset(pause)
	}
}

// errSuperseded is the cause with which Run ends the interval's commits
// once the executor has drained: a commit it cuts short fails, uncounted
// (see commitParts), as Run's own commit follows.
var errSuperseded = errors.New("kafka: the interval's commits ended: Run commits next")

// commitRetry is commitEvery's first pause before it commits again an
// assignment a data-loss reset started, whose commit failed.
const commitRetry = 50 * time.Millisecond

// resetUncommitted tells whether an assignment that a data-loss reset
// started (resetPart, setAside, pastEnd) has yet to commit since: the
// group's commit may then name offsets of the log before it diverged (see
// pending).
func (c *Consumer) resetUncommitted() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, p := range c.assigned {
		if p.resetGen != p.landedGen && !p.gone {
			return true
		}
	}
	return false
}

// poll is the poll loop: it polls for as many records as the executor has
// room for, submits them, and lets a rebalance go on between polls; with
// no room it pauses fetching until records finish.
func (c *Consumer) poll(ctx context.Context) error {
	for {
		room, stopped := c.room()
		if stopped {
			return nil // Close reports the failure
		}
		if room <= 0 {
			if err := c.pauseUntilRoom(ctx); err != nil {
				return err
			}
			continue
		}
		// Resumed only with room, so that a full executor's partitions
		// stay paused rather than fetch what the next poll drops.
		c.unthrottle(c.x.Committable)
		// A poll waits pollWait at most, so that the loop sees a failure
		// stop the executor while no record comes.
		pctx, cancel := context.WithTimeout(ctx, pollWait)
		fs := c.cl.PollRecords(pctx, room)
		cancel()
		if err := c.fetchError(ctx, fs); err != nil {
			c.cl.AllowRebalance()
			return err
		}
		var err error
		clear(c.refetch)
		fs.EachPartition(func(ftp kgo.FetchTopicPartition) {
			if err == nil && len(ftp.Records) > 0 {
				err = c.submit(ctx, topicPartition{ftp.Topic, ftp.Partition}, ftp.Records)
			}
		})
		c.cl.AllowRebalance()
		if err != nil {
			return err
		}
	}
}

// pollWait is the longest one poll waits for records.
const pollWait = 250 * time.Millisecond

// fetchError returns the first error of fs that ends the poll loop: the
// context's end, the client's closing, or an error Kafka does not call
// retriable (franz-go retries the others itself); a poll's own time out,
// a lost group session (see sessionLost) and a data loss are none. A data
// loss (kgo.ErrDataLoss: a partition's fetch offset was out of range, or
// its log diverged, as after an unclean leader election) franz-go calls
// informational: it has reset the partition's fetch offset and goes on,
// and so does the consumer, counting it in Consumer.dataLoss (a reset
// below the records taken runs them again: see resetPart). It names the
// group for a session's error (which franz-go gives as a fetch of no
// partition), the topic for a topic's and the partition for a partition's.
func (c *Consumer) fetchError(ctx context.Context, fs kgo.Fetches) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	var first error
	fs.EachError(func(topic string, p int32, err error) {
		if dl := (*kgo.ErrDataLoss)(nil); errors.As(err, &dl) {
			c.dataLoss.Add(1)
			return
		}
		if first != nil || kerr.IsRetriable(err) || errors.Is(err, context.DeadlineExceeded) || sessionLost(err) {
			return
		}
		var session *kgo.ErrGroupSession
		switch {
		case errors.As(err, &session) || topic == "":
			group, _ := c.cl.OptValue(kgo.ConsumerGroup).(string)
			first = fmt.Errorf("kafka: group %s: %w", group, err)
		case p < 0:
			first = fmt.Errorf("kafka: fetching %s: %w", topic, err)
		default:
			first = fmt.Errorf("kafka: fetching %s/%d: %w", topic, p, err)
		}
	})
	return first
}

// sessionLost tells whether err is franz-go's word that the group session
// was lost (as when a heartbeat is answered UNKNOWN_MEMBER_ID after a long
// pause): franz-go has called OnPartitionsLost and joins again by itself,
// so the poll loop goes on. A session the group refused is not, when
// Kafka's answer says joining again would fail the same way: an error
// Kafka does not call retriable, other than the member or generation the
// group no longer knows, as INVALID_SESSION_TIMEOUT (a session timeout
// outside the broker's bounds), GROUP_AUTHORIZATION_FAILED or
// INCONSISTENT_GROUP_PROTOCOL.
func sessionLost(err error) bool {
	var lost *kgo.ErrGroupSession
	if !errors.As(err, &lost) {
		return false
	}
	var ke *kerr.Error
	if !errors.As(err, &ke) || ke.Retriable {
		return true // the connection, or a coordinator moving
	}
	return errors.Is(err, kerr.UnknownMemberID) || errors.Is(err, kerr.IllegalGeneration) ||
		errors.Is(err, kerr.RebalanceInProgress) || errors.Is(err, kerr.MemberIDRequired)
}

// room returns how many more records the executor takes without waiting:
// it holds at most WithMaxHeld items running, waiting, or finished above
// a partition's committable offset (see [live.WithOffsets]). SubmitAll
// never waits then, which matters: while the poll loop waits, no
// rebalance can go on. It also tells whether a failed record stopped the
// executor. It takes time in proportion to the executor's consumers.
func (c *Consumer) room() (room int, stopped bool) {
	room, err := c.x.Room()
	return room, err != nil // a failure stopped it, or it closed as Run's context ended
}

// submit hands rs, records of partition tp in offset order as a poll
// returned them, to the executor in the partition's current assignment,
// up to the first one its throttle refuses (see taken), in one
// live.SubmitAll: one clock reading, their arrival, for all (past a
// record refused under a dead letter, one a record: see submitAll). Under
// BlockRebalanceOnPoll no rebalance runs between a poll and
// AllowRebalance, so tp is assigned. It takes Consumer.mu once and reads
// the partition's committable offset from the executor once, whatever
// the number of records.
func (c *Consumer) submit(ctx context.Context, tp topicPartition, rs []*kgo.Record) error {
	c.mu.Lock()
	p := c.assigned[tp]
	c.mu.Unlock()
	if p == nil || c.refetch[tp] {
		return nil // not ours any more, or to be fetched again
	}
	switch {
	case len(rs) == 0:
	case p.last < 0:
		c.setAside(p, rs[0].Offset)
	case rs[0].Offset <= p.last:
		var again bool
		if p, again = c.resetPart(p, rs[0].Offset); again {
			return nil
		}
	}
	w := window{last: p.last}
	b := c.batch[:0]
	for _, r := range rs {
		if !c.taken(r, p, &w) {
			break // fetched again once taken
		}
		b = append(b, item{r: r, p: p})
	}
	c.noteEpochs(p, b)
	n, err := c.submitAll(ctx, b)
	for _, it := range b[:n] {
		if it.r.Attrs.IsControl() {
			c.markers.Add(1)
		}
	}
	if n < len(b) { // p's last is the last submitted
		w.last = p.last
		if n > 0 {
			w.last = b[n-1].r.Offset
		}
	}
	if ee := (*konvoy.EventError)(nil); errors.As(err, &ee) {
		// The executor numbers the record among all it took; the user
		// finds it by its topic, partition and offset.
		err = fmt.Errorf("kafka: record %s: %w", Where(b[n].r), err)
	}
	clear(b) // the records are the executor's now
	c.batch = b[:0]
	p.last = w.last // written once, not per record: handlers read p's other fields
	return err
}

// submitAll submits b to the executor, as live.SubmitAll does. Under a
// dead letter a record whose event the executor refuses by its contents
// (see refusedByContents) is submitted again with the refusal, as an item
// with no lane that fails with it without its handler called (see run),
// so that it is dead-lettered as a failed record is, rather than stop the
// consumer. From the first refusal on, the records go one a call: the
// executor has read the events of up to submitChunk−1 records past it,
// and reads each again once, not once a refusal; each then has its own
// submission time.
func (c *Consumer) submitAll(ctx context.Context, b []item) (int, error) {
	n, err := c.x.SubmitAll(ctx, b)
	if c.cfg.dead == nil && c.cfg.deadTopic == "" {
		return n, err
	}
	for n < len(b) && b[n].refused == nil && refusedByContents(err) {
		b[n].refused = err
		for err = nil; err == nil && n < len(b); {
			var m int
			m, err = c.x.SubmitAll(ctx, b[n:n+1])
			n += m
		}
	}
	return n, err
}

// refusedByContents tells whether err, live.SubmitAll's, is the refusal
// of a record's event for what the record holds: a Step below 0, or no
// Line under a line layout. A Partition that konvoy.Recorded(n) lacks
// tells a layout that does not fit the topic instead, and stops the
// consumer, dead letter or not, rather than dead-letter every record of
// the partitions it lacks.
func refusedByContents(err error) bool {
	if errors.Is(err, live.ErrStopped) || errors.Is(err, live.ErrClosed) {
		return false // the stop's error may wrap the refusal of a record whose dead letter failed
	}
	var ee *konvoy.EventError
	return errors.As(err, &ee) && (ee.Field == "Step" || ee.Field == "Line")
}

// setAside drops what the commit assignment p started from names
// finished, counting it in Consumer.reset, when p's first record, at
// offset first, comes from below that commit (p.from): fetching did not
// resume at the committed offset but was reset, as when the partition's
// log was truncated below it (an unclean leader election) and the offset
// was out of range (or, for a commit past the log's end, set aside at
// the assignment as if it were: see pastEnd, which counted it). The
// offsets the metadata names may then hold other records than those that
// finished, and skipping them would lose them; they run, and no commit
// carries the old metadata, or the old offset, on: p commits first, with
// no metadata, at once (see pending), as resetPart's new assignment does,
// so that a crash meanwhile leaves no next owner to fetch from the old
// offset, which the log may have grown past. It runs on the poll loop,
// before any record of p is submitted, under Consumer.mu, which commits
// read p.prior under.
func (c *Consumer) setAside(p *part, first int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if first >= p.from && (p.resetFrom < 0 || first >= p.resetFrom) {
		return // fetching resumed at the commit, or at or above the reset's
	}
	if p.resetFrom < 0 { // else pastEnd counted it
		c.reset.Add(1)
	}
	p.prior, p.priorEpoch = Finished{}, -1
	// Commit first, with no metadata, at once, as resetPart does: until
	// then the group's commit names offsets of the log as it was.
	p.resetFrom, p.resetEpoch = first, -1
	p.resetGen++
	c.commitSoon()
}

// commitSoon asks commitEvery for a commit now, not at its next tick,
// unless one is asked for already.
func (c *Consumer) commitSoon() {
	select {
	case c.soon <- struct{}{}:
	default:
	}
}

// resetPart replaces p, whose fetching franz-go reset to offset first,
// at or below the last record it took (after a data loss: see
// fetchError), with a new assignment of its partition, from which the
// records fetched again run, as the executor takes a partition's offsets
// only in increasing order. p is given up as a revoked one is, but for
// its commit: its records held and not started do not run, and nothing
// more is committed of it, as the new one's commits follow the reset
// (below the old ones). So that those records are fetched again, when
// first is above p's committable offset (franz-go reset to where the log
// diverged, or by kgo.ConsumeResetOffset, above a record not finished) it
// sets the fetch offset back to that offset and returns true: the records
// of this poll are dropped, and fetched again. The new assignment takes
// nothing of a prior commit's metadata as finished (see setAside), and
// commits from where it fetches, with no metadata, even before it has a
// record (see pending), so that the old assignment's commit, whose
// metadata may name offsets of the log before it diverged, never stands:
// at once, not at the next interval's commit, and again soon when it
// fails (see commitEvery), so that a crash meanwhile leaves no such commit
// standing but for a moment. It counts the reset in Consumer.reset, and
// runs on the poll loop, under no lock, where the partition is assigned
// and its offset may be set.
func (c *Consumer) resetPart(p *part, first int64) (*part, bool) {
	from := first
	if at, ok := c.x.Committable(p.id); ok && at < first {
		from = at // read before p is revoked: its records held then count as finished
	}
	c.mu.Lock()
	p.revoked.Store(true)
	q := newPart(c.nextID, p.tp, Finished{})
	q.resetFrom, q.resetEpoch, q.resetGen = from, p.epochBelow(from), 1
	c.nextID++
	c.assigned[p.tp] = q
	c.mu.Unlock()
	c.forget([]*part{p}) // as a revoked one: never committed again, q left assigned
	c.reset.Add(1)
	c.commitSoon() // q's first commit: until it lands, a crash leaves p's standing
	if from == first {
		return q, false
	}
	c.cl.SetOffsets(map[string]map[int32]kgo.EpochOffset{p.tp.topic: {p.tp.partition: {Epoch: -1, Offset: from}}})
	if c.refetch == nil {
		c.refetch = map[topicPartition]bool{}
	}
	c.refetch[p.tp] = true
	return q, true
}

// pauseUntilRoom pauses fetching the partitions assigned, lets rebalances
// go on, and waits until a record settles or ctx ends; the poll loop's
// next unthrottle resumes those not throttled.
func (c *Consumer) pauseUntilRoom(ctx context.Context) error {
	c.mu.Lock()
	tps := map[string][]int32{}
	for tp := range c.assigned {
		tps[tp.topic] = append(tps[tp.topic], tp.partition)
	}
	hook := c.cfg.blocked
	c.mu.Unlock()
	c.cl.PauseFetchPartitions(tps)
	if hook != nil {
		hook(c.cl.PauseFetchPartitions(nil))
	}
	c.cl.AllowRebalance()
	// Wait for a settled record, or recheck now and then: a record the
	// layout skipped settles without a signal.
	t := time.NewTimer(50 * time.Millisecond)
	defer t.Stop()
	select {
	case <-c.settled:
	case <-t.C:
	case <-ctx.Done():
		return ctx.Err()
	}
	return nil
}

// recordsUnrun returns err, the executor's Close's, with its UnrunError of
// items made one of their records, wrapped in an error that names the
// first few by Where, and the rest of err as it is. A transaction's
// marker is no record: it is left out, and an UnrunError of markers alone
// is no error.
func recordsUnrun(err error) error {
	switch e := err.(type) {
	case *live.UnrunError[item]:
		rs := make([]*kgo.Record, 0, len(e.Items))
		names := make([]string, 0, min(len(e.Items), unrunNamed))
		for _, it := range e.Items {
			if it.r.Attrs.IsControl() {
				continue
			}
			if len(rs) < unrunNamed {
				names = append(names, Where(it.r))
			}
			rs = append(rs, it.r)
		}
		if len(rs) == 0 {
			return nil // every record ran: Run's nil, as its doc says
		}
		if len(rs) > unrunNamed {
			names = append(names, fmt.Sprintf("and %d more", len(rs)-unrunNamed))
		}
		return fmt.Errorf("kafka: records not run: %s: %w", strings.Join(names, ", "), &live.UnrunError[*kgo.Record]{Items: rs, Err: e.Err})
	case interface{ Unwrap() []error }: // Close joins its UnrunError with errors.Join
		errs := e.Unwrap()
		i := slices.IndexFunc(errs, func(e error) bool { _, ok := e.(*live.UnrunError[item]); return ok })
		if i < 0 {
			return err
		}
		out := slices.Clone(errs)
		out[i] = recordsUnrun(errs[i])
		return errors.Join(out...)
	}
	return err
}

// unrunNamed is the most records not run that Run's error names.
const unrunNamed = 3
