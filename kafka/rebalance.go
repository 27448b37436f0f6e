package kafka

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/sirali-konvoy/konvoy/live"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// assign is the OnPartitionsAssigned hook: each partition assigned gets a
// new executor partition, which knows the records its last owner's commit
// metadata names finished, so that they are not run again.
func (c *Consumer) assign(ctx context.Context, cl *kgo.Client, tps map[string][]int32) {
	prior, starts := c.priorFinished(ctx, cl, tps)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.assignedBy = cl
	if o, ok := cl.OptValue(kgo.ConsumeResetOffset).(kgo.Offset); ok {
		c.resetTo = o
	} else {
		c.resetTo = kgo.NewOffset().AtStart() // franz-go's reset for a partition that has consumed nothing
	}
	for topic, ps := range tps {
		for _, p := range ps {
			tp := topicPartition{topic, p}
			q := newPart(c.nextID, tp, prior[tp].finished)
			if pc, ok := prior[tp]; ok {
				q.priorEpoch = pc.epoch
			}
			if s, ok := starts[tp]; ok {
				q.from = s.from
				switch {
				case s.end >= 0:
					c.pastEnd(q, s.end)
				case s.unlisted: // checked again as fetching starts (see resetPastEnd)
					q.stale, q.unlisted, q.named = q.from, true, s.named
				}
			}
			c.assigned[tp] = q
			c.nextID++
		}
	}
}

// pastEnd sets q, under c.mu, to start as after an out-of-range reset: its
// commit, of no leader epoch, lies past the log's end, at end when
// listed. The commit and its metadata, of another log, are set aside at
// once, counted in Consumer.reset: fetching starts where
// kgo.ConsumeResetOffset says, and q commits with no metadata at once,
// before any record (see resetPastEnd and pending), 0, below every record
// the reset may start at, or, for a reset to the end, where it starts (see
// startPastEnd); or its first record's offset, when that comes from below
// (see setAside). So a member that stops before its first record leaves
// no commit past the end for the next owner, which would resume there
// once the log grew past it; the next owner may run more records than the
// reset would have, never fewer.
func (c *Consumer) pastEnd(q *part, end int64) {
	q.stale = q.from
	q.prior, q.priorEpoch = Finished{}, -1
	q.resetFrom, q.resetEpoch = 0, -1 // below every record the reset may start at; a reset to the end lists where (see startPastEnd)
	q.resetGen++
	c.reset.Add(1)
}

// toEnd tells whether reset, kgo.ConsumeResetOffset's offset, starts at
// the log's end: kgo.NewOffset().AtEnd(), or kgo.NoResetOffset(), which
// franz-go starts there too.
func toEnd(reset kgo.Offset) bool {
	return reset.String() == kgo.NewOffset().AtEnd().String()
}

// priorCommit is what an assignment takes of the commit it starts from:
// the records its metadata names finished, and the leader epoch it
// carries, of the highest of them (-1 when unknown).
type priorCommit struct {
	finished Finished
	epoch    int32
}

// fetchStart is where an assignment's fetching starts: from, the group's
// committed offset, whose leader epoch is epoch (-1 when none), unless
// the commit, of no epoch, lies past the log's end, end (see checkEnds
// and pastEnd; -1 otherwise). unlisted tells that the end of a commit of
// no epoch above 0 could not be listed, named that it has metadata.
type fetchStart struct {
	from, end       int64
	epoch           int32
	unlisted, named bool
}

// metadataWait is the longest an assignment waits for the group's
// committed offsets.
const metadataWait = 10 * time.Second

// priorFinished returns, for the partitions of tps that have a committed
// offset with metadata, the records that metadata names finished, less
// those of a log that has diverged since (see checkDiverged), and for
// each that has a committed offset, where its fetching starts (see
// checkEnds). When the offsets cannot be fetched, or a partition's
// metadata cannot be read, it counts that in Consumer.unread and takes
// nothing as finished: those records run again, as at-least-once
// delivery allows.
func (c *Consumer) priorFinished(ctx context.Context, cl *kgo.Client, tps map[string][]int32) (map[topicPartition]priorCommit, map[topicPartition]fetchStart) {
	group, _ := cl.OptValue(kgo.ConsumerGroup).(string)
	fctx, cancel := context.WithTimeout(ctx, metadataWait)
	defer cancel()
	got, err := kadm.NewClient(cl).FetchOffsets(fctx, group)
	if err != nil {
		for topic, ps := range tps {
			c.unread.Add(int64(len(ps))) // each assignment's metadata unread
			c.noteMetadata(topic, -1, fmt.Errorf("the group's commits unread: %w", err))
		}
		return nil, nil
	}
	prior, starts := map[topicPartition]priorCommit{}, map[topicPartition]fetchStart{}
	for topic, ps := range tps {
		for _, p := range ps {
			o, ok := got.Lookup(topic, p)
			if ok && o.Err != nil {
				c.unread.Add(1)
				c.noteMetadata(topic, p, fmt.Errorf("its commit unread: %w", o.Err))
				continue
			}
			if !ok || o.At < 0 {
				continue
			}
			starts[topicPartition{topic, p}] = fetchStart{from: o.At, end: -1, epoch: max(o.LeaderEpoch, -1), named: o.Metadata != ""}
			if o.Metadata == "" {
				continue
			}
			f, err := ParseMetadata(o.At, o.Metadata)
			if err != nil {
				c.unread.Add(1)
				c.noteMetadata(topic, p, err)
				continue
			}
			prior[topicPartition{topic, p}] = priorCommit{finished: f, epoch: max(o.LeaderEpoch, -1)}
		}
	}
	c.checkDiverged(fctx, cl, prior)
	c.checkEnds(fctx, cl, prior, starts)
	return prior, starts
}

