package kafka

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/sirali-konvoy/konvoy"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// The group committed offset 5 naming 8 and 9 finished, with the leader
// epoch of 9, 0, and the partition's log has since diverged above 5 while
// no member read it (an unclean leader election cut it and it grew
// again): its records from there are new ones, and those the metadata
// names finished run after all. The leader says where epoch 0 ends now
// (OffsetForLeaderEpoch): at 9, the record at 8 is the one that finished
// and is skipped, 9 runs; at 7, both run; when the leader no longer knows
// epoch 0, both run. Commits counts the divergence. (Before, the metadata
// was taken as it was: 8 and 9 never ran, and the group committed past
// them.)
func TestMetadataOfADivergedLogIsCutWhereTheEpochEnds(t *testing.T) {
	for _, tc := range []struct {
		name    string
		epoch   int32 // the leader's answer for epoch 0
		end     int64
		skipped []int64
	}{
		{"the epoch ends between them", 0, 9, []int64{8}},
		{"the epoch ends below them", 0, 7, nil},
		{"the epoch is unknown", -1, -1, nil},
		{"the log holds them", 0, 20, []int64{8, 9}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			kf := fakeCluster(t, 1)
			asked := answerEpochOnce(kf, tc.epoch, tc.end)
			addrs := kf.ListenAddrs()
			ctx, cancel := context.WithTimeout(context.Background(), testWait)
			defer cancel()
			if ends := produce(t, addrs, 20, 3, 1); ends[0] != 20 {
				t.Fatalf("partition 0 ends at %d; want 20", ends[0])
			}
			f, err := NewFinished(5, []int64{8, 9})
			if err != nil {
				t.Fatal(err)
			}
			m, err := f.Metadata()
			if err != nil {
				t.Fatal(err)
			}
			commitAtEpoch(ctx, t, addrs, 5, 0, m)
			ran, s := runFrom5(ctx, t, addrs, tc.skipped)
			for _, o := range tc.skipped {
				if slices.Contains(ran, o) {
					t.Errorf("record %d ran; want it skipped, finished in the log as it is", o)
				}
			}
			diverged := 1
			if len(tc.skipped) == 2 {
				diverged = 0
			}
			if s.Diverged != diverged || s.Unread != 0 || asked.Load() < 1 {
				t.Errorf("Commits: %d diverged, %d unread, the leader asked %d times; want %d, 0, at least once", s.Diverged, s.Unread, asked.Load(), diverged)
			}
			var pe *PartitionError
			if named := errors.As(s.LastMetadata, &pe) && pe.Partition == 0 && errors.Is(pe, ErrDiverged); named != (diverged == 1) {
				t.Errorf("Commits' last metadata problem: %v; want one naming partition 0's divergence: %v", s.LastMetadata, diverged == 1)
			}
			if o := lookup0(t, addrs); o.At != 20 {
				t.Errorf("committed %d; want 20", o.At)
			}
		})
	}
}

// answerEpochOnce has kf answer the first OffsetForLeaderEpoch request,
// the member's own check on assignment, with epoch and end for every
// partition it names, and leaves the later ones, franz-go's, to the
// broker; it returns the count of the requests.
func answerEpochOnce(kf *kfake.Cluster, epoch int32, end int64) *atomic.Int32 {
	var asked atomic.Int32
	kf.ControlKey(int16(kmsg.OffsetForLeaderEpoch), func(req kmsg.Request) (kmsg.Response, error, bool) {
		if asked.Add(1) > 1 {
			return nil, nil, false
		}
		r := req.(*kmsg.OffsetForLeaderEpochRequest)
		resp := r.ResponseKind().(*kmsg.OffsetForLeaderEpochResponse)
		resp.SetVersion(r.Version)
		for _, rt := range r.Topics {
			st := kmsg.NewOffsetForLeaderEpochResponseTopic()
			st.Topic = rt.Topic
			for _, rp := range rt.Partitions {
				sp := kmsg.NewOffsetForLeaderEpochResponseTopicPartition()
				sp.Partition, sp.LeaderEpoch, sp.EndOffset = rp.Partition, epoch, end
				st.Partitions = append(st.Partitions, sp)
			}
			resp.Topics = append(resp.Topics, st)
		}
		return resp, nil, true
	})
	return &asked
}

