package kafka

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/live"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// The chaos tests (issue 25 item 7) run consumer group members on kfake
// while members join, leave, crash and restart, with random keys, handler
// durations and handler errors (retried, then dead-lettered), and check
// after each run, over every member's work:
//
//   - nothing lost: every record produced was handled or dead-lettered by
//     some member;
//   - each member's run finishes each key's records in offset order;
//   - never two handlers (or a handler and a dead letter) of one key at
//     once, across all the members: a per-key in-flight counter shared by
//     every member's handlers;
//   - every commit the broker receives covers only finished records: its
//     offset is at most the first record of its partition not finished,
//     and its metadata names only finished records (checked by a kfake
//     control on OffsetCommit, when the request arrives);
//   - commits reach the end: while the members still run, and after they
//     stop, the group's committed offset of each partition is its end;
//   - duplicates come only from a crashed member's unfinished work: a
//     record finished more than once was finished, every time but one, by
//     a member that later crashed, in an assignment it still held at the
//     crash, and was not covered by that member's acknowledged commits
//     (offset or metadata); so a restarted member, or any other, never
//     redoes a record the crashed member's committed metadata named
//     finished;
//   - no goroutine is left once the members stopped and the cluster closed.
//
// The handlers take at most 4 ms, far below the revoke timeout (the
// default 30 s): a handler that outlasts it may run while the partition's
// next owner handles the same key, by design (see WithRevokeTimeout), so
// the scenarios keep within it rather than count that as a failure.
//
// A crash cuts the member's network (every connection closed, no new one
// dialled, through a kgo.Dialer), so that it neither heartbeats nor
// commits again; its handlers are killed: the ones running leave the
// in-flight counter at once and record nothing when they return, and
// later ones do nothing, as in a process that died. Its Run is then ended;
// what it returns is not checked (it cannot commit or leave without a
// network). The group then drops it as its session's expiry would, but at
// once: the test removes it by its member ID (LeaveGroup), because the
// members keep Kafka's default 45 s session. A short session cannot stand
// in: kfake expires a member waiting in JoinGroup once its session
// passes, and never answers its join (Kafka keeps such a member alive),
// so with sessions shorter than a rebalance that waits for the crashed
// member a healthy member hangs in JoinGroup.

// errChaos is the handlers' planned failure.
var errChaos = errors.New("chaos: planned failure")

// rec names a record by partition and offset.
type rec struct {
	p int32
	o int64
}

// finish is one completion of a record: handled, or dead-lettered.
type finish struct {
	run  int  // the member's run that finished it
	part int  // the consumer's assignment it belonged to, or -1
	dead bool // dead-lettered
}

// member is one run of a consumer: a member that restarts is a new run.
type member struct {
	run  int
	c    *Consumer
	stop func() error
	net  *severable
	// Guarded by world.mu:
	crashed bool
	running map[rec]string // the records its handlers run now, to their keys
	// acked is set at the crash: for each assignment it held, what its
	// acknowledged commits covered, or nil when none was acknowledged.
	acked   map[int]*Finished
	stopped chan error // a crashed member's Run result
}

// world is everything the members of one chaos run share: the plan of
// durations and failures, the in-flight counter, what was finished.
type world struct {
	seed  uint64
	n     int
	ends  map[int32]int64
	addrs []string
	kopts []kgo.Opt // client options every member gets besides memberOpts

	mu       sync.Mutex
	inflight map[string]int           // key → handlers running it now, every member
	last     map[int]map[string]int64 // run → key → offset last finished
	attempts map[[3]int64]int         // run, partition, offset → attempts
	done     map[rec][]finish
	prefix   map[int32]int64 // partition → the first offset not finished
	distinct int             // records finished at least once
	commits  int             // commit requests the broker received
	problems []string
	trace    []string       // commits, revocations and redone records, in order
	seen     map[[2]int]int // run, assignment → records finished (traced when new)
	members  []*member
	progress chan struct{} // a token per record finished

	// revoked, when set (before the members start), runs when a member
	// starts a revocation, outside w.mu.
	revoked func(m *member)
	// gate, when set (before the members start), runs in every handler
	// before its work, outside w.mu; deadGate in every dead letter.
	gate, deadGate func(m *member, r rec)
	// fails, when set (before the members start), replaces the planned
	// failures.
	fails func(r rec) int
	// hold, when set (before the members start), runs on every commit
	// request after it was checked, on kfake's control goroutine.
	hold func(kf *kfake.Cluster, req *kmsg.OffsetCommitRequest)
}

func newWorld(seed uint64, n int, ends map[int32]int64, addrs []string) *world {
	return &world{
		seed: seed, n: n, ends: ends, addrs: addrs,
		inflight: map[string]int{}, last: map[int]map[string]int64{}, attempts: map[[3]int64]int{},
		done: map[rec][]finish{}, seen: map[[2]int]int{}, prefix: map[int32]int64{}, progress: make(chan struct{}, 1),
	}
}

// problem records a broken guarantee; w.mu is held.
func (w *world) problem(format string, args ...any) {
	w.problems = append(w.problems, fmt.Sprintf(format, args...))
}

// note adds to the trace that a failure prints; w.mu is held.
func (w *world) note(format string, args ...any) {
	w.trace = append(w.trace, time.Now().Format("05.000000 ")+fmt.Sprintf(format, args...))
}