// checkDiverged asks the partitions' leaders, for each commit of prior
// whose metadata names records finished above its offset and which
// carries the leader epoch of the highest of them, where that epoch ends
// in the log now (OffsetForLeaderEpoch, as KIP-320 checks a committed
// offset, which franz-go does for the offset itself): the log holds the
// records the metadata names finished, as they were, below that end
// offset, when the leader knows the epoch (two logs that agree on a
// record's epoch agree on every record up to it). A log cut below the
// highest of them and grown again, by an unclean leader election, while
// no member read it, holds other records there now, which run: the
// finished records kept are those below the end offset, none when the
// leader no longer knows the epoch; counted in Consumer.diverged. When
// the leaders cannot be asked, nothing counts as finished (counted in
// Consumer.unread). A commit with no epoch (-1: written by a consumer
// that sets none) is bounded by the log's end instead (checkEnds); one
// konvoy wrote before this check carries the epoch of the record below
// its offset, which a leader change above that record makes count as
// diverged: its records run again.
func (c *Consumer) checkDiverged(ctx context.Context, cl *kgo.Client, prior map[topicPartition]priorCommit) {
	req := kadm.OffsetForLeaderEpochRequest{}
	for tp, pc := range prior {
		if pc.epoch >= 0 && len(pc.finished.runs) > 0 {
			req.Add(tp.topic, tp.partition, pc.epoch)
		}
	}
	if len(req) == 0 {
		return
	}
	got, err := kadm.NewClient(cl).OffsetForLeaderEpoch(ctx, req)
	for tp, pc := range prior {
		if pc.epoch < 0 || len(pc.finished.runs) == 0 {
			continue
		}
		r, ok := got[tp.topic][tp.partition]
		if err != nil || !ok || r.Err != nil {
			c.unread.Add(1)
			delete(prior, tp)
			c.noteMetadata(tp.topic, tp.partition, fmt.Errorf("its commit's leader epoch %d unchecked: %w", pc.epoch,
				cmp.Or(err, r.Err, errors.New("the leader did not answer for it"))))
			continue
		}
		top := pc.finished.runs[len(pc.finished.runs)-1].Last
		if r.LeaderEpoch == pc.epoch && r.EndOffset > top {
			continue // the log holds every record the metadata names
		}
		end := pc.finished.committable // the epoch unknown now: none kept
		if r.LeaderEpoch == pc.epoch {
			end = max(r.EndOffset, end)
		}
		prior[tp] = priorCommit{finished: pc.finished.below(end), epoch: pc.epoch}
		c.diverged.Add(1)
		c.noteMetadata(tp.topic, tp.partition, fmt.Errorf("%w: epoch %d, of finished offset %d, ends at offset %d now (the leader's epoch %d); "+
			"the records from offset %d run", ErrDiverged, pc.epoch, top, r.EndOffset, r.LeaderEpoch, end))
	}
}

// checkEnds bounds, for each commit of prior with no leader epoch (-1),
// which checkDiverged cannot check, the records its metadata names
// finished by the partition's end offset now (a ListOffsets request to
// the partitions' leaders, for those partitions alone): a log holds no
// record at or past its end, so metadata naming one was written for
// another log (cut since, or made again under the same name) or by no
// member that ran it, and taking it as it is would skip the records the
// log gets there later and commit past them. Those from the end on run,
// counted as diverged. When an end cannot be listed, nothing counts as
// finished (counted in Consumer.unread).
//
// A committed offset of no epoch past the end, with metadata or none, is
// out of range, which franz-go finds only at the first fetch, and not at
// all when the log grew past the commit before it: the records from the
// end to the commit, written after it, were then skipped. Its end is
// noted in starts, and assign sets the commit and its metadata aside (see
// pastEnd).
func (c *Consumer) checkEnds(ctx context.Context, cl *kgo.Client, prior map[topicPartition]priorCommit, starts map[topicPartition]fetchStart) {
	tps := endsChecked(prior, starts)
	if len(tps) == 0 {
		return
	}
	ends, errs := listEnds(ctx, cl, tps, false)
	for _, tp := range tps {
		end, listed := ends[tp]
		switch s := starts[tp]; {
		case listed && s.from > end:
			s.end = end
			starts[tp] = s
		case !listed && s.from > 0:
			s.unlisted = true
			starts[tp] = s
		}
		pc, named := prior[tp]
		if !named || pc.epoch >= 0 || len(pc.finished.runs) == 0 {
			continue
		}
		if !listed {
			c.unread.Add(1)
			delete(prior, tp)
			c.noteMetadata(tp.topic, tp.partition, fmt.Errorf("its commit's finished offsets unchecked against the log's end: %w",
				cmp.Or(errs[tp], errors.New("the leader did not answer for it"))))
			continue
		}
		top := pc.finished.runs[len(pc.finished.runs)-1].Last
		if top < end || pc.finished.committable > end {
			continue // the log holds every record named; or fetching starts below the commit, which sets it aside (see setAside)
		}
		prior[tp] = priorCommit{finished: pc.finished.below(end), epoch: pc.epoch}
		c.diverged.Add(1)
		c.noteMetadata(tp.topic, tp.partition, fmt.Errorf("%w: its metadata, of no leader epoch, names offset %d finished, and the log ends at offset %d; "+
			"the records from offset %d run", ErrDiverged, top, end, end))
	}
}

// endsChecked returns, sorted, the partitions whose ends checkEnds lists:
// those committed with no leader epoch, above offset 0 or with metadata
// naming records finished.
func endsChecked(prior map[topicPartition]priorCommit, starts map[topicPartition]fetchStart) []topicPartition {
	var tps []topicPartition
	for tp, s := range starts {
		if s.epoch < 0 && (s.from > 0 || len(prior[tp].finished.runs) > 0) {
			tps = append(tps, tp)
		}
	}
	slices.SortFunc(tps, byPartition)
	return tps
}

