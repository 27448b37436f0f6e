package live

import (
	"context"
	"errors"
	"math"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sirali-konvoy/konvoy"
	"pgregory.net/rapid"
)

// The resequencer applies in the model's order: for a stream with
// duplicates and gaps, the executor without WithResequencer runs, for each
// key, the items the model's Resequencer applies, in the order it applies
// them; it discards the model's duplicates, still holds at Close the items
// the model never applies (Close names them), and counts as the model
// does. History-only items run as they come. The next property says why
// the model's order is comparable.
func TestResequencerAppliesInTheModelsOrder(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) { checkAppliesAsTheModel(t, konvoy.ResequencerConfig{}, 5) })
}

// The configured resequencer applies in the model's order: for a stream
// with duplicates, gaps and steps that go back, under a drawn Start,
// Capacity and RejectOld (no Timeout, which is wall time here and rounds
// there), the executor runs, for each key, the items the model's
// Resequencer applies, in the order it applies them, discards what the
// model discards, still holds at Close what the model never applies, and
// counts as the model does.
//
// The model applies an event when it finishes; on one consumer, with
// every event one round long, event i finishes at round i+1, so the model
// meets the events in input order, as the executor meets items in
// submission order, and the two take the same steps (hold, release,
// force, discard) in the same order. The model's schedule gives each
// applied event its AppliedAt round but not its place among the events
// applied at the same round; that place follows from the model: at round
// t the event finishing then (Finish equal to AppliedAt) is taken last,
// after at most one held event forced to make room under the Capacity,
// which releases its key's run of steps upward; so among a key's events
// applied at round t, the event finishing then comes last when it is
// written backward, and otherwise every one comes in step order.
func TestConfiguredResequencerAppliesInTheModelsOrder(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		checkAppliesAsTheModel(t, konvoy.ResequencerConfig{
			Start:     rapid.SampledFrom([]konvoy.ResequencerStart{konvoy.StartZero, konvoy.StartFirstSeen}).Draw(t, "start"),
			Capacity:  rapid.IntRange(0, 4).Draw(t, "capacity"),
			RejectOld: rapid.Bool().Draw(t, "rejectOld"),
		}, 7)
	})
}

// checkAppliesAsTheModel checks one stream of the two properties above,
// of steps 0 to maxStep, under cfg: given as WithResequencer's unless it
// is the zero config, which is the executor's default.
func checkAppliesAsTheModel(t *rapid.T, cfg konvoy.ResequencerConfig, maxStep int) {
	n := rapid.IntRange(0, 40).Draw(t, "items")
	items := make([]stampItem, n)
	events := make([]konvoy.Event, n)
	for i := range items {
		events[i] = konvoy.Event{Key: rapid.SampledFrom([]string{"a", "b", "c"}).Draw(t, "key"), Step: rapid.IntRange(0, maxStep).Draw(t, "step"), Duration: 1}
		items[i] = stampItem{i, events[i]}
	}
	opts := []Option{WithPolicy(rapid.SampledFrom(konvoy.Policies()).Draw(t, "policy")), WithMaxHeld(n + 1)}
	if cfg != (konvoy.ResequencerConfig{}) {
		opts = append(opts, WithResequencer(cfg, time.Hour))
	}
	var mu sync.Mutex
	ran := map[string][]int{} // by key: the items run with a step, in order
	history := 0
	x, err := New(konvoy.Resequencer, rapid.IntRange(1, 4).Draw(t, "consumers"), func(it stampItem) konvoy.Event { return it.e },
		func(ctx context.Context, it stampItem) error {
			mu.Lock()
			defer mu.Unlock()
			if it.e.Step == 0 {
				history++
			} else {
				ran[it.e.Key] = append(ran[it.e.Key], it.seq)
			}
			return nil
		}, opts...)
	if err != nil {
		t.Fatal(err)
	}
	for _, it := range items {
		if err := x.Submit(context.Background(), it); err != nil {
			t.Fatal(err)
		}
	}
	closeErr := mustClose(t, x)
	r, err := konvoy.Simulate(events, konvoy.Resequencer, 1, konvoy.WithSchedule(n+1), konvoy.WithResequencer(cfg))
	if err != nil {
		t.Fatal(err)
	}
	want, never, histories := modelApplies(events, r.Schedule)
	for k, seqs := range want {
		if !slices.Equal(ran[k], seqs) {
			t.Fatalf("key %s ran items %v; the model applies %v", k, ran[k], seqs)
		}
	}
	if len(ran) != len(want) || history != histories {
		t.Fatalf("ran %v and %d history-only items; the model applies %v and %d", ran, history, want, histories)
	}
	var unrun *UnrunError[stampItem]
	var left []int
	if errors.As(closeErr, &unrun) {
		for _, it := range unrun.Items {
			left = append(left, it.seq)
		}
	}
	if !slices.Equal(left, never) || len(never) > 0 && !errors.Is(closeErr, ErrNeverApplied) || len(never) == 0 && closeErr != nil {
		t.Fatalf("Close: %v; the model never applies %v", closeErr, never)
	}
	st := x.Stats()
	got := [...]int{st.Duplicates, st.Buffered, st.MaxBuffered, st.MaxKeyBuffered, st.NeverApplied, st.GapsSkipped, st.Forced, st.RejectedOld, st.BackwardWrites}
	model := [...]int{r.Duplicates, r.Buffered, r.MaxBuffered, r.MaxKeyBuffered, r.NeverApplied, r.GapsSkipped, r.Forced, r.RejectedOld, r.BackwardWrites}
	if got != model {
		t.Fatalf("Duplicates, Buffered, MaxBuffered, MaxKeyBuffered, NeverApplied, GapsSkipped, Forced, RejectedOld, BackwardWrites: %v; the model's %v", got, model)
	}
}

