package live

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sirali-konvoy/konvoy"
	"pgregory.net/rapid"
)

// Under lane-aware a lane of one item held sits in a slot, and moves to its
// shard when a second item of it comes, or an item of another lane of the
// same slot, while the slot's item's finish reaches it through the log of
// finished items (which Submit reads every few items or when it finds a
// slot taken, and consumers read while an item waits in a lane), or, once
// it moved, its consumer frees it. With keys from a wide pool over the
// fewest slots (shards of them), lanes collide often. Whatever the
// interleaving, a lane's items run one at a time in submission order,
// Lanes never names a lane twice (a lane is in its slot or its shard,
// never both), and once Close has drained no slot and no shard holds a
// lane.
func TestCollidingLanesKeepOrderAndLeaveNothing(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		maxHeld := rapid.IntRange(1, 2*shards).Draw(t, "maxHeld")
		consumers := rapid.IntRange(1, 6).Draw(t, "consumers")
		wide := rapid.IntRange(1, 4*shards).Draw(t, "keys")
		n := rapid.IntRange(0, 200).Draw(t, "items")
		r := &collisions{running: map[int]bool{}, last: map[int]int{}}
		for range n {
			r.keys = append(r.keys, rapid.IntRange(0, wide-1).Draw(t, "key"))
			r.yields = append(r.yields, rapid.IntRange(0, 5).Draw(t, "yields"))
		}
		event := func(i int) konvoy.Event { return konvoy.Event{Key: fmt.Sprint("k", r.keys[i])} }
		x, err := New(konvoy.Convoy, consumers, event, r.handle, WithMaxHeld(maxHeld))
		if err != nil {
			t.Fatal(err)
		}
		r.x.Store(x)
		ctx, cancel := context.WithTimeout(context.Background(), deadline)
		defer cancel()
		for i := range n {
			if err := x.Submit(ctx, i); err != nil {
				t.Fatalf("Submit(%d): %v", i, err)
			}
		}
		if err := x.Close(ctx); err != nil {
			t.Fatalf("Close: %v", err)
		}
		r.check(t)
	})
}

// collisions is a run of TestCollidingLanesKeepOrderAndLeaveNothing: item
// i is of key keys[i], and its handler yields yields[i] times.
type collisions struct {
	keys, yields []int
	x            atomic.Pointer[Executor[int]]
	mu           sync.Mutex
	running      map[int]bool // by key
	last         map[int]int  // by key, the last item started
	faults       []string
}

// handle is the handler: it records a fault when an item runs beside
// another of its key or after a later one, and every seventh item checks
// that Lanes names no lane twice.
func (r *collisions) handle(_ context.Context, i int) error {
	k := r.keys[i]
	r.mu.Lock()
	if r.running[k] {
		r.faults = append(r.faults, fmt.Sprintf("item %d of key %d runs while another of it runs", i, k))
	}
	if p, ok := r.last[k]; ok && p > i {
		r.faults = append(r.faults, fmt.Sprintf("item %d of key %d runs after item %d", i, k, p))
	}
	r.running[k], r.last[k] = true, i
	r.mu.Unlock()
	if i%7 == 0 {
		checkLanesDistinct(r.x.Load(), &r.mu, &r.faults)
		checkSlotsCounted(r.x.Load(), &r.mu, &r.faults)
		checkWaitingCounted(r.x.Load(), &r.mu, &r.faults)
	}
	for range r.yields[i] {
		runtime.Gosched()
	}
	r.mu.Lock()
	r.running[k] = false
	r.mu.Unlock()
	return nil
}

// check fails t with the run's faults, and when, Close having drained, a
// key did not run, or a slot or a shard holds a lane.
func (r *collisions) check(t *rapid.T) {
	for _, f := range r.faults {
		t.Error(f)
	}
	if len(r.last) != len(distinct(r.keys)) {
		t.Fatalf("%d keys ran, of %d", len(r.last), len(distinct(r.keys)))
	}
	x := r.x.Load()
	checkSlotsFree(t, x)
	for i := range x.shards {
		if m := x.shards[i].table.n; m != 0 {
			t.Fatalf("shard %d holds %d lanes after Close drained", i, m)
		}
	}
	if n := x.laneWaitN.Load(); n != 0 {
		t.Fatalf("%d lanes with items waiting counted after Close drained", n)
	}
	if s := x.Stats(); s.ActiveLanes != 0 || s.Done != len(r.keys) {
		t.Fatalf("Stats after Close: %d active lanes, %d done; want 0 and %d", s.ActiveLanes, s.Done, len(r.keys))
	}
}