// byPartition orders partitions by topic, then number, as the requests
// that list their ends name them.
func byPartition(a, b topicPartition) int {
	return cmp.Or(cmp.Compare(a.topic, b.topic), cmp.Compare(a.partition, b.partition))
}

// resetPastEnd is the kgo.AdjustFetchOffsetsFn hook, which franz-go
// calls with the committed offsets it fetched for the partitions just
// assigned, after assign, as their fetching starts: each partition whose
// commit assign found past the log's end (see pastEnd) starts at
// kgo.ConsumeResetOffset's offset, as franz-go's reset starts a partition
// that has consumed nothing and whose commit is out of range (a
// kgo.RewindOffset, the default, at the log's start), so that the records
// the log got from its end on run, though it grew past the commit since;
// a reset to the end starts, and commits, at the end listed now (the last
// stable offset under kgo.ReadCommitted, as franz-go's reset), so that
// the commit is where fetching starts, and a group with nothing to run
// has no lag. A commit whose end assign could not list is checked again
// here, once; when it still cannot be, fetching resumes at it, counted in
// Consumer.unread. A commit franz-go fetched other than the one assign
// found, one made since, is left as it is, and so is the group's:
// fetching resumes there, and pastEnd's reset is undone (keepFetched).
// It asks for pastEnd's commit, which, made before, could have changed
// what franz-go fetched, and runs once an assignment, holding the
// partitions' fetching for the listing (metadataWait at most). When ctx
// ends first, the session revoking, it returns ctx's error, and franz-go
// calls it again in the next session, whose assign leaves the partitions
// it keeps as they are.
func (c *Consumer) resetPastEnd(ctx context.Context, offsets map[string]map[int32]kgo.Offset) (map[string]map[int32]kgo.Offset, error) {
	unlisted, toEnd, cl := c.endsToList(offsets)
	lctx, cancel := context.WithTimeout(ctx, metadataWait)
	defer cancel()
	ends := listed(lctx, cl, unlisted, false)
	starts := listed(lctx, cl, toEnd, readCommitted(cl))
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for topic, ps := range offsets {
		for partition, o := range ps {
			tp := topicPartition{topic, partition}
			p := c.assigned[tp]
			if p == nil || p.stale < 0 {
				continue
			}
			switch {
			case p.fetchedStale(o):
				ps[partition] = c.startPastEnd(p, o, ends.of(tp), starts.of(tp))
			case !p.unlisted: // assign's pastEnd set aside a commit that is no longer the group's
				p.keepFetched(o)
			}
			p.stale, p.unlisted = -1, false
		}
	}
	return offsets, nil
}

// resetUnsettled tells whether a partition of topic that the consumer
// owns has a reset yet to settle: its fetching has yet to start after a
// commit that assign found past the log's end, or whose end it could not
// list (see resetPastEnd), or a reset's commit (pastEnd, setAside,
// resetPart) has yet to land. The group's commit may be the old one until
// then, past the end, where Lag counts no lag, while the records below it
// are still to run. Checked after a commit, it cannot miss a hook that
// runs meanwhile: the hook leaves a reset to commit. It takes time in
// proportion to the partitions owned.
func (c *Consumer) resetUnsettled(topic string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	for tp, p := range c.assigned {
		if tp.topic == topic && (p.stale >= 0 || p.resetGen != p.landedGen) {
			return true
		}
	}
	return false
}

// fetchedStale tells, under Consumer.mu, whether o, the commit franz-go
// fetched for p, is the one assign found stale (past the log's end, or
// of an end it could not list), of no leader epoch: not one made since.
func (p *part) fetchedStale(o kgo.Offset) bool {
	eo := o.EpochOffset()
	return p.stale >= 0 && eo.Offset == p.stale && eo.Epoch < 0
}

// keepFetched undoes pastEnd's reset of p, under Consumer.mu, when
// franz-go fetched o, a commit made since the one assign found past the
// log's end: fetching resumes at o, which p starts from, and p commits no
// reset, which would set the group's commit back below o for good when no
// record comes. The records o's metadata names finished, which assign did
// not read, run again. pastEnd's count in Consumer.reset stands: assign
// did set a commit aside.
func (p *part) keepFetched(o kgo.Offset) {
	p.from = o.EpochOffset().Offset
	p.resetFrom, p.resetEpoch = -1, 0 // so resetDue settles pastEnd's reset, with nothing to commit
}

// listing is what listEnds found of some partitions' ends.
type listing struct {
	ends map[topicPartition]int64
	errs map[topicPartition]error
}

// listed lists the ends of tps, none when tps is empty: the last stable
// offsets when committed is true, the high watermarks otherwise.
func listed(ctx context.Context, cl *kgo.Client, tps []topicPartition, committed bool) listing {
	if len(tps) == 0 {
		return listing{}
	}
	ends, errs := listEnds(ctx, cl, tps, committed)
	return listing{ends, errs}
}

// end is a partition's end as a listing found it, or the error why not.
type end struct {
	at     int64
	listed bool
	err    error
}

// of returns tp's end, as l found it.
func (l listing) of(tp topicPartition) end {
	at, ok := l.ends[tp]
	return end{at, ok, l.errs[tp]}
}

// readCommitted tells whether cl reads only committed records
// (kgo.ReadCommitted), whose reset to the end starts at the last stable
// offset.
func readCommitted(cl *kgo.Client) bool {
	l, ok := cl.OptValue(kgo.FetchIsolationLevel).(int8) // as franz-go gives it: 1 for read committed
	return ok && l == 1
}