// modelApplies returns, from the schedule of a run of events on one
// consumer, each event one round long, the events the model applies by key, in the
// order it applies them (see TestConfiguredResequencerAppliesInTheModelsOrder),
// the events it never applies, in input order, and the number of
// history-only events.
func modelApplies(events []konvoy.Event, schedule []konvoy.Slot) (applied map[string][]int, never []int, histories int) {
	byKey := map[string][]konvoy.Slot{}
	for _, s := range schedule { // in input order
		switch s.Outcome {
		case konvoy.Applied, konvoy.Held, konvoy.WrittenBackward:
			byKey[s.Key] = append(byKey[s.Key], s)
		case konvoy.NeverApplied:
			never = append(never, s.Index)
		case konvoy.HistoryOnly:
			histories++
		}
	}
	last := func(s konvoy.Slot) bool { return s.Outcome == konvoy.WrittenBackward && s.Finish == s.AppliedAt }
	applied = map[string][]int{}
	for k, slots := range byKey {
		slices.SortFunc(slots, func(a, b konvoy.Slot) int {
			if a.AppliedAt != b.AppliedAt {
				return a.AppliedAt - b.AppliedAt
			}
			if last(a) != last(b) {
				if last(a) {
					return 1
				}
				return -1
			}
			return events[a.Index].Step - events[b.Index].Step
		})
		for _, s := range slots {
			applied[k] = append(applied[k], s.Index)
		}
	}
	return applied, never, histories
}

// WithResequencer's bad values make New fail, naming the option; a round
// is needed only with a Timeout.
func TestWithResequencerRefuses(t *testing.T) {
	h := func(context.Context, konvoy.Event) error { return nil }
	for name, o := range map[string]Option{
		"start":         WithResequencer(konvoy.ResequencerConfig{Start: 2}, time.Second),
		"timeout":       WithResequencer(konvoy.ResequencerConfig{Timeout: -1}, time.Second),
		"capacity":      WithResequencer(konvoy.ResequencerConfig{Capacity: -1}, time.Second),
		"no round":      WithResequencer(konvoy.ResequencerConfig{Timeout: 1}, 0),
		"long timeout":  WithResequencer(konvoy.ResequencerConfig{Timeout: math.MaxInt}, time.Hour),
		"short timeout": WithResequencer(konvoy.ResequencerConfig{Timeout: 1}, -time.Second),
	} {
		if _, err := New(konvoy.Resequencer, 1, ev, h, o); err == nil || !strings.Contains(err.Error(), "live: New: WithResequencer") {
			t.Errorf("%s: %v; want a live: New: WithResequencer error", name, err)
		}
	}
	for _, round := range []time.Duration{0, -1} {
		x, err := New(konvoy.Resequencer, 1, ev, h, WithResequencer(konvoy.ResequencerConfig{Capacity: 1, RejectOld: true}, round))
		if err != nil {
			t.Fatalf("no Timeout, round %v: %v", round, err)
		}
		if err := mustClose(t, x); err != nil {
			t.Fatal(err)
		}
	}
}

