package kafka

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sirali-konvoy/konvoy"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// The log is cut at 10 and regrown while a member holds 0..19: 5 runs, 9
// waits behind it (key "a"), the rest finished; offset 5 is committed with
// metadata naming 6..8 and 10..19. franz-go reports the data loss and fetches
// from 10; resetPart sets fetching back to 5 under a new assignment. The
// member closes before that assignment takes a record: the old commit must
// not stand, even for the interval's time (a crash may come at any time),
// or the next member skips 10..19 of the regrown log, records no member
// handled. kfake cannot cut a log: a second cluster holds the regrown
// one, and once the loss is injected the first answers fetches with it.
func TestAResetLeavesNoStaleMetadataOfTheOldLog(t *testing.T) {
	kc, kb := fakeCluster(t, 1), fakeCluster(t, 1)
	addrs := kc.ListenAddrs()
	produceKeyedAndCommit(t, addrs) // values "0".."19"
	produceRegrown(t, kb.ListenAddrs())
	var mu sync.Mutex
	seen := map[string]int{} // value → times handled, by any member
	release := make(chan struct{})
	var once atomic.Bool
	handle := func(_ context.Context, r *kgo.Record) error {
		if r.Offset == 5 && once.CompareAndSwap(false, true) {
			<-release
		}
		mu.Lock()
		seen[string(r.Value)]++
		mu.Unlock()
		return nil
	}
	count := func() int { mu.Lock(); defer mu.Unlock(); return len(seen) }
	// The interval's commits never come: CaughtUp makes the first, and the
	// reset's own must come at once, for a crash may follow it at any time.
	opts := append(memberOpts(addrs), kgo.ConsumeResetOffset(kgo.NewOffset().At(10)))
	c, err := New(opts, konvoy.Convoy, 4, keyEvent, handle, WithCommitInterval(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	stop := start(c)
	waitUntil(t, "18 handled", func() bool { return count() >= 18 })
	if _, err := c.CaughtUp(context.Background(), testTopic); err != nil {
		t.Fatal(err)
	}
	if o := lookup0(t, addrs); o.At != 5 || o.Metadata == "" {
		t.Fatalf("CaughtUp committed %d, metadata %q; want 5 with metadata", o.At, o.Metadata)
	}
	open := divergeTo(t, kc, kb)
	waitUntil(t, "a reset", func() bool { return c.Commits().Reset >= 1 })
	waitUntil(t, "the reset's commit, 5 with no metadata, before the interval's", func() bool { o := lookup0(t, addrs); return o.At == 5 && o.Metadata == "" })
	close(release)
	if err := stop(); err != nil {
		t.Fatalf("Run: %v", err)
	}
	o := lookup0(t, addrs)
	f, _ := ParseMetadata(o.At, o.Metadata)
	t.Logf("after the reset and close: committed %d, metadata names %v", o.At, f.Runs())

	open.Store(true) // the next member reads the regrown log
	c2, err := New(memberOpts(addrs), konvoy.Convoy, 4, keyEvent, handle, WithCommitInterval(50*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	stop2 := start(c2)
	waitUntil(t, "offset 20 committed", func() bool { return lookup0(t, addrs).At == 20 })
	if err := stop2(); err != nil {
		t.Fatalf("second Run: %v", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if lost := unhandledRegrown(seen); len(lost) > 0 {
		t.Errorf("records of the regrown log no member handled: %v", lost)
	}
}

// lookup0 returns the group's commit of partition 0 (At -1 when none).
func lookup0(t *testing.T, addrs []string) kadm.OffsetResponse {
	got, err := groupOffsets(t, addrs)
	if o, ok := got.Lookup(testTopic, 0); err == nil && ok && o.Err == nil {
		return o
	}
	return kadm.OffsetResponse{Offset: kadm.Offset{At: -1}}
}

// divergeTo has kc answer a fetch naming the partition OFFSET_OUT_OF_RANGE,
// then every fetch with kb's answer (topic ID rewritten, no session). Until
// the returned flag is set only the first answer is forwarded; later fetches
// get no records, so the reset's new assignment takes none.
func divergeTo(t *testing.T, kc, kb *kfake.Cluster) *atomic.Bool {
	bcl, err := kgo.NewClient(kgo.SeedBrokers(kb.ListenAddrs()...))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(bcl.Close)
	aID, bID := kc.TopicInfo(testTopic).TopicID, kb.TopicInfo(testTopic).TopicID
	var open atomic.Bool
	injected, forwarded := false, false
	answer := func(fr *kmsg.FetchRequest, code int16, hwm int64) kmsg.Response {
		return fetchAnswer(fr, code, hwm, min(hwm, 0))
	}
	kc.ControlKey(int16(kmsg.Fetch), func(req kmsg.Request) (kmsg.Response, error, bool) {
		kc.KeepControl()
		fr := req.(*kmsg.FetchRequest)
		switch {
		case !injected && len(fr.Topics) == 0: // a session's empty fetch: end the session
			time.Sleep(5 * time.Millisecond)
			return fr.ResponseKind(), nil, true
		case !injected:
			injected = true
			return answer(fr, kerr.OffsetOutOfRange.Code, -1), nil, true
		case forwarded && !open.Load():
			time.Sleep(5 * time.Millisecond)
			return answer(fr, 0, 20), nil, true
		}
		fwd := *fr
		fwd.SessionID, fwd.SessionEpoch, fwd.ForgottenTopics, fwd.Topics = 0, -1, nil, nil
		fwd.MaxWaitMillis = min(fwd.MaxWaitMillis, 20)
		for _, rt := range fr.Topics {
			nt := rt
			nt.TopicID, nt.Partitions = bID, nil
			for _, rp := range rt.Partitions {
				rp.CurrentLeaderEpoch, rp.LastFetchedEpoch = -1, -1
				nt.Partitions = append(nt.Partitions, rp)
			}
			fwd.Topics = append(fwd.Topics, nt)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		resp, err := fwd.RequestWith(ctx, bcl)
		if err != nil {
			return nil, err, true
		}
		resp.Version, resp.SessionID = fr.Version, 0
		for i := range resp.Topics {
			resp.Topics[i].TopicID = aID
			for _, p := range resp.Topics[i].Partitions {
				forwarded = forwarded || len(p.RecordBatches) > 0
			}
		}
		return resp, nil, true
	})
	return &open
}

// produceRegrown writes to the cluster at addrs the regrown log of the
// test above: at 0..9 what produceKeyedAndCommit wrote (5 and 9 of key
// "a"), at 10..19 records "new10".."new19" of keys of their own.
func produceRegrown(t *testing.T, addrs []string) {
	var rs []*kgo.Record
	for i := 0; i < 20; i++ {
		k, v := fmt.Sprintf("u%d", i), fmt.Sprint(i)
		if i == 5 || i == 9 {
			k = "a"
		}
		if i >= 10 {
			k, v = fmt.Sprintf("n%d", i), fmt.Sprintf("new%d", i)
		}
		rs = append(rs, &kgo.Record{Key: []byte(k), Value: []byte(v), Partition: 0})
	}
	if err := producer(t, addrs).ProduceSync(context.Background(), rs...).FirstErr(); err != nil {
		t.Fatal(err)
	}
}

// waitUntil waits, up to testWait, until ok, and fails the test saying
// what never came otherwise.
func waitUntil(t *testing.T, what string, ok func() bool) {
	t.Helper()
	if !eventually(ok) {
		t.Fatal("never: " + what)
	}
}

// eventually waits, up to testWait, until ok, and tells whether it came.
func eventually(ok func() bool) bool {
	for deadline := time.Now().Add(testWait); !ok(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			return false
		}
	}
	return true
}

// unhandledRegrown returns the records of the regrown log, new10 to
// new19, that seen, by value, does not count handled.
func unhandledRegrown(seen map[string]int) []string {
	var lost []string
	for i := 10; i < 20; i++ {
		if v := fmt.Sprintf("new%d", i); seen[v] == 0 {
			lost = append(lost, v)
		}
	}
	return lost
}