// runFrom5 runs a member of the test group on the cluster at addrs until
// it has handled every record from 5 to 19 but skipped, and caught up, and
// returns the offsets it ran and its commit counts.
func runFrom5(ctx context.Context, t *testing.T, addrs []string, skipped []int64) ([]int64, CommitStats) {
	t.Helper()
	handled := make(chan int64, 64)
	c, err := New(memberOpts(addrs), konvoy.Convoy, 2, keyEvent, func(_ context.Context, r *kgo.Record) error {
		handled <- r.Offset
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	stop := start(c)
	seen := map[int64]bool{0: true, 1: true, 2: true, 3: true, 4: true} // below the commit
	for _, o := range skipped {
		seen[o] = true // not waited for: skipped
	}
	awaitOffsets(ctx, t, handled, seen, 20)
	if up, err := awaitCaughtUp(ctx, c); !up || err != nil {
		t.Errorf("caught up: %v, %v; want true", up, err)
	}
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	close(handled)
	var ran []int64
	for o := range handled {
		ran = append(ran, o)
	}
	return ran, c.Commits()
}

// commitAtEpoch commits offset at of the test topic's partition 0 for the
// test group, with leader epoch epoch and metadata m, as another member
// would have.
func commitAtEpoch(ctx context.Context, t *testing.T, addrs []string, at int64, epoch int32, m string) {
	t.Helper()
	cl, err := kgo.NewClient(kgo.SeedBrokers(addrs...))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	os := kadm.Offsets{}
	os.Add(kadm.Offset{Topic: testTopic, Partition: 0, At: at, LeaderEpoch: epoch, Metadata: m})
	resp, err := kadm.NewClient(cl).CommitOffsets(ctx, testGroup, os)
	if err == nil {
		err = resp.Error()
	}
	if err != nil {
		t.Fatal(err)
	}
}

// A commit with metadata carries the leader epoch of the highest offset
// it names finished, which the next owner checks the log against: the
// epoch noted for that record when it was read, or else the prior
// commit's, whose highest it is; with none, that of the record below the
// offset, as franz-go's commits do
// (TestEpochBelowIsThatOfTheRecordBelowTheCommit).
func TestACommitCarriesTheEpochOfItsHighestFinished(t *testing.T) {
	var c Consumer
	prior, err := NewFinished(2, []int64{40})
	if err != nil {
		t.Fatal(err)
	}
	fresh := newPart(0, topicPartition{testTopic, 0}, Finished{})
	resumed := newPart(1, topicPartition{testTopic, 1}, prior) // its commit named 40 finished, at epoch 7
	resumed.priorEpoch = 7
	for _, p := range []*part{fresh, resumed} {
		for _, r := range []struct {
			offset int64
			epoch  int32
		}{{3, 1}, {10, 2}, {20, 4}} {
			c.noteEpoch(p, &kgo.Record{Offset: r.offset, LeaderEpoch: r.epoch})
		}
	}
	for _, tc := range []struct {
		name     string
		p        *part
		noted    int64 // the records read: up to this one
		at       int64
		finished []int64
		m        string
		want     int32
	}{
		{"no metadata", fresh, 30, 11, nil, "", 2},
		{"the highest noted", fresh, 30, 5, []int64{12}, "m", 2},
		{"the highest above the last change", fresh, 30, 5, []int64{25}, "m", 4},
		{"the prior commit's highest, not read", resumed, 30, 5, []int64{12}, "m", 7},
		{"the prior commit's highest, read", resumed, 45, 5, []int64{12}, "m", 4},
		{"above the prior commit's highest", resumed, 45, 5, []int64{41}, "m", 4},
		{"no metadata, the prior commit's run dropped", resumed, 30, 11, nil, "", 2},
	} {
		f, err := NewFinished(tc.at, tc.finished)
		if err != nil {
			t.Fatal(err)
		}
		tc.p.notedTo.Store(tc.noted)
		if got := tc.p.commitEpoch(tc.at, tc.m, f, tc.p.priorKept()); got != tc.want {
			t.Errorf("%s: commitEpoch(%d, %q, %v) = %d; want %d", tc.name, tc.at, tc.m, f.Runs(), got, tc.want)
		}
	}
	// The offset passed the prior commit's runs, 41 with record 6 the
	// first not finished here: the record below it, 40, not read yet, has
	// the prior commit's epoch at most; unknown without one. (Found by a
	// review: the epoch of the last record read, 4, below 40's 7, made the
	// next owner's franz-go report a data loss and run records again.)
	f, err := NewFinished(6, nil)
	if err != nil {
		t.Fatal(err)
	}
	resumed.notedTo.Store(30)
	if got := resumed.commitEpoch(41, "", f, resumed.priorKept()); got != 7 {
		t.Errorf("past the prior commit's runs: commitEpoch = %d; want 7, its epoch", got)
	}
	unknown := newPart(2, topicPartition{testTopic, 2}, prior)
	c.noteEpoch(unknown, &kgo.Record{Offset: 3, LeaderEpoch: 1})
	unknown.notedTo.Store(3)
	if got := unknown.commitEpoch(41, "", f, unknown.priorKept()); got != -1 {
		t.Errorf("past the runs of a prior commit with no epoch: commitEpoch = %d; want -1", got)
	}
}

// A commit whose offset passed the prior commit's runs and then records
// read here, the leader having changed among them, carries the epoch of
// the record below it, read here, with or without its metadata, whatever
// the prior commit's. (Found by a review: it carried the epoch of record
// 3, the first not counted finished here, and then the prior commit's.)
func TestACommitPastThePriorRunsAndItsOwnCarriesTheirEpoch(t *testing.T) {
	var c Consumer
	early, err := NewFinished(2, []int64{3, 4}) // the prior commit: 2, naming 3 and 4 finished
	if err != nil {
		t.Fatal(err)
	}
	passed := newPart(3, topicPartition{testTopic, 3}, early)
	for o := int64(2); o <= 60; o++ {
		c.noteEpoch(passed, &kgo.Record{Offset: o, LeaderEpoch: int32(1 + o/45)}) // 2 from 45 on
	}
	passed.notedTo.Store(60)
	own, err := NewFinished(3, span(5, 50)) // 3 and 4 skipped, not counted yet
	if err != nil {
		t.Fatal(err)
	}
	at, m, err := priorMetadata(own, early)
	if at != 51 || m != "" || err != nil {
		t.Fatalf("priorMetadata = %d, %q, %v; want 51 and no metadata", at, m, err)
	}
	more, err := NewFinished(3, append(span(5, 50), 55)) // and 55, its metadata dropped (too long, say)
	if err != nil {
		t.Fatal(err)
	}
	for _, pe := range []int32{1, -1} {
		passed.priorEpoch = pe
		if got := passed.commitEpoch(at, m, own, passed.priorKept()); got != 2 {
			t.Errorf("past the prior commit's runs and its own (prior epoch %d): commitEpoch = %d; want 2, record 50's", pe, got)
		}
		if got := passed.commitEpoch(51, "", more, passed.priorKept()); got != 2 {
			t.Errorf("past them, its metadata dropped (prior epoch %d): commitEpoch = %d; want 2, record 50's", pe, got)
		}
	}
}

// A commit with no metadata just above offsets no poll returned
// (compacted, say), the leader having changed among them, carries the
// epoch of the record at its offset: the record below it that was read
// is of an earlier epoch, which ends below the offset in the leader's
// log, and the next owner's franz-go would report a data loss. (Found by
// a review.)
func TestACommitAboveAGapCarriesTheEpochOfTheRecordAtIt(t *testing.T) {
	var c Consumer
	p := newPart(0, topicPartition{testTopic, 0}, Finished{})
	// The poll returned 10, at epoch 1, and 14, at 2; 11 to 13 are gone.
	c.noteEpochs(p, []item{{&kgo.Record{Offset: 10, LeaderEpoch: 1}, p, nil}, {&kgo.Record{Offset: 14, LeaderEpoch: 2}, p, nil}})
	f, err := NewFinished(14, nil) // 10 finished, 14 running
	if err != nil {
		t.Fatal(err)
	}
	at, m, err := priorMetadata(f, p.prior)
	if at != 14 || m != "" || err != nil {
		t.Fatalf("priorMetadata = %d, %q, %v; want 14 and no metadata", at, m, err)
	}
	if got := p.commitEpoch(at, m, f, p.priorKept()); got != 2 {
		t.Errorf("commit of 14 above a gap: epoch %d; want 2, record 14's", got)
	}
}

// below keeps the finished offsets under the end offset: whole runs, a
// run cut at it, none.
func TestFinishedBelowCutsTheRuns(t *testing.T) {
	f, err := NewFinished(5, []int64{7, 8, 9, 12, 20})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		end  int64
		want []Run
	}{
		{5, nil}, {7, nil}, {8, []Run{{7, 7}}}, {10, []Run{{7, 9}}}, {13, []Run{{7, 9}, {12, 12}}},
		{21, []Run{{7, 9}, {12, 12}, {20, 20}}}, {math.MaxInt64, []Run{{7, 9}, {12, 12}, {20, 20}}},
	} {
		g := f.below(tc.end)
		want, _ := NewFinished(5, offsetsOf(tc.want))
		if !slices.Equal(g.runs, tc.want) || g.committable != 5 || g.runBytes != want.runBytes {
			t.Errorf("below(%d) = %v from %d (%d bytes); want %v from 5 (%d bytes)", tc.end, g.runs, g.committable, g.runBytes, tc.want, want.runBytes)
		}
	}
}

// offsetsOf returns the offsets of runs.
func offsetsOf(runs []Run) []int64 {
	var out []int64
	for _, r := range runs {
		for o := r.First; o <= r.Last; o++ {
			out = append(out, o)
		}
	}
	return out
}

// The leader epoch a commit carries is that of the highest record it
// covers (below its offset, or named in its metadata), or with no
// metadata that of the record at its offset when it was read (see
// TestACommitAboveAGapCarriesTheEpochOfTheRecordAtIt), and so at least
// that of the record below its offset, which franz-go's KIP-320 check of
// the next owner needs: in random logs whose epochs never fall, over a
// member's successive commits, with a prior commit's finished records
// counted finished here only some steps after they were read (as enterAs
// skips them), and the prior commit's epoch known or not (-1, when the
// commit may carry -1: no check). A review's property test, extended.
// 300 cases, 20,000 with -konvoy.long: each commits metadata, which
// deflates, and takes 30 ms under -race.
func TestACommitsEpochIsThatOfTheHighestRecordItCovers(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	cases := 300
	if *long {
		cases = 20_000
	}
	for iter := range cases {
		m := newEpochModel(t, rng)
		for range 10 {
			m.readAndFinish()
			m.commit(t, iter)
		}
	}
}

// epochModel is a partition's log, as leader epochs that never fall, a
// prior commit of it, and a member that reads it and commits, for the
// property above.
type epochModel struct {
	rng                   *rand.Rand
	epochs                []int32 // by offset
	c                     Consumer
	p                     *part
	c0, read, committable int64
	done                  map[int64]bool // counted finished by the executor
	gone                  map[int64]bool // returned by no poll (compacted, say)
}

// newEpochModel returns a log of 30 to 59 records, and a member assigned
// it from a prior commit at an offset below 10 naming a third of the
// records above it finished, with that commit's epoch known 4 times in 5.
func newEpochModel(t *testing.T, rng *rand.Rand) *epochModel {
	m := &epochModel{rng: rng, epochs: make([]int32, 30+rng.IntN(30)), done: map[int64]bool{}, gone: map[int64]bool{}}
	e := int32(rng.IntN(3))
	for i := range m.epochs {
		if rng.IntN(6) == 0 {
			e += int32(1 + rng.IntN(2))
		}
		m.epochs[i] = e
	}
	m.c0 = int64(rng.IntN(10))
	var pf []int64
	for o := m.c0 + 1; o < int64(len(m.epochs)); o++ {
		if rng.IntN(3) == 0 {
			pf = append(pf, o)
		}
	}
	prior, err := NewFinished(m.c0, pf)
	if err != nil {
		t.Fatal(err)
	}
	m.p = newPart(0, topicPartition{testTopic, 0}, prior)
	if len(pf) > 0 && rng.IntN(5) > 0 {
		m.p.priorEpoch = m.epochs[pf[len(pf)-1]]
	}
	m.read, m.committable = m.c0-1, m.c0
	return m
}

// readAndFinish reads up to 7 offsets more, noting the epochs of their
// records but for those no poll returns (one in five, not the last), and
// has the executor count each record read and not counted yet finished,
// at random: handlers and the skips of records the prior commit names
// finish in any order.
func (m *epochModel) readAndFinish() {
	next := min(int64(len(m.epochs)-1), m.read+int64(m.rng.IntN(8)))
	for o := m.read + 1; o <= next; o++ {
		if o < next && m.rng.IntN(5) == 0 {
			m.gone[o], m.done[o] = true, true // not an item: the committable offset passes it
			continue
		}
		m.c.noteEpoch(m.p, &kgo.Record{Offset: o, LeaderEpoch: m.epochs[o]})
	}
	m.read = next
	m.p.notedTo.Store(m.read)
	for o := m.c0; o <= m.read; o++ {
		if !m.done[o] && m.rng.IntN(2) == 0 {
			m.done[o] = true
		}
	}
	for m.committable <= m.read && m.done[m.committable] {
		m.committable++
	}
}

// commit makes the member's commit, as pending does, when it changed, and
// fails t, naming case iter, when its epoch is below that of the offset
// below it (the next owner's franz-go would report a false data loss), or
// with metadata above that of the highest offset it covers (a log that
// diverged below it could pass the next owner's check); and, where the
// records tell, when it is not the epoch of that offset, or with no
// metadata of the record at its offset, read. -1 only for a prior
// commit's record not read, of no epoch known.
func (m *epochModel) commit(t *testing.T, iter int) {
	var fin []int64
	for o := m.committable + 1; o <= m.read; o++ {
		if m.done[o] {
			fin = append(fin, o)
		}
	}
	f, err := NewFinished(m.committable, fin)
	if err != nil {
		t.Fatal(err)
	}
	p := m.p
	at, meta, _ := priorMetadata(f, p.prior)
	if at == p.committed && meta == p.committedMeta {
		return
	}
	got := p.commitEpoch(at, meta, f, p.priorKept())
	p.committed, p.committedMeta = at, meta
	top := at - 1
	if meta != "" {
		g, err := ParseMetadata(at, meta)
		if err != nil {
			t.Fatal(err)
		}
		top = max(top, g.runs[len(g.runs)-1].Last)
	}
	m.check(t, iter, at, meta, got, top)
}

// check is commit's check of the commit of at with metadata meta, whose
// highest offset covered is top, carrying epoch got.
func (m *epochModel) check(t *testing.T, iter int, at int64, meta string, got int32, top int64) {
	if got == -1 && m.p.priorEpoch < 0 && top > m.read {
		return // a prior commit's record not read, of no epoch known
	}
	switch {
	case at > 0 && got < m.epochs[at-1]:
		t.Fatalf("case %d: commit of %d with metadata %q carries epoch %d, below offset %d's %d (read up to %d)",
			iter, at, meta, got, at-1, m.epochs[at-1], m.read)
	case meta != "" && got > m.epochs[top]:
		t.Fatalf("case %d: commit of %d with metadata %q carries epoch %d, above offset %d's %d, the highest it covers (read up to %d)",
			iter, at, meta, got, top, m.epochs[top], m.read)
	}
	if meta == "" && at <= m.read {
		top = at // the record at the offset, read: at least any offset below it that no poll returned
	}
	if top >= 0 && top <= m.read && !m.gone[top] && got != m.epochs[top] {
		t.Fatalf("case %d: commit of %d with metadata %q carries epoch %d; record %d has %d (read up to %d)",
			iter, at, meta, got, top, m.epochs[top], m.read)
	}
}