// reseqRecorder is a handler that sends each item's step to a channel,
// and the time it started.
type reseqRecorder struct {
	steps chan int
	at    chan time.Time
}

func newReseqRecorder() *reseqRecorder {
	return &reseqRecorder{steps: make(chan int, 100), at: make(chan time.Time, 100)}
}

func (r *reseqRecorder) handle(_ context.Context, e konvoy.Event) error {
	r.at <- time.Now()
	r.steps <- e.Step
	return nil
}

// next returns the step of the next item run, failing t at the deadline.
func (r *reseqRecorder) next(t *testing.T) (int, time.Time) {
	t.Helper()
	select {
	case s := <-r.steps:
		return s, <-r.at
	case <-time.After(deadline):
		t.Fatal("no item ran")
	}
	return 0, time.Time{}
}

// An item held for a gap that never fills is released once its Timeout
// (in rounds of the round given) has passed since its submission, never
// before, skipping the steps missing before it; a step in the gap that
// comes later is an old step, written backward; Close returns nil and
// leaves no goroutine, the timer's included.
func TestResequencerTimeoutReleasesAHeldItem(t *testing.T) {
	before := runtime.NumGoroutine()
	const round = 5 * time.Millisecond
	rec := newReseqRecorder()
	x, err := New(konvoy.Resequencer, 2, ev, rec.handle, WithResequencer(konvoy.ResequencerConfig{Timeout: 3}, round))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := x.Submit(ctx, konvoy.Event{Key: "a", Step: 1}); err != nil {
		t.Fatal(err)
	}
	if s, _ := rec.next(t); s != 1 {
		t.Fatalf("ran step %d; want 1", s)
	}
	t0 := time.Now()
	if err := x.Submit(ctx, konvoy.Event{Key: "a", Step: 4}); err != nil {
		t.Fatal(err)
	}
	if st := x.Stats(); st.Buffered != 1 {
		t.Fatalf("stats %+v; want step 4 held", st)
	}
	s, at := rec.next(t)
	if s != 4 || at.Sub(t0) < 3*round {
		t.Fatalf("ran step %d %v after its submission; want step 4 after at least %v", s, at.Sub(t0), 3*round)
	}
	if err := x.Submit(ctx, konvoy.Event{Key: "a", Step: 2}); err != nil {
		t.Fatal(err)
	}
	if s, _ := rec.next(t); s != 2 {
		t.Fatalf("ran step %d; want the old step 2", s)
	}
	if err := mustClose(t, x); err != nil {
		t.Fatalf("Close: %v", err)
	}
	st := x.Stats()
	if st.Done != 3 || st.Buffered != 1 || st.Forced != 1 || st.GapsSkipped != 2 || st.BackwardWrites != 1 || st.NeverApplied != 0 || st.RejectedOld != 0 {
		t.Fatalf("stats %+v; want 3 done, 1 forced, 2 gaps skipped, 1 backward write", st)
	}
	if n := settledGoroutines(before); n > before {
		t.Fatalf("%d goroutines before New, %d after Close", before, n)
	}
}