// endsToList returns, sorted, the partitions of offsets fetched at the
// commit assign found past the log's end, or whose end it could not list,
// whose ends resetPastEnd lists: those whose end assign could not list,
// and, for a reset to the end, all of them, where it starts; and the
// client assign was called with.
func (c *Consumer) endsToList(offsets map[string]map[int32]kgo.Offset) (unlisted, toEnds []topicPartition, cl *kgo.Client) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for topic, ps := range offsets {
		for partition, o := range ps {
			p := c.assigned[topicPartition{topic, partition}]
			if p == nil || !p.fetchedStale(o) {
				continue
			}
			if p.unlisted {
				unlisted = append(unlisted, p.tp)
			}
			if toEnd(c.resetTo) {
				toEnds = append(toEnds, p.tp)
			}
		}
	}
	slices.SortFunc(unlisted, byPartition)
	slices.SortFunc(toEnds, byPartition)
	return unlisted, toEnds, c.assignedBy
}

// startPastEnd returns, under c.mu, where p, whose fetched commit o is the
// one assign found, starts, e being its log's end (the high watermark) and
// s where a reset to the end starts, as resetPastEnd listed them: o itself
// when the commit, whose end assign could not list, is not past it, or
// still cannot be listed.
func (c *Consumer) startPastEnd(p *part, o kgo.Offset, e, s end) kgo.Offset {
	if p.unlisted {
		switch {
		case !e.listed:
			if !p.named { // else checkEnds counted it
				c.unread.Add(1)
			}
			c.noteMetadata(p.tp.topic, p.tp.partition, fmt.Errorf("its commit, offset %d of no leader epoch, unchecked against the log's end: %w; fetching resumes there",
				p.from, cmp.Or(e.err, errors.New("the leader did not answer for it"))))
			return o
		case p.from <= e.at:
			return o
		}
		c.pastEnd(p, e.at)
	}
	c.commitSoon() // pastEnd's commit: after franz-go fetched the commits, which it would change
	if s.listed && toEnd(c.resetTo) {
		p.resetFrom = s.at
		p.resetGen++
		return kgo.NewOffset().At(s.at).WithEpoch(-1)
	}
	return c.resetTo
}

// listEnds returns the end offsets of the partitions tps (their high
// watermarks: ListOffsets for the latest, read uncommitted, whose version
// 0 answers in OldStyleOffsets), asking their leaders for them alone, and
// the error of each whose leader answered with one; a partition with
// neither had no answer.
func listEnds(ctx context.Context, cl *kgo.Client, tps []topicPartition, committed bool) (map[topicPartition]int64, map[topicPartition]error) {
	ends, errs := map[topicPartition]int64{}, map[topicPartition]error{}
	for _, sh := range cl.RequestSharded(ctx, latestOffsets(tps, committed)) {
		if sh.Err != nil {
			if r, ok := sh.Req.(*kmsg.ListOffsetsRequest); ok {
				for _, rt := range r.Topics {
					for _, rp := range rt.Partitions {
						errs[topicPartition{rt.Topic, rp.Partition}] = sh.Err
					}
				}
			}
			continue
		}
		if resp, ok := sh.Resp.(*kmsg.ListOffsetsResponse); ok {
			readEnds(resp, ends, errs)
		}
	}
	return ends, errs
}

// latestOffsets returns the ListOffsets request for the latest offset,
// the log's end, of each of tps, which are sorted by topic.
func latestOffsets(tps []topicPartition, committed bool) *kmsg.ListOffsetsRequest {
	req := kmsg.NewPtrListOffsetsRequest()
	if committed {
		req.IsolationLevel = 1 // read committed: the last stable offset
	}
	for _, tp := range tps {
		if n := len(req.Topics); n == 0 || req.Topics[n-1].Topic != tp.topic {
			rt := kmsg.NewListOffsetsRequestTopic()
			rt.Topic = tp.topic
			req.Topics = append(req.Topics, rt)
		}
		rp := kmsg.NewListOffsetsRequestTopicPartition()
		rp.Partition, rp.Timestamp = tp.partition, -1 // -1: the latest offset
		rt := &req.Topics[len(req.Topics)-1]
		rt.Partitions = append(rt.Partitions, rp)
	}
	return req
}

// readEnds adds to ends each partition's end offset that resp gives, and
// to errs each partition's error; a partition answered with an offset
// below 0 goes in neither.
func readEnds(resp *kmsg.ListOffsetsResponse, ends map[topicPartition]int64, errs map[topicPartition]error) {
	for _, rt := range resp.Topics {
		for _, rp := range rt.Partitions {
			tp := topicPartition{rt.Topic, rp.Partition}
			if err := kerr.ErrorForCode(rp.ErrorCode); err != nil {
				errs[tp] = err
				continue
			}
			end := rp.Offset
			if resp.Version == 0 && len(rp.OldStyleOffsets) > 0 { // v0 answers in a list of its own
				end = rp.OldStyleOffsets[0]
			}
			if end >= 0 {
				ends[tp] = end
			}
		}
	}
}

// revoke is the OnPartitionsRevoked hook, run while the poll loop lets
// rebalances go on: no record of tps starts any more, and once the
// handlers running records of tps returned, or WithRevokeTimeout passed,
// their committable offsets are committed and the partitions forgotten.
func (c *Consumer) revoke(ctx context.Context, cl *kgo.Client, tps map[string][]int32) {
	ps := c.stop(tps)
	if c.cfg.revoking != nil {
		c.cfg.revoking(tps)
	}
	c.awaitIdle(ps, c.cfg.revokeTimeout(cl))
	_ = c.commitParts(ctx, ps) // a failed commit: the next owner reads again from the last one
	c.forget(ps)
}