// deref returns *s, or "" for nil.
func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// draw returns the planned failures and duration of a record's handler,
// from the seed: most records take under 300 µs, one in twelve 1 to 4 ms;
// one in ten fails its first attempt, one in twenty-five both (and is
// dead-lettered).
func (w *world) draw(r rec) (fails int, d time.Duration) {
	x := w.seed ^ uint64(r.p)<<48 ^ uint64(r.o)*0x9e3779b97f4a7c15
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	switch f := x % 100; {
	case w.fails != nil:
		fails = w.fails(r)
	case f < 4:
		fails = 2
	case f < 14:
		fails = 1
	}
	if (x>>8)%12 == 0 {
		return fails, time.Duration(1000+(x>>16)%3000) * time.Microsecond
	}
	return fails, time.Duration((x>>16)%300) * time.Microsecond
}

// enter counts a handler of key starting record r in m; w.mu is held.
func (w *world) enter(m *member, r rec, key, what string) {
	if w.inflight[key] > 0 {
		w.problem("key %s: run %d's %s of %d/%d started while another handler of the key ran", key, m.run, what, r.p, r.o)
	}
	w.inflight[key]++
	m.running[r] = key
}

// exit counts the handler of r in m ended; w.mu is held.
func (w *world) exit(m *member, r rec, key string) {
	w.inflight[key]--
	delete(m.running, r)
}

// finished records r finished by m; w.mu is held.
func (w *world) finished(m *member, r rec, key string, part int, dead bool) {
	if w.last[m.run] == nil {
		w.last[m.run] = map[string]int64{}
	}
	if last, ok := w.last[m.run][key]; ok && r.o <= last {
		w.problem("key %s: run %d finished offset %d/%d after offset %d", key, m.run, r.p, r.o, last)
	}
	w.last[m.run][key] = r.o
	if w.seen[[2]int{m.run, part}] == 0 {
		w.note("run %d has %d as assignment %d", m.run, r.p, part)
	}
	w.seen[[2]int{m.run, part}]++
	if len(w.done[r]) == 0 {
		w.distinct++
	} else {
		w.note("run %d (assignment %d) finished %d/%d again", m.run, part, r.p, r.o)
	}
	w.done[r] = append(w.done[r], finish{run: m.run, part: part, dead: dead})
	for len(w.done[rec{r.p, w.prefix[r.p]}]) > 0 {
		w.prefix[r.p]++
	}
	select {
	case w.progress <- struct{}{}:
	default:
	}
}

// partOf returns the assignment of r's partition in m now, or -1.
func partOf(m *member, r *kgo.Record) int {
	m.c.mu.Lock()
	defer m.c.mu.Unlock()
	if p := m.c.assigned[topicPartition{r.Topic, r.Partition}]; p != nil {
		return p.id
	}
	return -1
}

// handler returns m's handler: it takes the planned time and fails as
// planned, counting itself in flight meanwhile.
func (w *world) handler(m *member) func(context.Context, *kgo.Record) error {
	return func(_ context.Context, kr *kgo.Record) error {
		r, key := rec{kr.Partition, kr.Offset}, string(kr.Key)
		fails, d := w.draw(r)
		w.mu.Lock()
		if m.crashed {
			w.mu.Unlock()
			return nil // a dead process runs nothing
		}
		w.enter(m, r, key, "handler")
		k := [3]int64{int64(m.run), int64(r.p), r.o}
		attempt := w.attempts[k]
		w.attempts[k]++
		w.mu.Unlock()
		if w.gate != nil {
			w.gate(m, r)
		}
		time.Sleep(d) // the work, which others may overlap
		part := partOf(m, kr)
		w.mu.Lock()
		defer w.mu.Unlock()
		if m.crashed {
			return nil // killed while it ran: the crash took it out of flight
		}
		w.exit(m, r, key)
		if attempt < fails {
			return errChaos
		}
		w.finished(m, r, key, part, false)
		return nil
	}
}

// deadLetter returns m's dead letter: it takes a while, as producing the
// record elsewhere would, and counts as a handler of the key meanwhile.
func (w *world) deadLetter(m *member) func(context.Context, *kgo.Record, error) error {
	return func(_ context.Context, kr *kgo.Record, err error) error {
		r, key := rec{kr.Partition, kr.Offset}, string(kr.Key)
		_, d := w.draw(r)
		w.mu.Lock()
		if m.crashed {
			w.mu.Unlock()
			return nil
		}
		if !errors.Is(err, errChaos) {
			w.problem("record %d/%d dead-lettered with %v; want the planned failure", r.p, r.o, err)
		}
		w.enter(m, r, key, "dead letter")
		w.mu.Unlock()
		if w.deadGate != nil {
			w.deadGate(m, r)
		}
		time.Sleep(d/4 + 50*time.Microsecond)
		part := partOf(m, kr)
		w.mu.Lock()
		defer w.mu.Unlock()
		if m.crashed {
			return nil
		}
		w.exit(m, r, key)
		w.finished(m, r, key, part, true)
		return nil
	}
}

