package kafka

import (
	"github.com/twmb/franz-go/pkg/kgo"
)

// resumeSlack is how far past a throttled partition's first record not
// taken its reach must move before the partition is taken again: a
// committable offset that creeps up one record at a time resumes it once
// per 1024 offsets, not once per record.
const resumeSlack = 1024

// window is what one poll knows of a partition's committable offset:
// read from the executor once, at the first record of the partition that
// the poll hands on, it is at most the true one, since committable
// offsets only grow. last is the highest offset submitted, or -1, which
// the poll writes back to part.last once it is done with the partition.
type window struct {
	at, reach int64 // and Reach(at)
	read      bool  // at was read
	last      int64
}

// taken returns whether the poll loop may hand r, of assignment p, to the
// executor now, given w, what this poll knows of p's committable offset
// (taken reads it the first time, and sets it to r's offset when nothing
// held is unfinished) and its last offset submitted (which taken sets to
// r's when it takes r). It may not when r's offset is above Reach of its
// partition's committable offset: whatever then finished of the records
// held, the commit's metadata could pass MaxMetadata. Then taken
// throttles the partition: it pauses fetching it and sets its fetch
// offset back to r's, so that r and the records after it that this poll
// returned are fetched again, in order, once the partition resumes; until
// then taken refuses them. Under BlockRebalanceOnPoll, the partition is
// assigned and its offset may be set. It takes constant time.
func (c *Consumer) taken(r *kgo.Record, p *part, w *window) bool {
	if p.stoppedAt >= 0 {
		return false
	}
	if !w.read {
		at, ok := c.x.Committable(p.id)
		if !ok {
			at = r.Offset // nothing submitted yet: r becomes the committable offset
		}
		w.at, w.reach, w.read = at, Reach(at), true
	}
	if w.at > w.last { // nothing held unfinished: r becomes the committable offset
		w.at, w.reach = r.Offset, Reach(r.Offset)
	}
	if r.Offset <= w.reach {
		w.last = r.Offset
		return true
	}
	p.stoppedAt = r.Offset
	c.throttled.Add(1)
	c.cl.PauseFetchPartitions(map[string][]int32{r.Topic: {r.Partition}})
	c.cl.SetOffsets(map[string]map[int32]kgo.EpochOffset{r.Topic: {r.Partition: {Epoch: -1, Offset: r.Offset}}})
	if c.cfg.throttling != nil {
		c.cfg.throttling(r.Topic, r.Partition, r.Offset)
	}
	return false
}

// unthrottle takes again, at the start of a poll, the throttled
// partitions whose committable offset moved enough: every record held
// finished, or the reach passed the first record not taken by
// resumeSlack. It also resumes any partition paused that is not throttled
// by its current assignment (one throttled, then revoked), so that a
// pause never outlives its assignment. It takes time in proportion to the
// partitions assigned and paused. committable gives an executor
// partition's committable offset, as [live.Executor.Committable] does.
func (c *Consumer) unthrottle(committable func(id int) (int64, bool)) {
	c.mu.Lock()
	stopped := map[topicPartition]bool{}
	resume := map[string][]int32{}
	for tp, p := range c.assigned {
		if p.stoppedAt < 0 {
			continue
		}
		// Reach is at least about 24,500, and stoppedAt may be near the
		// largest offset: the slack comes off the one, not onto the other.
		if at, ok := committable(p.id); ok && (at > p.last || Reach(at)-resumeSlack >= p.stoppedAt) {
			p.stoppedAt = -1
			resume[tp.topic] = append(resume[tp.topic], tp.partition)
			continue
		}
		stopped[tp] = true
	}
	c.mu.Unlock()
	for topic, ps := range c.cl.PauseFetchPartitions(nil) {
		for _, p := range ps {
			if !stopped[topicPartition{topic, p}] {
				resume[topic] = append(resume[topic], p)
			}
		}
	}
	if len(resume) > 0 {
		c.cl.ResumeFetchPartitions(resume)
	}
}