// lose is the OnPartitionsLost hook: no record of tps starts any more, and
// nothing is committed, since the group has moved on without this member.
func (c *Consumer) lose(_ context.Context, _ *kgo.Client, tps map[string][]int32) {
	c.forget(c.stop(tps))
}

// stop marks the assignments of tps revoked, so that their records held
// are not run, and returns them.
func (c *Consumer) stop(tps map[string][]int32) []*part {
	c.mu.Lock()
	defer c.mu.Unlock()
	var ps []*part
	for topic, parts := range tps {
		for _, p := range parts {
			if a := c.assigned[topicPartition{topic, p}]; a != nil {
				a.revoked.Store(true)
				ps = append(ps, a)
			}
		}
	}
	return ps
}

// forget drops the assignments ps.
func (c *Consumer) forget(ps []*part) {
	c.mu.Lock()
	for _, p := range ps {
		p.gone = true
		if c.assigned[p.tp] == p {
			delete(c.assigned, p.tp)
		}
		c.retired = append(c.retired, p.id)
	}
	c.mu.Unlock()
	c.retire()
}

// retire asks the executor to forget the executor partitions of the
// assignments forgotten (see live.Executor.Forget): those whose records
// it still holds, revoked and not yet skipped, are asked again on the
// next commit.
func (c *Consumer) retire() {
	c.mu.Lock()
	ids := c.retired
	c.retired = nil
	c.mu.Unlock()
	ids = slices.DeleteFunc(ids, c.x.Forget)
	c.mu.Lock()
	c.retired = append(c.retired, ids...)
	c.mu.Unlock()
}

// awaitIdle waits until no handler runs a record of ps, or for d at most.
func (c *Consumer) awaitIdle(ps []*part, d time.Duration) {
	timedOut := false // under mu: the timer's word, not the clock's, so that no wait outlives it
	timer := time.AfterFunc(d, func() {
		c.mu.Lock()
		timedOut = true
		c.idle.Broadcast()
		c.mu.Unlock()
	})
	defer timer.Stop()
	c.mu.Lock()
	defer c.mu.Unlock()
	for c.busy(ps) && !timedOut {
		c.idle.Wait()
	}
}

// busy tells whether a handler runs a record of ps. It takes time in
// proportion to the consumers and ps.
func (c *Consumer) busy(ps []*part) bool {
	for i := range c.seats {
		if on := c.seats[i].on.Load(); on != nil && slices.Contains(ps, on) {
			return true
		}
	}
	return false
}

// commit commits the partitions assigned now, and asks the executor again
// to forget those given up (see retire).
func (c *Consumer) commit(ctx context.Context) error {
	c.retire()
	c.mu.Lock()
	ps := make([]*part, 0, len(c.assigned))
	for _, p := range c.assigned {
		ps = append(ps, p)
	}
	c.mu.Unlock()
	return c.commitParts(ctx, ps)
}

// commitParts commits, for each of ps, the offset below which every record
// has finished, with the finished offsets above it as metadata, when
// either changed since the last commit. Commits are made one at a time,
// each from the executor's completion read after the one before ended, so
// that a slow commit never lands after a newer one. A partition whose
// metadata the broker refuses as too long (its offset.metadata.max.bytes
// set below MaxMetadata) is committed again at once, its offset alone, as
// one whose metadata passes MaxMetadata is. A partition Kafka takes is
// committed, counted and not sent again, though it refuses others in the
// same request; the commit counts as failed, and those are sent again.
func (c *Consumer) commitParts(ctx context.Context, ps []*part) error {
	c.commitMu.Lock()
	defer c.commitMu.Unlock()
	offsets, meta, sent, cut := c.pending(ps)
	if len(sent) == 0 {
		return nil
	}
	if c.cfg.commitRead != nil {
		tps := make([]topicPartition, len(sent))
		for i, p := range sent {
			tps[i] = p.tp
		}
		c.cfg.commitRead(tps)
	}
	r := c.send(ctx, offsets, meta, sent)
	if r.gone {
		return nil // every partition was lost while the commit waited: nothing of this member's to commit
	}
	landed, cerr := r.landed(), r.err
	var stripped []*PartitionError // the partitions committed without their metadata
	for _, p := range landed {
		if cut[p] != nil {
			stripped = append(stripped, &PartitionError{p.tp.topic, p.tp.partition,
				fmt.Errorf("offset %d committed without its metadata: %w", offsets[p.tp.topic][p.tp.partition].Offset, cut[p])})
		}
	}
	if len(r.large) > 0 {
		alone := c.sendAlone(ctx, r.large, offsets, meta, sent)
		for _, p := range alone.landed() {
			landed = append(landed, p)
			stripped = append(stripped, &PartitionError{p.tp.topic, p.tp.partition, fmt.Errorf(
				"offset %d committed without its metadata, which the broker refused as too long (its offset.metadata.max.bytes)",
				offsets[p.tp.topic][p.tp.partition].Offset)})
		}
		cerr = errors.Join(cerr, alone.err)
	}
	if cerr != nil && errors.Is(context.Cause(ctx), errSuperseded) && onlyCutShort(cerr) {
		return cerr // cut short as Run's own commit takes over: no failure of Kafka's
	}
	c.countCommit(cerr)
	c.dropped.Add(int64(len(stripped)))
	for _, e := range stripped {
		c.noteMetadata(e.Topic, e.Partition, e.Err)
	}
	c.mu.Lock()
	for _, p := range landed { // those Kafka took, though it refused others
		p.committed = offsets[p.tp.topic][p.tp.partition].Offset
		p.committedMeta = meta[p.tp]
		p.landedGen = p.sentGen
		if c.cfg.commitSent != nil {
			c.cfg.commitSent(p.tp, p.committed, p.committedMeta)
		}
	}
	c.mu.Unlock()
	return cerr
}