// checkCommit checks a commit request as the broker receives it: its
// offset passes no record not finished, its metadata names only finished
// records, and neither passes the partition's end.
func (w *world) checkCommit(req *kmsg.OffsetCommitRequest) {
	if req.Group != testGroup {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.commits++
	for _, t := range req.Topics {
		for _, p := range t.Partitions {
			w.note("%s (generation %d) commits %d/%d %q", req.MemberID, req.Generation, p.Partition, p.Offset, clip(deref(p.Metadata)))
			if p.Offset > w.prefix[p.Partition] {
				w.problem("member %s committed %d/%d past record %d, not finished", req.MemberID, p.Partition, p.Offset, w.prefix[p.Partition])
			}
			meta := ""
			if p.Metadata != nil {
				meta = *p.Metadata
			}
			f, err := ParseMetadata(max(p.Offset, 0), meta)
			if err != nil {
				w.problem("member %s committed %d/%d with metadata %q: %v", req.MemberID, p.Partition, p.Offset, meta, err)
				continue
			}
			for _, run := range f.Runs() {
				for o := run.First; o <= run.Last; o++ {
					if len(w.done[rec{p.Partition, o}]) == 0 || o >= w.ends[p.Partition] {
						w.problem("member %s committed %d/%d with metadata naming %d finished, which is not", req.MemberID, p.Partition, p.Offset, o)
						break
					}
				}
			}
		}
	}
}

// watch checks every commit request the cluster receives, and holds it
// when w.hold says so.
func (w *world) watch(kf *kfake.Cluster) {
	kf.ControlKey(int16(kmsg.OffsetCommit), func(req kmsg.Request) (kmsg.Response, error, bool) {
		r := req.(*kmsg.OffsetCommitRequest)
		w.checkCommit(r)
		if w.hold != nil {
			w.hold(kf, r)
		}
		return nil, nil, false // the cluster handles it as usual
	})
}

// severable is a dialer whose connections can all be cut at once, with no
// new one made after.
type severable struct {
	mu    sync.Mutex
	conns []net.Conn
	cut   bool
}

func (s *severable) dial(ctx context.Context, network, host string) (net.Conn, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cut {
		return nil, errors.New("chaos: the member crashed")
	}
	var d net.Dialer
	c, err := d.DialContext(ctx, network, host)
	if err == nil {
		s.conns = append(s.conns, c)
	}
	return c, err
}

func (s *severable) sever() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.cut = true
	for _, c := range s.conns {
		_ = c.Close()
	}
}

// join starts a new member's run, with consumers handlers.
func (w *world) join(t *testing.T, consumers int, extra ...Option) *member {
	t.Helper()
	w.mu.Lock()
	m := &member{run: len(w.members), net: &severable{}, running: map[rec]string{}}
	w.members = append(w.members, m)
	w.mu.Unlock()
	// Retries end soon, so that a crashed member's Run, which retries
	// its final commit and leave with no network, returns.
	opts := append(memberOpts(w.addrs), kgo.Dialer(m.net.dial),
		kgo.RetryTimeout(time.Second), kgo.RetryBackoffFn(func(int) time.Duration { return 10 * time.Millisecond }))
	opts = append(opts, w.kopts...)
	options := append([]Option{
		WithMaxHeld(48), WithCommitInterval(15 * time.Millisecond),
		WithExecutor(live.WithRetry(live.Retry{Attempts: 2, Base: time.Millisecond})),
		WithDeadLetter(w.deadLetter(m)),
	}, extra...)
	options = append(options, func(c *config) {
		c.revoking = func(tps map[string][]int32) {
			id, g := m.c.cl.GroupMetadata()
			var ids []string
			m.c.mu.Lock()
			for _, p := range tps[testTopic] {
				if a := m.c.assigned[topicPartition{testTopic, p}]; a != nil {
					ids = append(ids, fmt.Sprintf("%d as %d", p, a.id))
				}
			}
			m.c.mu.Unlock()
			w.mu.Lock()
			w.note("run %d (%s, generation %d) revokes %v", m.run, id, g, ids)
			w.mu.Unlock()
			if w.revoked != nil && len(ids) > 0 {
				w.revoked(m)
			}
		}
	})
	c, err := New(opts, konvoy.Convoy, consumers, keyEvent, w.handler(m), options...)
	if err != nil {
		t.Fatal(err)
	}
	m.c = c
	m.stop = start(c)
	return m
}

// leave ends m's run as a member leaving does: Run drains, commits and
// leaves the group, and returns nil.
func (w *world) leave(t *testing.T, m *member) {
	t.Helper()
	if err := m.stop(); err != nil {
		t.Errorf("run %d's Run: %v", m.run, err)
	}
	m.stop = nil
}

// crash cuts m's network, kills its handlers, notes what its acknowledged
// commits covered, ends its Run in the background, and has the group drop
// it after pause.
func (w *world) crash(t *testing.T, m *member, pause time.Duration) {
	t.Helper()
	id, _ := m.c.cl.GroupMetadata()
	// The assignments are read before the network is cut, and again after:
	// one franz-go finds lost meanwhile (OnPartitionsLost forgets it) is
	// the crash's, not one revoked, and committed, before it.
	before := acknowledged(m)
	m.net.sever()
	w.mu.Lock()
	m.crashed = true
	for r, key := range m.running {
		w.exit(m, r, key)
	}
	w.mu.Unlock()
	acked := acknowledged(m)
	for part, f := range before {
		if _, ok := acked[part]; !ok {
			acked[part] = f
		}
	}
	w.mu.Lock()
	m.acked = acked
	w.mu.Unlock()
	m.stopped = make(chan error, 1)
	stop := m.stop
	m.stop = nil
	go func() { m.stopped <- stop() }()
	time.Sleep(pause) // the group runs on meanwhile, as before a session expires
	if err := kick(w.addrs, id); err != nil {
		t.Fatalf("seed %d: removing crashed run %d (%s) from the group: %v", w.seed, m.run, id, err)
	}
}

