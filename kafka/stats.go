package kafka

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/sirali-konvoy/konvoy/live"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
)

// Stats returns the measures of the executor that runs the consumer's
// records ([live.Executor.Stats]): records done, in flight, held, waits,
// errors, and so on. It may be called at any time, during and after Run.
// A record revoked before it ran, or finished by an earlier member (see
// [Consumer]), counts as done without its handler running. A
// transaction's marker, which the executor holds so that commits pass it,
// is no record: Events, Done and Held leave out the markers taken,
// finished and held (read while they pass, these may disagree by a marker
// or so); the wait and response percentiles take in their short waits.
// A record's offset counts as finished for commits as its handler
// returns, a moment before Done counts it: read just after
// [Consumer.CaughtUp] says true, Done may be short by the records whose
// handlers were returning; after Run returns it is whole.
func (c *Consumer) Stats() live.Stats {
	d := c.markersDone.Load()
	m := c.markers.Load()
	s := c.x.Stats()
	s.Events = max(s.Events-int(m), 0)
	s.Done = max(s.Done-int(d), 0)
	s.Held = max(s.Held-int(m-d), 0)
	return s
}

// CommitStats counts a consumer's commits (see [Consumer.Commits]).
type CommitStats struct {
	// Sent counts the commits Kafka accepted, and Failed those it refused
	// or that did not reach it: on the interval, on a revocation, by
	// CaughtUp or at the end of Run. A commit that failed on the interval
	// is made again on the next; on a revocation, the partition's next
	// owner reads from the last commit accepted. Records run again, never
	// skipped. An interval's commit that Run cuts short once it has
	// drained, its own commit following, counts in neither, unless Kafka
	// had refused part of it for good (a refusal franz-go was still
	// retrying does not count).
	Sent, Failed int
	// LastFailure is the error of the last commit that failed, nil for
	// none.
	LastFailure error
	// WithoutMetadata counts the partitions committed without their
	// finished offsets, whose metadata would pass Kafka's 4 KB (after a
	// prior commit's merged in: the throttle keeps the consumer's own
	// within it) or that the broker refused as too long; Unread the
	// assignments whose committed metadata could not be fetched, read, or
	// checked against the log (see Diverged), or whose commit of no
	// leader epoch could not be checked against the log's end, at the
	// assignment and again as fetching starts; Reset those whose fetching
	// was reset below where it was: at the assignment's first record,
	// below the committed offset (as after the log was truncated below the
	// commit, by an unclean leader election, or for a commit of no leader
	// epoch past the log's end, which starts where kgo.ConsumeResetOffset
	// says; see [New]), committed at once with no metadata, as the commit's
	// offsets may hold other records now; or later, below
	// the records already taken, which then run again as they are fetched
	// again (those held and not started do not run twice). Each means
	// records above the committed offset run again. A commit past the
	// log's end counts in Reset as the assignment sets it aside, even
	// when fetching then resumes at a commit another client made since,
	// which stands, its metadata unread.
	WithoutMetadata, Unread, Reset int
	// Diverged counts the assignments whose committed metadata named
	// finished records of a log that has diverged since, at or below the
	// highest of them, as an unclean leader election does: the commit's
	// leader epoch, that of the highest record named, ends below it in the
	// log now, or the leader no longer knows it (OffsetForLeaderEpoch);
	// or, for a commit of no epoch, the metadata names records at or past
	// the log's end now, which no member ran there (ListOffsets); or,
	// later, a record at an offset the metadata names finished came with a
	// leader epoch after the commit's, the log cut and grown again since
	// the check. The records from where the log diverged run, as new ones.
	Diverged int
	// LastMetadata is the last of what WithoutMetadata, Unread and
	// Diverged count, a [*PartitionError] naming the partition (one that
	// wraps [ErrDiverged] for a divergence), and nil for none.
	LastMetadata error
	// DataLoss counts franz-go's reports that records were lost from a
	// partition's log ([kgo.ErrDataLoss]: the fetch offset was out of
	// range, or the log diverged from the records read): franz-go reset
	// the fetch offset, by kgo.ConsumeResetOffset or to where the log
	// diverged, and the consumer goes on from there.
	DataLoss int
}