// checkSlotsCounted records a fault when x's count of slots held by one
// item, which Stats reads for ActiveLanes, is not the number of their
// words, under the submit lock.
func checkSlotsCounted[T any](x *Executor[T], mu *sync.Mutex, faults *[]string) {
	x.subMu.Lock()
	n := 0
	for i := range x.slots.word {
		if x.slots.word[i].Load() == slotOne {
			n++
		}
	}
	held := x.slotsHeld
	x.unlockSub()
	if n != held {
		mu.Lock()
		*faults = append(*faults, fmt.Sprintf("%d slots held by one item, counted %d", n, held))
		mu.Unlock()
	}
}

// checkWaitingCounted records a fault when x.laneWaitN, which consumers
// read to know whether an item waits in a lane (see finished.go), is not
// the number of lanes with items waiting, under every shard's lock: it
// changes only under the lock of the shard whose lane it counts.
func checkWaitingCounted[T any](x *Executor[T], mu *sync.Mutex, faults *[]string) {
	n := 0
	for i := range x.shards {
		x.shards[i].mu.Lock()
		for _, l := range x.shards[i].table.lanes {
			if l.n > 0 && l.head >= 0 {
				n++
			}
		}
	}
	counted := x.laneWaitN.Load()
	for i := range x.shards {
		x.shards[i].mu.Unlock()
	}
	if int64(n) != counted {
		mu.Lock()
		*faults = append(*faults, fmt.Sprintf("%d lanes with items waiting, counted %d", n, counted))
		mu.Unlock()
	}
}

// checkLanesDistinct records a fault when x.Lanes names a lane twice.
func checkLanesDistinct[T any](x *Executor[T], mu *sync.Mutex, faults *[]string) {
	seen := map[string]bool{}
	for _, l := range x.Lanes(1 << 20) {
		if seen[l.Lane] {
			mu.Lock()
			*faults = append(*faults, "Lanes names lane "+l.Lane+" twice")
			mu.Unlock()
		}
		seen[l.Lane] = true
	}
}

// distinct returns the distinct values of s.
func distinct(s []int) map[int]bool {
	m := map[int]bool{}
	for _, v := range s {
		m[v] = true
	}
	return m
}

// A consumer whose finish finds the log full frees its slot itself, under
// the submit lock: the log holds as many finished items as the executor
// may hold, and Submit reads it every drainEvery items, so it fills when a
// full executor's items, each in a slot of its own, all finish, and the
// next item, of a slot not held, finishes before Submit reads it.
func TestAFullLogOfFinishedItemsLeavesNoLaneBehind(t *testing.T) {
	const full = 64
	gate := make(chan struct{})
	handle := func(_ context.Context, i int) error {
		if i < full {
			<-gate
		}
		return nil
	}
	var names []string // of slots all different, so that every item takes one
	event := func(i int) konvoy.Event { return konvoy.Event{Key: names[i]} }
	x, err := New(konvoy.Convoy, 1, event, handle, WithMaxHeld(full))
	if err != nil {
		t.Fatal(err)
	}
	names = slotApart(x, full+1)
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	for i := range full {
		if err := x.Submit(ctx, i); err != nil {
			t.Fatalf("Submit(%d): %v", i, err)
		}
	}
	close(gate)
	awaitLogged(ctx, t, x, full)
	if len(x.finLog.cells) != full {
		t.Fatalf("the log has %d cells; want %d, WithMaxHeld's", len(x.finLog.cells), full)
	}
	if err := x.Submit(ctx, full); err != nil {
		t.Fatalf("Submit(%d): %v", full, err)
	}
	if err := x.Close(ctx); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if n := x.finLog.enq.Load(); n != full {
		t.Errorf("%d items went through the log; want %d, the last freeing its lane itself", n, full)
	}
	checkSlotsFree(t, x)
	for i := range x.shards {
		if m := x.shards[i].table.n; m != 0 {
			t.Errorf("shard %d holds %d lanes after Close", i, m)
		}
	}
	if s := x.Stats(); s.Done != full+1 || s.ActiveLanes != 0 {
		t.Errorf("Stats after Close: %d done, %d active lanes; want %d and 0", s.Done, s.ActiveLanes, full+1)
	}
}