// acknowledged returns, for each of m's assignments, what its last commit
// named finished, nil for none.
func acknowledged(m *member) map[int]*Finished {
	acked := map[int]*Finished{}
	m.c.mu.Lock()
	defer m.c.mu.Unlock()
	for _, p := range m.c.assigned {
		acked[p.id] = nil
		if p.committed >= 0 {
			if f, err := ParseMetadata(p.committed, p.committedMeta); err == nil {
				acked[p.id] = &f
			}
		}
	}
	return acked
}

// kick removes the member id from the group, as the expiry of its session
// does.
func kick(addrs []string, id string) error {
	cl, err := kgo.NewClient(kgo.SeedBrokers(addrs...))
	if err != nil {
		return err
	}
	defer cl.Close()
	ctx, cancel := context.WithTimeout(context.Background(), testWait)
	defer cancel()
	req := kmsg.NewPtrLeaveGroupRequest()
	req.Group, req.MemberID = testGroup, id
	m := kmsg.NewLeaveGroupRequestMember()
	m.MemberID = id
	req.Members = append(req.Members, m)
	resp, err := req.RequestWith(ctx, cl)
	if err != nil {
		return err
	}
	if resp.ErrorCode != 0 {
		return fmt.Errorf("error code %d", resp.ErrorCode)
	}
	for _, m := range resp.Members {
		if m.ErrorCode != 0 {
			return fmt.Errorf("member %s: error code %d", m.MemberID, m.ErrorCode)
		}
	}
	return nil
}

// lostWork tells whether f, a completion of r, was a crashed member's work
// that its acknowledged commits did not cover; w.mu is held.
func (w *world) lostWork(r rec, f finish) (lost, byMetadata bool) {
	m := w.members[f.run]
	if !m.crashed {
		return false, false
	}
	fin, current := m.acked[f.part]
	switch {
	case !current || f.part < 0:
		return false, false // an assignment revoked before the crash: committed then
	case fin == nil:
		return true, false
	case fin.Done(r.o):
		return false, r.o >= fin.Committable()
	}
	return true, false
}

// awaitFinished waits until k records were finished, failing t after
// testWait.
func (w *world) awaitFinished(t *testing.T, k int) {
	t.Helper()
	deadline := time.After(testWait)
	for {
		w.mu.Lock()
		got := w.distinct
		w.mu.Unlock()
		if got >= k {
			return
		}
		select {
		case <-w.progress:
		case <-deadline:
			t.Fatalf("seed %d: %d of %d records finished after %v (stalled); %s", w.seed, got, k, testWait, w.state())
		}
	}
}

// state describes the run for a failure: the problems seen, the first
// records not finished, what each member holds.
func (w *world) state() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	var b strings.Builder
	fmt.Fprintf(&b, "problems %q; ", w.problems)
	missing := 0
	for p, end := range w.ends {
		for o := range end {
			if len(w.done[rec{p, o}]) == 0 && missing < 10 {
				fmt.Fprintf(&b, "%d/%d not finished; ", p, o)
				missing++
			}
		}
	}
	for _, m := range w.members {
		fmt.Fprintf(&b, "run %d (crashed %v, running %v, stopped %v): ", m.run, m.crashed, m.running, m.stop == nil)
		m.c.mu.Lock()
		for tp, p := range m.c.assigned {
			fmt.Fprintf(&b, "%d as %d committed %d; ", tp.partition, p.id, p.committed)
		}
		m.c.mu.Unlock()
		fmt.Fprintf(&b, "stats %+v completion %v; ", m.c.x.Stats(), m.c.x.Completion())
	}
	return b.String()
}

// awaitCommitted waits until the group committed every partition's end
// while the members still run, failing t after testWait: no commit stuck.
func (w *world) awaitCommitted(t *testing.T) {
	t.Helper()
	deadline := time.Now().Add(testWait)
	for got := committed(t, w.addrs); !equalOffsets(got, w.ends); got = committed(t, w.addrs) {
		if time.Now().After(deadline) {
			t.Fatalf("seed %d: committed %v after %v; want %v (a commit stuck)", w.seed, got, testWait, w.ends)
		}
		time.Sleep(10 * time.Millisecond) // a poll, bounded by the deadline
	}
}

// stopAll ends every member still running; a crashed member's Run must
// return too, whatever it says.
func (w *world) stopAll(t *testing.T) {
	t.Helper()
	for _, m := range w.members {
		if m.stop != nil {
			w.leave(t, m)
		}
		if m.stopped != nil {
			select {
			case <-m.stopped:
			case <-time.After(testWait):
				t.Errorf("run %d, crashed, did not return from Run", m.run)
			}
		}
	}
}

// check fails t for every guarantee broken; it returns the duplicates
// and the records the crashed members' metadata covered.
func (w *world) check(t *testing.T) (dups, byMeta, dead int) {
	t.Helper()
	w.mu.Lock()
	defer w.mu.Unlock()
	for p, end := range w.ends {
		for o := range end {
			r := rec{p, o}
			fs := w.done[r]
			if len(fs) == 0 {
				w.problem("record %d/%d lost: never handled nor dead-lettered", p, o)
				continue
			}
			dups += len(fs) - 1
			extra := 0
			for _, f := range fs {
				lost, meta := w.lostWork(r, f)
				if !lost {
					extra++
				}
				if meta {
					byMeta++
				}
				if f.dead {
					dead++
				}
			}
			if extra > 1 {
				w.problem("record %d/%d finished %d times, %d of them not a crashed member's uncommitted work: %+v", p, o, len(fs), extra, fs)
			}
		}
	}
	for k, n := range w.inflight {
		if n != 0 {
			w.problem("key %s: %d handlers counted in flight after every member stopped", k, n)
		}
	}
	if len(w.problems) > 0 {
		runs := ""
		for _, m := range w.members {
			id, _ := m.c.cl.GroupMetadata()
			runs += fmt.Sprintf("run %d is %s; ", m.run, id)
		}
		t.Logf("seed %d: %s\ntrace:\n%s", w.seed, runs, strings.Join(w.trace, "\n"))
	}
	for i, p := range w.problems {
		if i == 12 {
			t.Errorf("seed %d: … and %d problems more", w.seed, len(w.problems)-12)
			break
		}
		t.Errorf("seed %d: %s", w.seed, p)
	}
	return dups, byMeta, dead
}

