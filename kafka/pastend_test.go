package kafka

import (
	"context"
	"errors"
	"slices"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/sirali-konvoy/konvoy"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
	"github.com/twmb/franz-go/pkg/kversion"
)

// A commit with no leader epoch whose metadata names offsets finished at
// or past the end of the partition's log, which no member could have run
// there, is cut at the log's end on assignment: the records the log gets
// there later run, and the group's commit follows them, where they were
// skipped and the commit jumped past the log's end (found by a review:
// metadata naming a run up to 2^62 left 19 of 20 records unrun and the
// commit at 4611686018427387905). Commits counts it as a divergence; when
// the ends cannot be listed, the metadata is unread and nothing counts as
// finished. (A committed offset past the end is set aside as the fetch
// resets: TestMetadataOfACommitFetchingResetBelowIsSetAside.)
func TestMetadataPastTheLogsEndIsCutThere(t *testing.T) {
	for _, tc := range []struct {
		name     string
		at       int64   // the commit, of a log of 10 records
		finished []int64 // above it
		listFail bool
		skipped  []int64
		v0       bool // the member lists offsets with ListOffsets v0, as Kafka 0.10.0 does
	}{
		{"past the end", 1, []int64{3, 12, 13, 1 << 62}, false, []int64{3}, false},
		{"at the end", 1, []int64{3, 10}, false, []int64{3}, false},
		{"committed at the end", 10, []int64{12, 13}, false, nil, false},
		{"within the log", 1, []int64{3, 9}, false, []int64{3, 9}, false},
		{"the ends unlisted", 1, []int64{3, 12}, true, nil, false},
		{"past the end, listed by v0", 1, []int64{3, 12, 13}, false, []int64{3}, true},
		{"within the log, listed by v0", 1, []int64{3, 9}, false, []int64{3, 9}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			kf := fakeCluster(t, 1)
			var failing atomic.Bool
			failing.Store(tc.listFail)
			failListOffsets(kf, &failing)
			addrs := kf.ListenAddrs()
			ctx, cancel := context.WithTimeout(context.Background(), testWait)
			defer cancel()
			if ends := produce(t, addrs, 10, 3, 1); ends[0] != 10 {
				t.Fatalf("partition 0 ends at %d; want 10", ends[0])
			}
			f, err := NewFinished(tc.at, tc.finished)
			if err != nil {
				t.Fatal(err)
			}
			m, err := f.Metadata()
			if err != nil {
				t.Fatal(err)
			}
			commitAt(ctx, t, addrs, tc.at, m)
			handled := make(chan int64, 64)
			opts := memberOpts(addrs)
			if tc.v0 {
				vs := kversion.Stable()
				vs.SetMaxKeyVersion(int16(kmsg.ListOffsets), 0)
				opts = append(opts, kgo.MaxVersions(vs))
			}
			c, err := New(opts, konvoy.Convoy, 2, keyEvent, func(_ context.Context, r *kgo.Record) error {
				handled <- r.Offset
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			stop := start(c)
			seen := map[int64]bool{}
			for o := range tc.at {
				seen[o] = true // below the commit
			}
			for _, o := range tc.skipped {
				seen[o] = true // not waited for: skipped
			}
			awaitOffsets(ctx, t, handled, seen, 10) // assigned, its metadata read
			failing.Store(false)
			produce(t, addrs, 10, 3, 2) // offsets 10 to 19
			awaitOffsets(ctx, t, handled, seen, 20)
			if up, err := awaitCaughtUp(ctx, c); !up || err != nil {
				t.Errorf("caught up: %v, %v; want true", up, err)
			}
			if err := stop(); err != nil {
				t.Fatal(err)
			}
			close(handled)
			for o := range handled {
				if slices.Contains(tc.skipped, o) {
					t.Errorf("record %d ran; want it skipped, finished in the log as it is", o)
				}
			}
			s := c.Commits()
			diverged, unread := 0, 0
			switch {
			case tc.listFail:
				unread = 1
			case len(tc.skipped) < len(tc.finished):
				diverged = 1
			}
			if s.Diverged != diverged || s.Unread != unread {
				t.Errorf("Commits: %d diverged, %d unread; want %d and %d", s.Diverged, s.Unread, diverged, unread)
			}
			var pe *PartitionError
			if named := errors.As(s.LastMetadata, &pe) && pe.Partition == 0; named != (diverged+unread > 0) || errors.Is(s.LastMetadata, ErrDiverged) != (diverged > 0) {
				t.Errorf("Commits' last metadata problem: %v; want one naming partition 0: %v, a divergence: %v", s.LastMetadata, diverged+unread > 0, diverged > 0)
			}
			if o := lookup0(t, addrs); o.At != 20 {
				t.Errorf("committed %d; want 20, the log's end", o.At)
			}
		})
	}
}

// failListOffsets has kf answer every ListOffsets request, while failing
// holds true, with UNKNOWN_SERVER_ERROR for each partition it names,
// which franz-go does not retry (a retriable error would hold each
// listing for metadataWait), and leaves the others to the broker.
func failListOffsets(kf *kfake.Cluster, failing *atomic.Bool) {
	kf.ControlKey(int16(kmsg.ListOffsets), func(req kmsg.Request) (kmsg.Response, error, bool) {
		kf.KeepControl()
		if !failing.Load() {
			return nil, nil, false
		}
		return listOffsetsAnswer(req.(*kmsg.ListOffsetsRequest), func(sp *kmsg.ListOffsetsResponseTopicPartition) {
			sp.ErrorCode = kerr.UnknownServerError.Code
		}), nil, true
	})
}

// The member asks for the end of the partitions whose commits it checks
// alone, not every partition of their topics: a leader that cannot answer
// for another partition held up every assignment for the check's 10 s
// (found by a review). Here partition 0's commit, of no epoch, names
// finished offsets, and partition 1 has none; the member's requests for
// the latest offsets never name partition 1.
func TestTheLogsEndIsAskedOfTheCheckedPartitionsAlone(t *testing.T) {
	kf := fakeCluster(t, 2)
	var mu sync.Mutex
	var named []int32
	kf.ControlKey(int16(kmsg.ListOffsets), func(req kmsg.Request) (kmsg.Response, error, bool) {
		kf.KeepControl()
		if r := req.(*kmsg.ListOffsetsRequest); latestOnly(r) {
			mu.Lock()
			for _, rt := range r.Topics {
				for _, rp := range rt.Partitions {
					named = append(named, rp.Partition)
				}
			}
			mu.Unlock()
		}
		return nil, nil, false
	})
	addrs := kf.ListenAddrs()
	ctx, cancel := context.WithTimeout(context.Background(), testWait)
	defer cancel()
	ends := produce(t, addrs, 40, 8, 1)
	if ends[0] < 5 || ends[1] < 1 {
		t.Fatalf("partition ends %v; want records in both", ends)
	}
	f, err := NewFinished(1, []int64{3})
	if err != nil {
		t.Fatal(err)
	}
	m, err := f.Metadata()
	if err != nil {
		t.Fatal(err)
	}
	commitAt(ctx, t, addrs, 1, m)
	var n atomic.Int64
	c, err := New(memberOpts(addrs), konvoy.Convoy, 2, keyEvent, func(context.Context, *kgo.Record) error {
		n.Add(1)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	stop := start(c)
	want := ends[0] + ends[1] - 2 // but 0, below the commit, and 3, finished
	waitUntil(t, "every record handled", func() bool { return n.Load() >= want })
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if !slices.Contains(named, 0) || slices.Contains(named, 1) {
		t.Errorf("partitions named in requests for the latest offsets: %v; want 0 and never 1", named)
	}
}

// latestOnly tells whether r asks for the latest offset of every
// partition it names (Timestamp -1), as the member's check does.
func latestOnly(r *kmsg.ListOffsetsRequest) bool {
	for _, rt := range r.Topics {
		for _, rp := range rt.Partitions {
			if rp.Timestamp != -1 {
				return false
			}
		}
	}
	return len(r.Topics) > 0
}

// listOffsetsAnswer answers r for every partition it names, as set says.
func listOffsetsAnswer(r *kmsg.ListOffsetsRequest, set func(*kmsg.ListOffsetsResponseTopicPartition)) kmsg.Response {
	resp := r.ResponseKind().(*kmsg.ListOffsetsResponse)
	resp.SetVersion(r.Version)
	for _, rt := range r.Topics {
		st := kmsg.NewListOffsetsResponseTopic()
		st.Topic = rt.Topic
		for _, rp := range rt.Partitions {
			sp := kmsg.NewListOffsetsResponseTopicPartition()
			sp.Partition, sp.LeaderEpoch = rp.Partition, -1
			set(&sp)
			st.Partitions = append(st.Partitions, sp)
		}
		resp.Topics = append(resp.Topics, st)
	}
	return resp
}
