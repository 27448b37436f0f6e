package kafka

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/sirali-konvoy/konvoy/live"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// assign is the OnPartitionsAssigned hook: each partition assigned gets a
// new executor partition.
func (c *Consumer) assign(_ context.Context, _ *kgo.Client, tps map[string][]int32) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for topic, ps := range tps {
		for _, p := range ps {
			tp := topicPartition{topic, p}
			c.assigned[tp] = &part{id: c.nextID, tp: tp, skipFrom: -1, committed: -1}
			c.nextID++
		}
	}
}

// revoke is the OnPartitionsRevoked hook, run while the poll loop lets
// rebalances go on: no record of tps starts any more, and once the
// handlers running records of tps returned, or WithRevokeTimeout passed,
// their committable offsets are committed and the partitions forgotten.
func (c *Consumer) revoke(ctx context.Context, _ *kgo.Client, tps map[string][]int32) {
	ps := c.stop(tps)
	if c.cfg.revoking != nil {
		c.cfg.revoking(tps)
	}
	c.awaitIdle(ps, c.cfg.revokeWait)
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
				a.revoked = true
				ps = append(ps, a)
			}
		}
	}
	return ps
}

// forget drops the assignments ps.
func (c *Consumer) forget(ps []*part) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, p := range ps {
		if c.assigned[p.tp] == p {
			delete(c.assigned, p.tp)
		}
	}
}

// awaitIdle waits until no handler runs a record of ps, or for d at most.
func (c *Consumer) awaitIdle(ps []*part, d time.Duration) {
	timer := time.AfterFunc(d, func() {
		c.mu.Lock()
		c.idle.Broadcast()
		c.mu.Unlock()
	})
	defer timer.Stop()
	deadline := time.Now().Add(d)
	c.mu.Lock()
	defer c.mu.Unlock()
	for busy(ps) && time.Now().Before(deadline) {
		c.idle.Wait()
	}
}

// busy tells whether a handler runs a record of ps; Consumer.mu is held.
func busy(ps []*part) bool {
	for _, p := range ps {
		if p.running > 0 {
			return true
		}
	}
	return false
}

// commit commits the partitions assigned now.
func (c *Consumer) commit(ctx context.Context) error {
	c.mu.Lock()
	ps := make([]*part, 0, len(c.assigned))
	for _, p := range c.assigned {
		ps = append(ps, p)
	}
	c.mu.Unlock()
	return c.commitParts(ctx, ps)
}

// commitParts commits, for each of ps, the offset below which every record
// has finished, when it moved since the last commit. Commits are made one
// at a time, each from the executor's completion read after the one
// before ended, so that a slow commit never lands after a newer one.
func (c *Consumer) commitParts(ctx context.Context, ps []*part) error {
	c.commitMu.Lock()
	defer c.commitMu.Unlock()
	done := map[int]live.Completion{}
	for _, comp := range c.x.Completion() {
		done[comp.Partition] = comp
	}
	offsets := map[string]map[int32]kgo.EpochOffset{}
	meta := map[topicPartition]string{}
	var sent []*part
	c.mu.Lock()
	for _, p := range ps {
		comp, ok := done[p.id]
		if !ok {
			continue // nothing read yet
		}
		at := comp.Committable
		if p.skipFrom >= 0 && p.skipFrom < at {
			at = p.skipFrom
			comp.Finished = nil // the metadata would name records above a skipped one
		}
		if at == p.committed {
			continue
		}
		if offsets[p.tp.topic] == nil {
			offsets[p.tp.topic] = map[int32]kgo.EpochOffset{}
		}
		offsets[p.tp.topic][p.tp.partition] = kgo.EpochOffset{Epoch: -1, Offset: at}
		meta[p.tp] = commitMetadata(at, comp.Finished)
		sent = append(sent, p)
	}
	c.mu.Unlock()
	if len(sent) == 0 {
		return nil
	}
	var cerr error
	ctx = kgo.PreCommitFnContext(ctx, func(req *kmsg.OffsetCommitRequest) error {
		for i := range req.Topics {
			t := &req.Topics[i]
			for j := range t.Partitions {
				if m := meta[topicPartition{t.Topic, t.Partitions[j].Partition}]; m != "" {
					t.Partitions[j].Metadata = &m
				}
			}
		}
		return nil
	})
	c.cl.CommitOffsetsSync(ctx, offsets, func(_ *kgo.Client, _ *kmsg.OffsetCommitRequest, resp *kmsg.OffsetCommitResponse, err error) {
		cerr = commitError(resp, err)
	})
	if cerr != nil {
		return cerr
	}
	c.mu.Lock()
	for _, p := range sent {
		p.committed = offsets[p.tp.topic][p.tp.partition].Offset
	}
	c.mu.Unlock()
	return nil
}

// commitError returns the error of a commit: err, or the first partition's
// error in resp.
func commitError(resp *kmsg.OffsetCommitResponse, err error) error {
	if err != nil {
		return fmt.Errorf("kafka: commit: %w", err)
	}
	var errs []error
	for _, t := range resp.Topics {
		for _, p := range t.Partitions {
			if p.ErrorCode != 0 {
				errs = append(errs, fmt.Errorf("kafka: commit %s/%d: error code %d", t.Topic, p.Partition, p.ErrorCode))
			}
		}
	}
	return errors.Join(errs...)
}

// commitMetadata returns the metadata committed with offset at of a
// partition whose records at the offsets finished, all above at, have
// finished: the place where the finished offsets are to be written, so
// that the next owner skips them, and read back on assignment. It returns
// "" for now, and the next owner runs those records again.
func commitMetadata(at int64, finished []int64) string {
	_, _ = at, finished
	return ""
}