// chaosCluster starts a kfake cluster with one topic of partitions
// partitions. The returned function closes it (once; the test's cleanup
// calls it too).
func chaosCluster(t *testing.T, partitions int32) (*kfake.Cluster, []string, func()) {
	t.Helper()
	kf, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.SeedTopics(partitions, testTopic))
	if err != nil {
		t.Fatal(err)
	}
	var once sync.Once
	closeIt := func() { once.Do(kf.Close) }
	t.Cleanup(closeIt)
	return kf, kf.ListenAddrs(), closeIt
}

// checkGoroutines fails t unless the goroutines fall back to before within
// testWait (a bounded poll: clients and the cluster end theirs as they
// close).
func checkGoroutines(t *testing.T, before int) {
	t.Helper()
	deadline := time.Now().Add(testWait)
	for runtime.NumGoroutine() > before {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<16)
			t.Errorf("%d goroutines left, %d before:\n%s", runtime.NumGoroutine(), before, buf[:runtime.Stack(buf, true)])
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// chaosSeeds returns the seeds the chaos runs use: four (1: a crash and a
// restart, then joins and leaves; 2: joins and leaves alone; 5: two
// crashes; 6: a crash whose metadata the next owner skips), or forty on
// more records with -konvoy.long.
func chaosSeeds() []uint64 {
	if *long {
		seeds := make([]uint64, 40)
		for i := range seeds {
			seeds[i] = uint64(i + 1)
		}
		return seeds
	}
	return []uint64{1, 2, 5, 6}
}

// TestChaosMembersJoinLeaveCrashRestart: for each seed, a topic of 2 to 7
// partitions gets records with keys drawn from 3 to 42, and a plan of
// three to five events (four to eight with -konvoy.long), each once a
// share of the records finished: a member joins, a member leaves, or a
// member crashes and restarts at once (the group drops the crashed one
// when its session times out). Every guarantee the file's comment lists
// holds after the run. The seed is in the subtest's name: go test ./kafka
// -run 'TestChaosMembersJoinLeaveCrashRestart/seed=7' reruns one.
func TestChaosMembersJoinLeaveCrashRestart(t *testing.T) {
	for _, seed := range chaosSeeds() {
		t.Run(fmt.Sprintf("seed=%d", seed), func(t *testing.T) { chaosRun(t, seed) })
	}
}

// TestChaosUnderAnEagerBalancer is TestChaosMembersJoinLeaveCrashRestart
// with the members balancing by range, an eager balancer, which
// docs/kafka.md names for a group that konvoy's range assignor predicts:
// every rebalance revokes every partition, and often assigns it back to
// the member that had it, whose next assignment must then start from the
// commit its revocation made.
func TestChaosUnderAnEagerBalancer(t *testing.T) {
	for _, seed := range chaosSeeds() {
		t.Run(fmt.Sprintf("seed=%d", seed), func(t *testing.T) { chaosRun(t, seed, kgo.Balancers(kgo.RangeBalancer())) })
	}
}

// chaosRun is one seed of TestChaosMembersJoinLeaveCrashRestart, each
// member's client with kopts.
func chaosRun(t *testing.T, seed uint64, kopts ...kgo.Opt) {
	before := runtime.NumGoroutine()
	rng := rand.New(rand.NewPCG(seed, 909))
	partitions, keys, n := int32(2+rng.IntN(6)), 3+rng.IntN(40), 400
	events := 3 + rng.IntN(3)
	if *long {
		n, events = 1500, 4+rng.IntN(5)
	}
	kf, addrs, closeCluster := chaosCluster(t, partitions)
	ends := produce(t, addrs, n, keys, seed)
	w := newWorld(seed, n, ends, addrs)
	w.kopts = kopts
	w.watch(kf)
	w.join(t, 1+rng.IntN(4))
	var plan []string
	for i := range events {
		w.awaitFinished(t, (i+1)*n/(events+1))
		var live, joined []*member
		for _, m := range w.members {
			if m.stop != nil {
				live = append(live, m)
				if id, _ := m.c.cl.GroupMetadata(); id != "" {
					joined = append(joined, m) // the group knows it: it can crash
				}
			}
		}
		switch act := rng.IntN(3); {
		case act == 0 || (act == 1 && len(live) == 1) || (act == 2 && len(joined) == 0):
			plan = append(plan, "join")
			w.join(t, 1+rng.IntN(4))
		case act == 1:
			m := live[rng.IntN(len(live))]
			plan = append(plan, fmt.Sprintf("leave %d", m.run))
			w.leave(t, m)
		default:
			m := joined[rng.IntN(len(joined))]
			plan = append(plan, fmt.Sprintf("crash %d", m.run))
			w.crash(t, m, time.Duration(rng.IntN(100))*time.Millisecond)
			w.join(t, 1+rng.IntN(4)) // the restart
		}
	}
	t.Logf("seed %d: %d partitions, %d keys, %d records; plan %s", seed, partitions, keys, n, strings.Join(plan, ", "))
	w.awaitFinished(t, n)
	w.awaitCommitted(t)
	w.stopAll(t)
	dups, byMeta, dead := w.check(t)
	checkCommitted(t, addrs, ends)
	closeCluster()
	checkGoroutines(t, before)
	t.Logf("seed %d: %d commits checked, %d dead-lettered, %d duplicates, %d records a crashed member's metadata covered",
		seed, w.commits, dead, dups, byMeta)
}

// TestCrashedMembersMetadataIsNotRedone: member A reads one partition of
// 120 records with keys drawn from 40; its handler of offset 5 never
// returns, so the records above it finish and A commits offset 5 with
// metadata naming them. Once A's acknowledged commit names at least 20
// records above offset 5 finished, A crashes (network cut, handlers
// killed, dropped from the group) and restarts as member B. B handles
// record 5 and every record A had not finished or not committed, and
// none that A's metadata named finished; every guarantee of the chaos
// runs holds.
func TestCrashedMembersMetadataIsNotRedone(t *testing.T) {
	before := runtime.NumGoroutine()
	kf, addrs, closeCluster := chaosCluster(t, 1)
	const n = 120
	ends := produce(t, addrs, n, 40, 11)
	w := newWorld(11, n, ends, addrs)
	w.watch(kf)
	crashed := make(chan struct{})
	w.gate = func(m *member, r rec) {
		if m.run == 0 && r.o == 5 {
			select { // A's handler of offset 5 runs until A dies
			case <-crashed:
			case <-time.After(testWait):
			}
		}
	}
	a := w.join(t, 4)
	deadline := time.Now().Add(testWait)
	for named := 0; named < 20; {
		if time.Now().After(deadline) {
			t.Fatalf("A's acknowledged commits name %d records finished above offset 5 after %v; want 20", named, testWait)
		}
		time.Sleep(5 * time.Millisecond) // a poll, bounded by the deadline
		a.c.mu.Lock()
		for _, p := range a.c.assigned {
			if f, err := ParseMetadata(max(p.committed, 0), p.committedMeta); err == nil && p.committed == 5 {
				named = 0
				for _, r := range f.Runs() {
					named += int(r.Last - r.First + 1)
				}
			}
		}
		a.c.mu.Unlock()
	}
	w.crash(t, a, 0)
	close(crashed)
	w.join(t, 4) // B, the restart
	w.awaitFinished(t, n)
	w.awaitCommitted(t)
	w.stopAll(t)
	dups, byMeta, _ := w.check(t)
	if byMeta < 20 {
		t.Errorf("%d records A's acknowledged metadata named finished; want 20 or more", byMeta)
	}
	checkCommitted(t, addrs, ends)
	closeCluster()
	checkGoroutines(t, before)
	t.Logf("%d commits checked, %d records redone (A's unfinished or uncommitted work), %d records A's metadata covered and B skipped", w.commits, dups, byMeta)
}

// holder holds commit requests at the broker, as a slow commit, while
// the group rebalances: once armed for a member, that member's next
// commit requests each sleep (kfake's SleepControl, so that the cluster
// serves others meanwhile) until the group leaves the Stable state, or
// for a fixed pause when pause is set. A hold is armed for one member
// only, and at a point of the test where that member's next commit is
// not one its own rebalance waits for: a commit held until a rebalance
// that can begin only after the commit returns would stall both until
// the client's request timeout, and the member would then lose its
// partitions, as a crashed member does.
type holder struct {
	mu       sync.Mutex
	member   string // the member whose commits are held
	left     int    // commits of member still to hold
	planned  int    // holds armed in all
	pause    time.Duration
	held     chan struct{} // a token per request held
	released int           // holds ended by a rebalance (or the pause)
	missed   int           // holds that reached testWait
}

// newHolder returns a holder that holds up to most commits in all.
func newHolder(most int, pause time.Duration) *holder {
	return &holder{pause: pause, held: make(chan struct{}, most)}
}

// arm has the holder hold m's next n commits.
func (h *holder) arm(m *member, n int) {
	id, _ := m.c.cl.GroupMetadata()
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.planned+n > cap(h.held) {
		panic("chaos: more holds armed than the holder was made for")
	}
	h.member, h.left = id, n
	h.planned += n
}

func (h *holder) hold(kf *kfake.Cluster, r *kmsg.OffsetCommitRequest) {
	h.mu.Lock()
	if h.left == 0 || r.MemberID != h.member {
		h.mu.Unlock()
		return
	}
	h.left--
	h.mu.Unlock()
	h.held <- struct{}{}
	kf.SleepControl(func() {
		if h.pause > 0 {
			time.Sleep(h.pause) // the commit is slow: the race's window
			h.mu.Lock()
			h.released++
			h.mu.Unlock()
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), testWait)
		defer cancel()
		_, err := kf.WaitGroupInfo(ctx, testGroup, func(g *kfake.GroupInfo) bool { return g != nil && g.State != "Stable" })
		h.mu.Lock()
		defer h.mu.Unlock()
		if err != nil {
			h.missed++
			return
		}
		h.released++
	})
}