// onlyCutShort tells whether err, and each error it joins, is a context's
// cancellation or a refusal franz-go retries a commit after: a commit cut
// short, its request in flight or franz-go waiting to retry a refusal
// (which of the two falls to the moment the cut comes), and no refusal of
// Kafka's that settles the commit. franz-go retries a commit only when its
// coordinator is moving or loading (the first partition's code says so);
// other codes kerr calls retriable, UNKNOWN_TOPIC_OR_PARTITION say, come
// back in Kafka's answer, final for this commit.
func onlyCutShort(err error) bool {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		for _, e := range j.Unwrap() {
			if !onlyCutShort(e) {
				return false
			}
		}
		return true
	}
	return errors.Is(err, context.Canceled) || errors.Is(err, kerr.NotCoordinator) ||
		errors.Is(err, kerr.CoordinatorNotAvailable) || errors.Is(err, kerr.CoordinatorLoadInProgress)
}

// sendAlone commits again, their offsets alone, the partitions of sent
// whose metadata the broker refused as too long (large), clearing it in
// meta.
func (c *Consumer) sendAlone(ctx context.Context, large []topicPartition, offsets map[string]map[int32]kgo.EpochOffset,
	meta map[topicPartition]string, sent []*part) commitResult {
	alone, again := map[string]map[int32]kgo.EpochOffset{}, []*part{}
	for _, p := range sent {
		if slices.Contains(large, p.tp) {
			meta[p.tp] = ""
			if alone[p.tp.topic] == nil {
				alone[p.tp.topic] = map[int32]kgo.EpochOffset{}
			}
			alone[p.tp.topic][p.tp.partition] = offsets[p.tp.topic][p.tp.partition]
			again = append(again, p)
		}
	}
	return c.send(ctx, alone, meta, again)
}

// commitResult is what one commit request did: the partitions the broker
// refused as their metadata was too long (large), and those it took
// (accepted), of those the request carried (kept); whether every
// partition was gone before the request was sent (then nothing was);
// and the request's error but for the refusals of large.
type commitResult struct {
	large, accepted []topicPartition
	kept            []*part
	gone            bool
	err             error
}

// landed returns the partitions the request carried that the broker
// took, in time in proportion to them.
func (r commitResult) landed() []*part {
	took := make(map[topicPartition]bool, len(r.accepted))
	for _, tp := range r.accepted {
		took[tp] = true
	}
	var out []*part
	for _, p := range r.kept {
		if took[p.tp] {
			out = append(out, p)
		}
	}
	return out
}

// send makes one commit request of offsets, with meta, for the partitions
// of sent (see owned), and returns what it did.
func (c *Consumer) send(ctx context.Context, offsets map[string]map[int32]kgo.EpochOffset, meta map[topicPartition]string, sent []*part) commitResult {
	var r commitResult
	ctx = kgo.PreCommitFnContext(ctx, func(req *kmsg.OffsetCommitRequest) error {
		var err error
		r.kept, err = c.owned(req, meta, sent)
		return err
	})
	c.cl.CommitOffsetsSync(ctx, offsets, func(_ *kgo.Client, req *kmsg.OffsetCommitRequest, resp *kmsg.OffsetCommitResponse, err error) {
		r.large, r.accepted, r.err = commitError(req, resp, err)
	})
	if errors.Is(r.err, errAllGone) {
		return commitResult{gone: true}
	}
	return r
}

// owned is commitParts's last word on a commit request, once franz-go has
// made it: it sets each partition's metadata, "" included (left nil,
// franz-go would commit the member's ID as metadata), and takes out the
// partitions of sent forgotten since pending read them, lost or revoked
// while the commit waited for its turn: franz-go may send a commit made
// before a loss with the generation joined after it, for partitions
// another member now owns. It returns the partitions of sent it kept, and
// errAllGone when none is left.
func (c *Consumer) owned(req *kmsg.OffsetCommitRequest, meta map[topicPartition]string, sent []*part) ([]*part, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	var kept []*part
	for i := range req.Topics {
		t := &req.Topics[i]
		t.Partitions = slices.DeleteFunc(t.Partitions, func(rp kmsg.OffsetCommitRequestTopicPartition) bool {
			tp := topicPartition{t.Topic, rp.Partition}
			at := slices.IndexFunc(sent, func(p *part) bool { return p.tp == tp })
			if at < 0 || sent[at].gone {
				return true
			}
			kept = append(kept, sent[at])
			return false
		})
		for j := range t.Partitions {
			if m, ok := meta[topicPartition{t.Topic, t.Partitions[j].Partition}]; ok {
				t.Partitions[j].Metadata = &m
			}
		}
	}
	req.Topics = slices.DeleteFunc(req.Topics, func(t kmsg.OffsetCommitRequestTopic) bool { return len(t.Partitions) == 0 })
	if len(req.Topics) == 0 {
		return nil, errAllGone
	}
	return kept, nil
}

// errAllGone is owned's word that a commit has no partition left to send.
var errAllGone = errors.New("every partition of the commit is gone")