// Commits returns the counts of the consumer's commits so far. A commit
// that fails does not end Run, but for the last one, which Run returns:
// read Commits to see the others. It may be called at any time, during
// and after Run.
func (c *Consumer) Commits() CommitStats {
	c.commits.Lock()
	defer c.commits.Unlock()
	return CommitStats{Sent: c.commits.sent, Failed: c.commits.failed, LastFailure: c.commits.last,
		WithoutMetadata: int(c.dropped.Load()), Unread: int(c.unread.Load()), Reset: int(c.reset.Load()),
		Diverged: int(c.diverged.Load()), LastMetadata: c.commits.lastMeta,
		DataLoss: int(c.dataLoss.Load())}
}

// PartitionError is a problem of one partition's commit metadata, as
// [CommitStats].LastMetadata keeps it: the partition, and what happened.
type PartitionError struct {
	Topic string
	// Partition is the partition's number, or -1 for every partition of
	// an assignment, when the group's commits could not be fetched.
	Partition int32
	Err       error
}

// Error returns "kafka: topic "T" partition P: " and Err's words, or,
// for every partition (P −1), "kafka: topic "T", every partition
// assigned: " and Err's.
func (e *PartitionError) Error() string {
	if e.Partition < 0 {
		return fmt.Sprintf("kafka: topic %q, every partition assigned: %v", e.Topic, e.Err)
	}
	return fmt.Sprintf("kafka: topic %q partition %d: %v", e.Topic, e.Partition, e.Err)
}

// Unwrap returns Err.
func (e *PartitionError) Unwrap() error { return e.Err }

// ErrDiverged is wrapped by the [*PartitionError] of an assignment whose
// committed metadata named finished records of a log that has diverged
// since (see [CommitStats].Diverged).
var ErrDiverged = errors.New("the log diverged below records the commit's metadata names finished")

// noteMetadata keeps err, a problem of partition partition of topic's
// commit metadata, as the last (see CommitStats.LastMetadata).
func (c *Consumer) noteMetadata(topic string, partition int32, err error) {
	c.commits.Lock()
	defer c.commits.Unlock()
	c.commits.lastMeta = &PartitionError{Topic: topic, Partition: partition, Err: err}
}

// countCommit counts a commit sent, which failed with err when err is not nil.
func (c *Consumer) countCommit(err error) {
	c.commits.Lock()
	defer c.commits.Unlock()
	if err != nil {
		c.commits.failed++
		c.commits.last = err
		return
	}
	c.commits.sent++
}

// Lag returns, for each partition of topic, how many of its records the
// consumer group has not committed: the partition's end offset (its high
// watermark, or, for a client that reads committed records only,
// kgo.ReadCommitted, its last stable offset: the records of a transaction
// still open are not there for it to consume yet) less the later of the
// group's committed offset and the
// partition's start offset (records below the start, deleted by retention
// or DeleteRecords, are not there to consume), or less the start offset
// where the group has committed none (or does not exist yet). Lag is 0
// for every partition once the group has committed the whole topic, or
// all of it that is left.
//
// It asks Kafka three times through cl (the start and end offsets, and the
// group's commits), and returns an error, naming the topic or the
// partition, when topic does not exist or one of its partitions cannot
// be read. It panics, with a "kafka:" prefix, when ctx is nil.
func Lag(ctx context.Context, cl *kgo.Client, group, topic string) (map[int32]int64, error) {
	if ctx == nil {
		panic("kafka: Lag: ctx is nil; want a context, such as context.Background()")
	}
	adm := kadm.NewClient(cl) // not closed: that would close cl
	list := adm.ListEndOffsets
	if readCommitted(cl) {
		list = adm.ListCommittedOffsets
	}
	ends, err := list(ctx, topic)
	if err == nil {
		err = listError(ends, topic)
	}
	if err != nil {
		return nil, fmt.Errorf("kafka: the end offsets of topic %s: %w", topic, err)
	}
	starts, err := adm.ListStartOffsets(ctx, topic)
	if err == nil {
		err = listError(starts, topic)
	}
	if err != nil {
		return nil, fmt.Errorf("kafka: the start offsets of topic %s: %w", topic, err)
	}
	// Every topic's commits, whose errors are looked at for topic's
	// partitions only: FetchOffsetsForTopics fails on any topic's.
	commits, err := adm.FetchOffsets(ctx, group)
	if errors.Is(err, kerr.GroupIDNotFound) {
		commits, err = nil, nil // a group never committed: none
	}
	if err != nil {
		return nil, fmt.Errorf("kafka: the offsets group %s committed on topic %s: %w", group, topic, err)
	}
	lag := map[int32]int64{}
	for _, p := range slices.Sorted(maps.Keys(ends[topic])) {
		from := starts[topic][p].Offset
		if o, ok := commits.Lookup(topic, p); ok && o.Err != nil {
			return nil, fmt.Errorf("kafka: the offset group %s committed on %s/%d: %w", group, topic, p, o.Err)
		} else if ok && o.At >= 0 {
			from = max(from, o.At) // a commit below the log's start: those records are gone
		}
		lag[p] = max(0, ends[topic][p].Offset-from)
	}
	return lag, nil
}