// awaitHeld waits until the holder held a request, failing t after
// testWait.
func (h *holder) awaitHeld(t *testing.T) {
	t.Helper()
	select {
	case <-h.held:
	case <-time.After(testWait):
		t.Fatalf("no commit was held after %v", testWait)
	}
}

// TestRevokeWhileCommitInFlight: the races of Parallel Consumer's #826
// (a record lost when a partition is revoked while a commit is made from
// what was read rather than what finished) and #909 (a partition that
// comes back to the same member while stale work of its last assignment
// is still held: a record dropped and the commit stuck below it). Member
// A reads four partitions of records with keys drawn from 12, with
// handler errors retried and dead-lettered; then:
//
//   - periodic: a commit of A made on the interval is held at the broker
//     until the group is rebalancing, while member B joins and A's
//     revocation waits behind the commit in flight;
//   - revoke: the commit A makes in its revocation (its only commit: the
//     interval is an hour) is held 100 ms, while B waits to be assigned
//     the revoked partitions;
//   - back: as in periodic, and B leaves as soon as it finished a record,
//     so that its partitions come back to A while A still holds records
//     of their last assignment (A holds up to 256 and runs one at a time);
//     A's next commit once B finished a record is held too, and B leaves
//     while it is held.
//
// Each holds its commits as planned, and every guarantee of the chaos
// runs holds, with no duplicate at all (no member crashes): no record
// lost, no commit passing an unfinished record, no commit stuck below the
// end (in revoke, once the members stopped: A commits on no interval), no
// stall.
func TestRevokeWhileCommitInFlight(t *testing.T) {
	seeds := []uint64{1}
	if *long {
		seeds = []uint64{1, 2, 3, 4, 5, 6, 7, 8}
	}
	for _, seed := range seeds {
		t.Run(fmt.Sprintf("periodic/seed=%d", seed), func(t *testing.T) { inFlight(t, seed, "periodic") })
		t.Run(fmt.Sprintf("revoke/seed=%d", seed), func(t *testing.T) { inFlight(t, seed, "revoke") })
		t.Run(fmt.Sprintf("back/seed=%d", seed), func(t *testing.T) { inFlight(t, seed, "back") })
	}
}

