package kafka

import (
	"context"
	"math/rand/v2"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sirali-konvoy/konvoy"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// A commit reads partitions 0 and 1, partition 0's metadata too long
// (its prior runs merged in), then waits for franz-go's commit lock while
// partition 0 is lost. owned takes partition 0 out of the request, so it
// is not committed at all, and Commits must not count it WithoutMetadata
// (it did: found by a review). A hook tells when the commit has read the
// partitions, so the loss comes after, as the test means it to.
func TestAPartitionLostBeforeItsCommitIsNotCountedWithoutMetadata(t *testing.T) {
	addrs := cluster(t, 2)
	ends := produce(t, addrs, 40, 8, 1)
	l := newLedger(40)
	read := make(chan []topicPartition, 1) // the partitions the test's commit read
	var watch atomic.Bool
	c, err := New(memberOpts(addrs), konvoy.Convoy, 2, keyEvent, l.handler(0, nil), WithCommitInterval(time.Hour),
		func(cfg *config) {
			cfg.commitRead = func(tps []topicPartition) {
				if watch.Load() {
					read <- tps
				}
			}
		})
	if err != nil {
		t.Fatal(err)
	}
	stop := start(c)
	l.awaitAll(t)
	// Partition 0's prior: random runs far above its end, too many for 4 KB.
	rng := rand.New(rand.NewPCG(1, 2))
	var fin []int64
	for o := ends[0] + 1; len(fin) < 20000; o += 2 + int64(rng.IntN(20)) {
		fin = append(fin, o)
	}
	prior, err := NewFinished(ends[0], fin)
	if err != nil {
		t.Fatal(err)
	}
	c.mu.Lock()
	p0 := c.assigned[topicPartition{testTopic, 0}]
	p0.prior = prior
	c.mu.Unlock()
	// Hold franz-go's commit lock with a commit of our own whose onDone waits.
	release, held := make(chan struct{}), make(chan struct{})
	go c.cl.CommitOffsetsSync(context.Background(), map[string]map[int32]kgo.EpochOffset{testTopic: {1: {Epoch: -1, Offset: 0}}},
		func(*kgo.Client, *kmsg.OffsetCommitRequest, *kmsg.OffsetCommitResponse, error) {
			close(held)
			<-release
		})
	<-held
	cerr := make(chan error, 1)
	watch.Store(true)
	go func() { cerr <- c.commit(context.Background()) }()
	// The commit has read both partitions, and waits for the lock.
	if tps := <-read; !slices.Contains(tps, topicPartition{testTopic, 0}) || !slices.Contains(tps, topicPartition{testTopic, 1}) {
		t.Fatalf("the commit read %v; want partitions 0 and 1", tps)
	}
	c.lose(context.Background(), c.cl, map[string][]int32{testTopic: {0}})
	close(release)
	if err := <-cerr; err != nil {
		t.Fatal(err)
	}
	if got := committed(t, addrs); got[0] == ends[0] {
		t.Fatalf("partition 0 committed at %d: it was lost before the commit", got[0])
	}
	if s := c.Commits(); s.WithoutMetadata != 0 {
		t.Errorf("WithoutMetadata %d; want 0: partition 0 was lost, and not committed at all", s.WithoutMetadata)
	}
	_ = stop()
}