// pending returns what commitParts commits for ps: the offsets, their
// metadata, the partitions whose offset or metadata changed since their
// last commit (an assignment a data-loss reset started, with no record
// submitted yet, commits where fetching was set back with no metadata,
// once: the old assignment's commit may name offsets of the log before it
// diverged, and must not stand; see resetPart), and those of them
// committed without their metadata, too long for Kafka (counted in
// Consumer.dropped once the commit is made), which the throttle (see
// Consumer.taken) leaves unreachable.
func (c *Consumer) pending(ps []*part) (map[string]map[int32]kgo.EpochOffset, map[topicPartition]string, []*part, map[*part]error) {
	// The seats are read before Completion: a record whose result
	// Completion does not count yet is still in its consumer's seat.
	recent := make([]ended, len(c.seats))
	for i := range c.seats {
		s := &c.seats[i]
		s.mu.Lock()
		recent[i] = s.last
		s.mu.Unlock()
	}
	done := map[int]live.Completion{}
	for _, comp := range c.x.Completion() {
		done[comp.Partition] = comp
	}
	offsets := map[string]map[int32]kgo.EpochOffset{}
	meta := map[topicPartition]string{}
	var sent []*part
	cut := map[*part]error{}
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, p := range ps {
		comp, ok := done[p.id]
		if p.gone {
			continue // no longer this member's to commit
		}
		if !ok { // nothing read yet
			if c.resetDue(p) {
				setOffset(offsets, p.tp, kgo.EpochOffset{Epoch: p.resetEpoch, Offset: p.resetFrom})
				meta[p.tp] = ""
				sent = append(sent, p)
				p.sentGen = p.resetGen
			}
			continue
		}
		f, ferr := p.finished(comp, recent)
		prior := p.priorKept() // read once: the poll loop may lower it meanwhile
		at, m, err := priorMetadata(f, prior)
		if at == p.committed && m == p.committedMeta {
			p.landedGen = p.resetGen // the group's commit is the records' already
			continue
		}
		p.sentGen = p.resetGen
		if err != nil || ferr != nil {
			cut[p] = cmp.Or(err, ferr) // a commit made without its metadata
		}
		setOffset(offsets, p.tp, kgo.EpochOffset{Epoch: p.commitEpoch(at, m, f, prior), Offset: at})
		meta[p.tp] = m
		sent = append(sent, p)
	}
	return offsets, meta, sent, cut
}

// resetDue tells, under Consumer.mu, whether p, which has read no record,
// is to commit its reset's offset (resetFrom) now: a reset set it since
// the last commit of p that landed, but for a commit past the log's end
// whose fetching the hook has yet to start (see resetPastEnd), which a
// commit now would change what franz-go fetches for, and where the hook
// starts the partition, if the session ends first; a revocation's commit,
// and Run's last, are made all the same, so that the next owner does not
// find the commit past the end.
func (c *Consumer) resetDue(p *part) bool {
	switch {
	case p.resetGen == p.landedGen:
		return false
	case p.stale >= 0 && !p.revoked.Load() && !c.ending.Load():
		return false
	case p.resetFrom == p.committed && p.committedMeta == "":
		p.landedGen = p.resetGen // the group's commit is the reset's already
		return false
	}
	return true
}

// commitEpoch returns, under Consumer.mu, the leader epoch a commit of
// offset at with metadata m carries, f being what p counts finished and
// prior what it keeps of the commit it started from (priorKept): that
// of the highest record the commit covers (the record below at, or the
// highest m names finished), so that the next owner checks the log up to
// it: franz-go the record below at (KIP-320: a log cut below it; an epoch
// at least that record's is what the check needs), and checkDiverged
// those m names; with no metadata, that of the record at at when it was
// read, which offsets below it that no poll returned may share. The
// epochs of the records p read are noted (epochOf, up to notedTo); a
// record the commit covers that p has not read, one the prior commit
// names finished, has at most the prior commit's epoch, and -1 (unknown:
// franz-go then checks nothing) when that has none.
func (p *part) commitEpoch(at int64, m string, f, prior Finished) int32 {
	below := p.epochBelow(at) // the epochs below the record below at are pruned
	top := at - 1
	if m != "" {
		if n := len(f.runs); n > 0 {
			top = max(top, f.runs[n-1].Last)
		}
		if n := len(prior.runs); n > 0 {
			top = max(top, prior.runs[n-1].Last)
		}
	}
	noted := p.notedTo.Load()
	switch {
	case top > noted && p.priorEpoch < 0:
		return -1
	case top > noted:
		return max(p.priorEpoch, p.epochOf(noted))
	case m == "" && at <= noted:
		// The record at at was read: offsets below it that no poll
		// returned (compacted, or an aborted transaction's) may be of its
		// epoch, later than the record read below them, and the leader's
		// epoch then ends past them, at or above at.
		return p.epochOf(at)
	case m == "":
		return below
	}
	return p.epochOf(top)
}

// finished returns what p may count finished, under c.mu, by comp, its
// executor partition's completion, and by the records whose results comp
// may not count yet: those of p.late, and of recent, the consumers' last
// (see withLate); less the records skipped on a revocation (see
// unskipped). Its error, which the executor's offsets, increasing above
// its committable offset, never give, leaves no offset above it finished.
func (p *part) finished(comp live.Completion, recent []ended) (Finished, error) {
	at, finished := comp.Committable, comp.Finished
	late := p.late
	for _, e := range recent {
		if e.p == p {
			late = append(late[:len(late):len(late)], e.offset)
		}
	}
	if len(late) > 0 {
		at, finished = withLate(at, finished, late)
	}
	f, err := NewFinished(at, finished)
	if err != nil {
		f = Finished{committable: at}
	}
	if p.skipFrom >= 0 {
		f = unskipped(f, p.skipFrom, p.skipped)
	}
	return f, err
}

// setOffset sets the offset of tp in offsets, a commit's, to o.
func setOffset(offsets map[string]map[int32]kgo.EpochOffset, tp topicPartition, o kgo.EpochOffset) {
	if offsets[tp.topic] == nil {
		offsets[tp.topic] = map[int32]kgo.EpochOffset{}
	}
	offsets[tp.topic][tp.partition] = o
}