// listError returns the error of a listing of topic's offsets: topic
// missing, or the lowest partition's error, naming the partition.
func listError(l kadm.ListedOffsets, topic string) error {
	if len(l[topic]) == 0 {
		return errors.New("no such topic, or it has no partitions")
	}
	for _, p := range slices.Sorted(maps.Keys(l[topic])) {
		if o := l[topic][p]; o.Err != nil {
			if p < 0 {
				return topicWide{o.Err}
			}
			return fmt.Errorf("partition %d: %w", p, o.Err)
		}
	}
	return nil
}

// topicWide is the error of a listing of a whole topic's offsets (its
// metadata, say), not of one partition's: UNKNOWN_TOPIC_OR_PARTITION there,
// which kerr calls retriable, is a topic that is not there.
type topicWide struct{ error }

func (t topicWide) Unwrap() error { return t.error }

// CaughtUp commits, per partition the consumer owns, the offset below
// which every record has finished (as the interval's commits do), and then
// tells whether its group has no lag on topic ([Lag]): every partition
// committed to its end, by this member or another. The group is the one
// New's options named. A topic whose records arrive as fast as they are
// handled may never be caught up between two calls; records held or
// running keep it from being so. A commit, or a listing of the topic's
// offsets, that Kafka refuses for a moment (a rebalance going on, a
// coordinator or a partition's leader moving) is no error: the group is
// not caught up yet. Nor is it while a partition of topic the consumer was
// assigned has yet to start fetching after a commit past the log's end
// (see [New]), or of an end that could not be listed, or until the commit
// that replaces such a commit, or one a data loss reset, has landed: Lag
// counts no lag of a commit past the end, while the records below it are
// still to run. Call it while Run runs: once Run has returned, the client
// is closed, and CaughtUp returns its error (kgo.ErrClientClosed).
func (c *Consumer) CaughtUp(ctx context.Context, topic string) (bool, error) {
	if ctx == nil {
		panic("kafka: CaughtUp: ctx is nil; want a context, such as context.Background()")
	}
	if err := c.commit(ctx); transient(err) {
		return false, nil
	} else if err != nil {
		return false, err
	}
	if c.resetUnsettled(topic) {
		return false, nil
	}
	group, _ := c.cl.OptValue(kgo.ConsumerGroup).(string)
	lag, err := Lag(ctx, c.cl, group, topic)
	switch {
	case transient(err) && !errors.As(err, new(topicWide)): // a partition's leader moving, say: not yet
		return false, nil
	case err != nil:
		return false, err
	}
	for _, n := range lag {
		if n > 0 {
			return false, nil
		}
	}
	return true, nil
}

// transient tells whether a commit's error err is one that the next commit
// may not meet: one Kafka calls retriable, or the group's word that it
// rebalances, or has moved to a generation the member has not joined yet;
// for the errors of several partitions joined, each of them is (errors.Is
// would find the first that matches, beside a refusal that lasts).
func transient(err error) bool {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		errs := j.Unwrap()
		for _, e := range errs {
			if !transient(e) {
				return false
			}
		}
		return len(errs) > 0
	}
	return kerr.IsRetriable(err) || errors.Is(err, kerr.RebalanceInProgress) ||
		errors.Is(err, kerr.IllegalGeneration) || errors.Is(err, kerr.UnknownMemberID)
}