// Close does not wait out a Timeout: no item can fill a gap once it is
// called, so it releases the items held at once, in the order held, and
// returns nil long before their hour is up (the test's deadline is
// seconds).
func TestCloseReleasesHeldItemsUnderATimeout(t *testing.T) {
	before := runtime.NumGoroutine()
	rec := newReseqRecorder()
	x, err := New(konvoy.Resequencer, 3, ev, rec.handle, WithResequencer(konvoy.ResequencerConfig{Timeout: 1, RejectOld: true}, time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []int{4, 2, 5, 1} { // 1 runs and releases 2; 4 and 5 wait for 3
		if err := x.Submit(context.Background(), konvoy.Event{Key: "a", Step: s}); err != nil {
			t.Fatal(err)
		}
	}
	for _, want := range []int{1, 2} {
		if s, _ := rec.next(t); s != want {
			t.Fatalf("ran step %d; want %d", s, want)
		}
	}
	if err := mustClose(t, x); err != nil {
		t.Fatalf("Close: %v", err)
	}
	for _, want := range []int{4, 5} {
		if s, _ := rec.next(t); s != want {
			t.Fatalf("ran step %d; want %d", s, want)
		}
	}
	st := x.Stats()
	if st.Done != 4 || st.Buffered != 3 || st.Forced != 1 || st.GapsSkipped != 1 || st.NeverApplied != 0 {
		t.Fatalf("stats %+v; want 4 done, 3 held, 1 forced, 1 gap skipped", st)
	}
	if n := settledGoroutines(before); n > before {
		t.Fatalf("%d goroutines before New, %d after Close", before, n)
	}
}

// Under a Timeout in wall time, whatever the timer's moments, every item
// is run or discarded (a duplicate or a rejected old step), none is left
// held, Close returns nil and no goroutine outlives it; each key's items
// run one at a time, and those that run at or below a step run before
// them are exactly the BackwardWrites (none under RejectOld): a timeout
// changes when items are released, never the resequencer's rules.
func TestTimedResequencerAccountsForEveryItem(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		cfg := konvoy.ResequencerConfig{
			Start:     rapid.SampledFrom([]konvoy.ResequencerStart{konvoy.StartZero, konvoy.StartFirstSeen}).Draw(t, "start"),
			Timeout:   rapid.IntRange(1, 3).Draw(t, "timeout"),
			Capacity:  rapid.IntRange(0, 4).Draw(t, "capacity"),
			RejectOld: rapid.Bool().Draw(t, "rejectOld"),
		}
		round := time.Duration(rapid.IntRange(1, 300).Draw(t, "roundMicroseconds")) * time.Microsecond
		n := rapid.IntRange(0, 40).Draw(t, "items")
		before := runtime.NumGoroutine()
		var mu sync.Mutex
		running := map[string]bool{}
		ran := map[string][]int{} // by key: the steps run, in order
		faults := 0
		x, err := New(konvoy.Resequencer, rapid.IntRange(1, 4).Draw(t, "consumers"), ev,
			func(ctx context.Context, e konvoy.Event) error {
				mu.Lock()
				if running[e.Key] {
					faults++
				}
				running[e.Key] = true
				mu.Unlock()
				runtime.Gosched()
				mu.Lock()
				running[e.Key] = false
				ran[e.Key] = append(ran[e.Key], e.Step)
				mu.Unlock()
				return nil
			}, WithPolicy(rapid.SampledFrom(konvoy.Policies()).Draw(t, "policy")), WithMaxHeld(n+1), WithResequencer(cfg, round))
		if err != nil {
			t.Fatal(err)
		}
		for range n {
			e := konvoy.Event{Key: rapid.SampledFrom([]string{"a", "b"}).Draw(t, "key"), Step: rapid.IntRange(1, 6).Draw(t, "step")}
			if err := x.Submit(context.Background(), e); err != nil {
				t.Fatal(err)
			}
			if rapid.IntRange(0, 3).Draw(t, "pause") == 0 {
				time.Sleep(round) // lets some timeouts pass; nothing asserted depends on it
			}
		}
		if err := mustClose(t, x); err != nil {
			t.Fatalf("Close: %v", err)
		}
		st := x.Stats()
		backward := 0
		for _, steps := range ran {
			top := 0
			for _, s := range steps {
				if s <= top {
					backward++
				}
				top = max(top, s)
			}
		}
		if faults > 0 || st.Done+st.Duplicates+st.RejectedOld != n || st.NeverApplied != 0 || st.Held != 0 ||
			backward != st.BackwardWrites || cfg.RejectOld && backward > 0 || st.Forced > st.Buffered {
			t.Fatalf("%d overlaps; ran %v; stats %+v", faults, ran, st)
		}
		if g := settledGoroutines(before); g > before {
			t.Fatalf("%d goroutines before New, %d after Close", before, g)
		}
	})
}