// inFlight is one case of TestRevokeWhileCommitInFlight.
func inFlight(t *testing.T, seed uint64, name string) {
	before := runtime.NumGoroutine()
	kf, addrs, closeCluster := chaosCluster(t, 4)
	const n = 600
	ends := produce(t, addrs, n, 12, seed+100)
	w := newWorld(seed, n, ends, addrs)
	w.watch(kf)
	var h *holder
	var a *member
	back := &comeback{skippedBefore: -1}
	switch name {
	case "periodic":
		h = newHolder(1, 0)
		w.hold = h.hold
		a = w.join(t, 2)
	case "revoke":
		h = newHolder(1, 100*time.Millisecond)
		w.hold = h.hold
		var first sync.Once // A's first revocation; it revokes again as it stops
		w.revoked = func(m *member) {
			if m.run == 0 {
				first.Do(func() { h.arm(m, 1) })
			}
		}
		a = w.join(t, 2, WithCommitInterval(time.Hour))
	case "back":
		h = newHolder(2, 0) // one now, one before B leaves
		w.hold = h.hold
		back.install(t, w)
		a = w.join(t, 1, WithMaxHeld(256))
	}
	w.awaitFinished(t, n/4)
	if name != "revoke" {
		h.arm(a, 1)
		h.awaitHeld(t)
	}
	b := w.join(t, 2)
	if name == "back" {
		w.awaitFinishedBy(t, b)
		// A's revocation has ended (B runs records of its partitions),
		// so A's next commit is one no rebalance waits for; B leaves
		// once it is held, so that B's leaving is the rebalance that
		// releases it (a commit made after that rebalance would wait
		// for one that never comes).
		h.arm(a, 1)
		h.awaitHeld(t)
		// A's next handler waits until the partitions come back to A,
		// so that records of their last assignment are still held then.
		back.gating.Store(true)
		w.leave(t, b)
	}
	w.awaitFinished(t, n)
	if name != "revoke" { // there A commits only on revocation and when it stops
		w.awaitCommitted(t)
	}
	w.stopAll(t)
	dups, _, dead := w.check(t)
	if dups != 0 {
		t.Errorf("%d records finished twice, with no member crashed", dups)
	}
	h.check(t)
	if name == "back" {
		back.check(t, a)
	}
	if w.finishedBy(a) == 0 || w.finishedBy(b) == 0 {
		t.Errorf("A finished %d records, B %d; want both some", w.finishedBy(a), w.finishedBy(b))
	}
	checkCommitted(t, addrs, ends)
	closeCluster()
	checkGoroutines(t, before)
	t.Logf("%s, seed %d: %d commits checked, %d dead-lettered, A finished %d, B %d", name, seed, w.commits, dead, w.finishedBy(a), w.finishedBy(b))
}

// check fails t unless every hold planned was released by a rebalance
// (or the pause).
func (h *holder) check(t *testing.T) {
	t.Helper()
	h.mu.Lock()
	defer h.mu.Unlock()
	if want := h.planned; want == 0 || h.released != want || h.missed != 0 {
		t.Errorf("commits held: %d released by a rebalance (or the pause), %d never; want %d, 0", h.released, h.missed, want)
	}
}

// comeback watches, in the back case, member A's assignments revoked and
// how many records they had skipped when their partitions came back to A.
type comeback struct {
	gating        atomic.Bool // set: A's next handler waits for the comeback
	stale         []*part     // guarded by A's Consumer.mu
	skippedBefore int         // written by A's handler, read once A stopped
}