// withLate returns the committable offset and the finished offsets above
// it of a partition whose records at the offsets late finished, which the
// executor, whose committable offset is at and finished offsets above it
// finished, may not count yet: a revocation wakes when the last handler
// returns, maybe before the executor took its result. It takes time in
// proportion to the offsets.
func withLate(at int64, finished, late []int64) (int64, []int64) {
	all := slices.Clone(finished)
	for _, o := range late {
		if o >= at {
			all = append(all, o)
		}
	}
	slices.Sort(all)
	all = slices.Compact(all)
	for len(all) > 0 && all[0] == at {
		all, at = all[1:], at+1
	}
	return at, all
}

// unskipped returns what a partition may commit whose records at the
// offsets skipped, the lowest skipFrom, were not run because it was
// revoked, given f, what the executor counts finished, which counts those
// records finished: the offset at most skipFrom, and as finished the
// offsets above it that f counts finished, but the skipped ones. Naming a
// skipped record finished would have the next owner skip it too: a record
// lost. The offsets from skipFrom to f's committable offset are runs, not
// listed one by one, so that it takes O(r + s log s) time and memory for
// f's r runs and the s records skipped, never in proportion to the
// offsets a run spans (a gap of 2^40 offsets, as compaction leaves, is
// one run).
func unskipped(f Finished, skipFrom int64, skipped []int64) Finished {
	skip := slices.Clone(skipped)
	slices.Sort(skip)
	var runs []Run
	add := func(r Run) { // r less the skipped offsets, after runs
		for k, _ := slices.BinarySearch(skip, r.First); r.First <= r.Last; k++ {
			last := r.Last
			if k < len(skip) && skip[k] <= r.Last {
				last = skip[k] - 1
			}
			if r.First <= last {
				if n := len(runs); n > 0 && runs[n-1].Last == r.First-1 {
					runs[n-1].Last = last
				} else {
					runs = append(runs, Run{First: r.First, Last: last})
				}
			}
			if last >= r.Last-1 { // the run's end, or a skipped offset at it
				return
			}
			r.First = last + 2 // past the skipped offset, which is below r.Last
		}
	}
	at := f.committable
	if skipFrom < at {
		if skipFrom+1 < at {
			add(Run{First: skipFrom + 1, Last: at - 1})
		}
		at = skipFrom
	}
	for _, r := range f.runs {
		add(r)
	}
	return Finished{committable: at, runs: runs, runBytes: runBytes(at-1, runs)}
}

// commitError returns the error of a commit: err, or each partition's
// error in resp, the response to req, but OFFSET_METADATA_TOO_LARGE, whose
// partitions it returns instead (large), with those resp says were
// committed (accepted).
func commitError(req *kmsg.OffsetCommitRequest, resp *kmsg.OffsetCommitResponse, err error) (large, accepted []topicPartition, _ error) {
	if err != nil {
		return nil, nil, fmt.Errorf("kafka: commit: %w", err)
	}
	var errs []error
	for i, t := range resp.Topics {
		for _, p := range t.Partitions {
			switch p.ErrorCode {
			case 0:
				accepted = append(accepted, topicPartition{topicOf(req, t, i), p.Partition})
			case kerr.OffsetMetadataTooLarge.Code:
				large = append(large, topicPartition{topicOf(req, t, i), p.Partition})
			default:
				errs = append(errs, fmt.Errorf("kafka: commit %s/%d: %w", topicOf(req, t, i), p.Partition, kerr.ErrorForCode(p.ErrorCode)))
			}
		}
	}
	return large, accepted, errors.Join(errs...)
}

// topicOf returns the name of topic t, the i-th of a commit's response to
// req: its own, or, from version 10 on, which names topics by ID, the
// name of req's topic of that ID, or else req's i-th, as sent.
func topicOf(req *kmsg.OffsetCommitRequest, t kmsg.OffsetCommitResponseTopic, i int) string {
	if t.Topic != "" || req == nil {
		return t.Topic
	}
	for _, rt := range req.Topics {
		if rt.TopicID == t.TopicID && t.TopicID != [16]byte{} {
			return rt.Topic
		}
	}
	if i < len(req.Topics) {
		return req.Topics[i].Topic
	}
	return ""
}

// priorMetadata returns the offset and metadata committed for a partition
// whose records f counts finished ([Finished.Metadata]: "" and an error
// when they do not fit in MaxMetadata bytes, the offset then committed
// alone, its records run again by the next owner), and whose
// assignment started from a commit whose metadata names the records of
// prior finished: those count too, so that they are not run again by the
// next owner when this member hands the partition on before it read that
// far. The offset moves past records prior names finished from f's
// committable offset on. It takes time in proportion to the runs, never
// to the offsets the runs span.
func priorMetadata(f Finished, prior Finished) (int64, string, error) {
	at := f.committable
	if len(prior.runs) == 0 || prior.runs[len(prior.runs)-1].Last < at {
		m, err := f.Metadata()
		return at, m, err
	}
	all := append(slices.Clone(f.runs), prior.runs...)
	slices.SortFunc(all, func(a, b Run) int { return cmp.Compare(a.First, b.First) })
	var runs []Run
	for _, r := range all {
		if r.Last < at {
			continue
		}
		r.First = max(r.First, at)
		if n := len(runs); n > 0 && r.First-1 <= runs[n-1].Last {
			runs[n-1].Last = max(runs[n-1].Last, r.Last)
		} else {
			runs = append(runs, r)
		}
	}
	for len(runs) > 0 && runs[0].First == at {
		if runs[0].Last == math.MaxInt64 {
			m, err := f.Metadata() // no offset above to commit: f's alone, prior's records run again
			return f.committable, m, err
		}
		at, runs = runs[0].Last+1, runs[1:]
	}
	f = Finished{committable: at, runs: runs, runBytes: runBytes(at-1, runs)}
	m, err := f.Metadata()
	return at, m, err
}