// Submit releases the held items whose timeout has passed before it
// places its own, as the model applies the events due before the one that
// finishes, whether or not the timer has fired: with the timer stopped,
// step 3, held past its timeout, is released by the Submit of step 2,
// which then comes too late and is written backward.
func TestSubmitReleasesTheItemsDue(t *testing.T) {
	const round = time.Millisecond
	rec := newReseqRecorder()
	x, err := New(konvoy.Resequencer, 1, ev, rec.handle, WithResequencer(konvoy.ResequencerConfig{Timeout: 2}, round))
	if err != nil {
		t.Fatal(err)
	}
	x.subMu.Lock()
	x.rq.off = true // the timer is never set: only Submit releases what is due
	x.subMu.Unlock()
	ctx := context.Background()
	for _, s := range []int{1, 3} {
		if err := x.Submit(ctx, konvoy.Event{Key: "a", Step: s}); err != nil {
			t.Fatal(err)
		}
	}
	// Past step 3's timeout, 2 rounds from when it was held, before its
	// Submit returned: timed from before the Submits, a slow Submit made
	// the sleep end too soon (a flake under load).
	time.Sleep(2*round + round)
	if err := x.Submit(ctx, konvoy.Event{Key: "a", Step: 2}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []int{1, 3, 2} {
		if s, _ := rec.next(t); s != want {
			t.Fatalf("ran step %d; want %d", s, want)
		}
	}
	if err := mustClose(t, x); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if st := x.Stats(); st.Forced != 1 || st.GapsSkipped != 1 || st.BackwardWrites != 1 {
		t.Fatalf("stats %+v; want 1 forced, 1 gap skipped, 1 backward write", st)
	}
}

// An item the resequencer discards, a duplicate or a rejected old step,
// has finished for WithOffsets, as a handled one has: once the executor
// is drained every offset is committable.
func TestDiscardedItemsFinishTheirOffsets(t *testing.T) {
	type item struct {
		e      konvoy.Event
		offset int64
	}
	x, err := New(konvoy.Resequencer, 2, func(it item) konvoy.Event { return it.e },
		func(context.Context, item) error { return nil },
		WithResequencer(konvoy.ResequencerConfig{Start: konvoy.StartFirstSeen, RejectOld: true}, 0),
		WithOffsets(func(it item) (int, int64) { return 0, it.offset }))
	if err != nil {
		t.Fatal(err)
	}
	for o, s := range []int{5, 2, 5, 6} { // 2 is old, rejected; the second 5 a duplicate
		if err := x.Submit(context.Background(), item{konvoy.Event{Key: "a", Step: s}, int64(o)}); err != nil {
			t.Fatal(err)
		}
	}
	if err := mustClose(t, x); err != nil {
		t.Fatalf("Close: %v", err)
	}
	st := x.Stats()
	if c := x.Completion(); len(c) != 1 || c[0].Committable != 4 || len(c[0].Finished) != 0 || st.RejectedOld != 1 || st.Duplicates != 1 || st.Done != 2 {
		t.Fatalf("completion %+v, stats %+v; want offset 4 committable, 1 rejected, 1 duplicate", c, st)
	}
}

// An item held under a Timeout is released by an expiry after its
// deadline, not at it: the model releases the events whose timeout comes
// before the event it meets, so an item submitted at the deadline itself
// is placed first and may fill the gap.
func TestHeldItemIsDueOnlyAfterItsDeadline(t *testing.T) {
	rec := newReseqRecorder()
	x, err := New(konvoy.Resequencer, 1, ev, rec.handle, WithResequencer(konvoy.ResequencerConfig{Timeout: 1000}, time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	x.subMu.Lock()
	x.rq.off = true // the timer is never set: only expire releases
	x.subMu.Unlock()
	ctx := context.Background()
	if err := x.Submit(ctx, konvoy.Event{Key: "a", Step: 2}); err != nil {
		t.Fatal(err)
	}
	x.subMu.Lock()
	r, ok := x.firstHeld()
	if !ok {
		x.subMu.Unlock()
		t.Fatal("step 2 is not held")
	}
	x.expire(r.deadline)
	_, still := x.firstHeld()
	x.expire(r.deadline + 1)
	_, after := x.firstHeld()
	x.subMu.Unlock()
	if !still || after {
		t.Fatalf("held at its deadline: %v, after it: %v; want true, false", still, after)
	}
	if s, _ := rec.next(t); s != 2 {
		t.Fatalf("ran step %d; want 2, released after its deadline", s)
	}
	if err := mustClose(t, x); err != nil {
		t.Fatalf("Close: %v", err)
	}
}