// install has w note A's revoked assignments and gate A's next handler
// once gating is set.
func (cb *comeback) install(t *testing.T, w *world) {
	w.revoked = func(m *member) {
		if m.run != 0 {
			return
		}
		m.c.mu.Lock()
		defer m.c.mu.Unlock()
		for _, p := range m.c.assigned {
			if p.revoked.Load() {
				cb.stale = append(cb.stale, p)
			}
		}
	}
	w.gate = func(m *member, _ rec) {
		if m.run == 0 && cb.gating.CompareAndSwap(true, false) && awaitBack(t, m) {
			cb.skippedBefore = cb.skipped(m)
		}
	}
}

// skipped returns how many records m's revoked assignments skipped.
func (cb *comeback) skipped(m *member) int {
	m.c.mu.Lock()
	defer m.c.mu.Unlock()
	n := 0
	for _, p := range cb.stale {
		n += len(p.skipped)
	}
	return n
}

// check fails t unless a's revoked assignments skipped records after
// their partitions came back to a: stale records were still held then.
func (cb *comeback) check(t *testing.T, a *member) {
	t.Helper()
	if skipped := cb.skipped(a); len(cb.stale) == 0 || cb.skippedBefore < 0 || skipped <= cb.skippedBefore {
		t.Errorf("A revoked %d assignments, which skipped %d records before their partitions came back and %d in all; want some skipped after (the #909 shape)", len(cb.stale), cb.skippedBefore, skipped)
	}
}

// awaitFinishedBy waits until m finished a record, failing t after
// testWait.
func (w *world) awaitFinishedBy(t *testing.T, m *member) {
	t.Helper()
	deadline := time.Now().Add(testWait)
	for w.finishedBy(m) == 0 {
		if time.Now().After(deadline) {
			t.Fatalf("run %d finished no record after %v", m.run, testWait)
		}
		time.Sleep(time.Millisecond) // a poll, bounded by the deadline
	}
}

// finishedBy returns how many records m finished.
func (w *world) finishedBy(m *member) int {
	w.mu.Lock()
	defer w.mu.Unlock()
	k := 0
	for _, fs := range w.done {
		for _, f := range fs {
			if f.run == m.run {
				k++
			}
		}
	}
	return k
}

// awaitBack waits until a partition revoked from m is assigned to m
// again, and tells whether it was; it fails t after testWait.
func awaitBack(t *testing.T, m *member) bool {
	deadline := time.Now().Add(testWait)
	for {
		m.c.mu.Lock()
		back := false
		for _, p := range m.c.assigned {
			back = back || p.id >= 4 // a partition of the four assigned again
		}
		m.c.mu.Unlock()
		if back {
			return true
		}
		if time.Now().After(deadline) {
			t.Errorf("no partition came back to A after %v", testWait)
			return false
		}
		time.Sleep(time.Millisecond) // a poll, bounded by the deadline
	}
}

// TestRevokeWaitsForADeadLetter: member A reads two partitions; the
// records at offset 3 fail every attempt, and A's dead letters of them
// wait until a revocation of A began, then until A's next commit reaches
// the broker, or 300 ms (bounded: a revocation that waits for the dead
// letter commits only after it). Member B joins while both dead letters
// wait. The revocation waits for the dead letter of its partition, so its
// commit counts that record finished and B does not take it again: no
// record is finished twice, and no key has two handlers (or a handler
// and a dead letter) at once.
func TestRevokeWaitsForADeadLetter(t *testing.T) {
	before := runtime.NumGoroutine()
	kf, addrs, closeCluster := chaosCluster(t, 2)
	const n = 200
	ends := produce(t, addrs, n, 20, 21)
	w := newWorld(21, n, ends, addrs)
	w.fails = func(r rec) int {
		if r.o == 3 {
			return 2 // every attempt: dead-lettered
		}
		return 0
	}
	var (
		waiting   = make(chan struct{}, 2)
		revoking  = make(chan struct{})
		committed = make(chan struct{}, 1)
		once      sync.Once
	)
	w.revoked = func(m *member) {
		if m.run == 0 {
			once.Do(func() { close(revoking) })
		}
	}
	w.hold = func(_ *kfake.Cluster, _ *kmsg.OffsetCommitRequest) {
		select {
		case <-revoking:
			select {
			case committed <- struct{}{}:
			default:
			}
		default:
		}
	}
	w.deadGate = func(m *member, _ rec) {
		if m.run != 0 {
			return
		}
		waiting <- struct{}{}
		select {
		case <-revoking:
		case <-time.After(testWait):
			t.Error("no revocation of A began")
			return
		}
		select {
		case <-committed: // A committed while its dead letter ran
		case <-time.After(300 * time.Millisecond):
		}
	}
	w.watch(kf)
	// A holds every record at once: with both dead letters waiting, the
	// records finished above them count as held, and with fewer room A
	// could pause fetching before it read the other partition's offset 3.
	w.join(t, 4, WithMaxHeld(4*n))
	for range 2 {
		select {
		case <-waiting:
		case <-time.After(testWait):
			t.Fatalf("A's dead letters did not start after %v", testWait)
		}
	}
	w.join(t, 4)
	w.awaitFinished(t, n)
	w.awaitCommitted(t)
	w.stopAll(t)
	dups, _, dead := w.check(t)
	if dups != 0 || dead != 2 {
		t.Errorf("%d records finished twice, %d dead-lettered; want 0 and 2", dups, dead)
	}
	checkCommitted(t, addrs, ends)
	closeCluster()
	checkGoroutines(t, before)
}