// checkSlotsFree fails t when a slot of x holds a lane.
func checkSlotsFree[T any](t interface{ Fatalf(string, ...any) }, x *Executor[T]) {
	for i := range x.slots.word {
		if v := x.slots.word[i].Load(); v != 0 {
			t.Fatalf("slot %d is %#x after Close drained", i, v)
		}
	}
}

// slotApart returns n lane names whose slots in x are all different.
func slotApart[T any](x *Executor[T], n int) []string {
	var names []string
	taken := map[uint64]bool{}
	for k := 0; len(names) < n; k++ {
		name := fmt.Sprint("k", k)
		if slot := x.laneHash(name) & x.slots.mask; !taken[slot] {
			taken[slot] = true
			names = append(names, name)
		}
	}
	return names
}

// awaitLogged waits until n items went into x's log of finished items,
// failing t when ctx ends first.
func awaitLogged[T any](ctx context.Context, t *testing.T, x *Executor[T], n uint32) {
	for x.finLog.enq.Load() < n {
		if ctx.Err() != nil {
			t.Fatalf("%d items in the log of finished items; want %d", x.finLog.enq.Load(), n)
		}
		runtime.Gosched()
	}
}

// The log's positions are 32 bits and wrap around: a log whose positions
// start just below 2^32 keeps its items in order across the wrap, holds
// exactly as many as it has cells, and is found full and empty where it
// is, also when it is full, or empty, as the positions wrap.
func TestFinishLogWrapsAround(t *testing.T) {
	done := make(chan string, 1)
	go func() { done <- fillAcrossTheWrap() }()
	select {
	case fault := <-done:
		if fault != "" {
			t.Fatal(fault)
		}
	case <-time.After(deadline):
		t.Fatal("the log went round for ever across the wrap")
	}
}

// fillAcrossTheWrap fills a log of 64 cells whose positions start 200
// below 2^32, and takes from it, 1 to 64 items at a time, and returns
// what went wrong, "" for nothing.
func fillAcrossTheWrap() string {
	l := newFinishLog(64)
	start := uint32(1<<32 - 200)
	for i := range l.cells { // free for the lap from start on
		pos := start + uint32(i)
		l.cells[pos&l.mask].turn.Store(pos)
	}
	l.enq.Store(start)
	l.deq.Store(start)
	next, want := uint64(0), uint64(0)
	for k := 1; k <= 64; k++ {
		for {
			if _, ok := l.add(next); !ok {
				break
			}
			next++
		}
		if next-want != 64 {
			return fmt.Sprintf("full with %d held; want 64", next-want)
		}
		if fault := takeInOrder(l, k, &want); fault != "" {
			return fault
		}
		if l.ready() != (want < next) {
			return fmt.Sprintf("ready: %v with %d held", !(want < next), next-want)
		}
	}
	if fault := takeInOrder(l, int(next-want), &want); fault != "" {
		return fault
	}
	if _, ok := l.take(); ok || l.ready() {
		return "took from an empty log"
	}
	if l.enq.Load() >= start {
		return fmt.Sprintf("the positions did not wrap: at %d", l.enq.Load())
	}
	return ""
}

// takeInOrder takes k items from l, which must be *want, *want+1, …,
// moving *want on, and returns what went wrong, "" for nothing.
func takeInOrder(l *finishLog, k int, want *uint64) string {
	for range k {
		if h, ok := l.take(); !ok || h != *want {
			return fmt.Sprintf("take: %d, %v; want %d, true", h, ok, *want)
		}
		*want++
	}
	return ""
}
