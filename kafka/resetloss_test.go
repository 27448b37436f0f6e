package kafka

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/sirali-konvoy/konvoy"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
)

// A data loss resets fetching to offset 10 (kgo.ConsumeResetOffset), above
// record 9, which waits (same key) behind record 5, still running, and
// below the last record taken, 19. The new assignment must fetch again from
// 5, the first record not finished: record 9, held by the old assignment
// and dropped with it, was never fetched again, and the new assignment's
// commits passed it (found by a review).
func TestAResetAboveARecordNotFinishedFetchesItAgain(t *testing.T) {
	kc := fakeCluster(t, 1)
	addrs := kc.ListenAddrs()
	produceKeyedAndCommit(t, addrs)
	var mu sync.Mutex
	seen := map[int64]int{}
	release := make(chan struct{})
	handle := func(_ context.Context, r *kgo.Record) error {
		if r.Offset == 5 {
			<-release
		}
		mu.Lock()
		seen[r.Offset]++
		mu.Unlock()
		return nil
	}
	count := func() int { mu.Lock(); defer mu.Unlock(); return len(seen) }
	opts := append(memberOpts(addrs), kgo.ConsumeResetOffset(kgo.NewOffset().At(10)))
	c, err := New(opts, konvoy.Convoy, 4, keyEvent, handle, WithCommitInterval(50*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	stop := start(c)
	for deadline := time.Now().Add(testWait); count() < 18; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d of 18 handled", count())
		}
	}
	injected := answerOutOfRange(kc)
	for deadline := time.Now().Add(testWait); c.Commits().Reset < 1; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("no reset (injected %v, data loss %d)", injected.Load(), c.Commits().DataLoss)
		}
	}
	close(release)
	// Record 9 runs again once the fetch from offset 5 reads it: wait for
	// that, not for a time, before the stop commits; at testWait the stop
	// and the check below say what ran and what was committed.
	eventually(func() bool { mu.Lock(); defer mu.Unlock(); return seen[9] > 0 })
	if err := stop(); err != nil {
		t.Fatalf("Run: %v", err)
	}
	mu.Lock()
	defer mu.Unlock()
	got := committed(t, addrs)
	if seen[9] == 0 || got[0] != 20 {
		t.Errorf("record 9 handled %d times, committed offset %d; want it handled and offset 20 (handled %v; commits %+v)", seen[9], got[0], seen, c.Commits())
	}
}

// produceKeyedAndCommit writes 20 records to partition 0, all of their own key
// but records 5 and 9, of key "a", and commits offset 0 for the group.
func produceKeyedAndCommit(t *testing.T, addrs []string) {
	t.Helper()
	pc := producer(t, addrs)
	var rs []*kgo.Record
	for i := 0; i < 20; i++ {
		k := fmt.Sprintf("u%d", i)
		if i == 5 || i == 9 {
			k = "a"
		}
		rs = append(rs, &kgo.Record{Key: []byte(k), Value: []byte(fmt.Sprint(i)), Partition: 0})
	}
	if err := pc.ProduceSync(context.Background(), rs...).FirstErr(); err != nil {
		t.Fatal(err)
	}
	adm := kadm.NewClient(pc)
	os := kadm.Offsets{}
	os.Add(kadm.Offset{Topic: testTopic, Partition: 0, At: 0, LeaderEpoch: -1})
	if _, err := adm.CommitOffsets(context.Background(), testGroup, os); err != nil {
		t.Fatal(err)
	}
}
