package live

// The specification of the executor: rapid properties over random items,
// handler times, errors, panics, retries and cancellations, under every
// policy and the layouts with lanes. Each property is one function; they
// share the harness below, which runs one drawn scenario and records what
// the handlers saw. No assertion depends on timing: handlers yield rather
// than sleep, and every wait has a deadline that only a hung executor
// reaches.

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sirali-konvoy/konvoy"
	"pgregory.net/rapid"
)

// job is one item of a scenario.
type job struct {
	seq    int
	ev     konvoy.Event
	yields int  // runtime.Gosched calls the handler makes: its "duration"
	fails  int  // attempts that fail before one succeeds
	panics bool // a failing attempt panics rather than return an error
	hang   bool // the handler waits for its context to end
	// submitter is the goroutine that submits the item (see
	// drawSubmitters): each submits its items in seq order.
	submitter int
}

// scenario is one drawn run.
type scenario struct {
	layout    konvoy.Layout
	policy    konvoy.Policy
	consumers int
	maxHeld   int
	attempts  int
	dead      bool // a dead letter takes failed items
	cancelAt  int  // Close's context ends after this many items are handled; -1: never
	jobs      []job
	// submitters is how many goroutines submit the jobs at once (0 or 1:
	// the scenario's own, one after another).
	submitters int
}

var specLayouts = []konvoy.Layout{
	konvoy.Free, konvoy.Convoy, konvoy.LineConvoy, konvoy.SelectiveConvoy,
	konvoy.Partitioned(3), konvoy.Recorded(3),
	konvoy.NewLayout("first-letter", func(e konvoy.Event) (string, bool) { return e.Key[:1], e.Step != 2 }),
	konvoy.VersionStamp, konvoy.Resequencer,
}

// laneOf returns the lane an item of event e runs in under layout l: the
// layout's, and under the resequencer, which runs a key's steps in step
// order rather than submission order, the key's (reseq true).
func laneOf(l konvoy.Layout, e konvoy.Event) (lane string, ok, reseq bool) {
	if l.Equal(konvoy.Resequencer) {
		lane, ok = reseqLane(e)
		return lane, ok, true
	}
	lane, ok, _ = l.Lane(e)
	return lane, ok, false
}

// drawScenario draws a scenario: failures only when failures is true, a
// cancelled Close only when cancels is true.
func drawScenario(t *rapid.T, failures, cancels bool) scenario {
	sc := scenario{
		layout:    rapid.SampledFrom(specLayouts).Draw(t, "layout"),
		policy:    rapid.SampledFrom(konvoy.Policies()).Draw(t, "policy"),
		consumers: rapid.IntRange(1, 5).Draw(t, "consumers"),
		maxHeld:   rapid.IntRange(1, 12).Draw(t, "maxHeld"),
		attempts:  rapid.IntRange(1, 3).Draw(t, "attempts"),
		cancelAt:  -1,
	}
	if failures {
		sc.dead = rapid.Bool().Draw(t, "dead")
	}
	n := rapid.IntRange(0, 40).Draw(t, "items")
	if sc.layout.Equal(konvoy.Resequencer) {
		sc.maxHeld = n + 1 // items held for gaps that never fill would block Submit
	}
	if cancels {
		sc.cancelAt = rapid.IntRange(0, n).Draw(t, "cancelAt")
	}
	for i := range n {
		j := job{seq: i, ev: konvoy.Event{
			Key:       rapid.SampledFrom([]string{"", "a1", "a2", "b1", "b2", "c1"}).Draw(t, "key"),
			Line:      rapid.SampledFrom([]string{"L0", "L1"}).Draw(t, "line"),
			Step:      rapid.IntRange(0, 3).Draw(t, "step"),
			Partition: rapid.IntRange(0, 2).Draw(t, "partition"),
		}, yields: rapid.IntRange(0, 20).Draw(t, "yields")}
		if j.ev.Key == "" && sc.layout.String() == "first-letter" {
			j.ev.Key = "z"
		}
		if failures {
			j.fails = rapid.SampledFrom([]int{0, 0, 0, 1, 2, 5}).Draw(t, "fails")
			j.panics = rapid.Bool().Draw(t, "panics")
		}
		if cancels {
			j.hang = rapid.IntRange(0, 9).Draw(t, "hang") == 0
		}
		sc.jobs = append(sc.jobs, j)
	}
	return sc
}

// drawSubmitters deals sc's jobs to 1 to 4 goroutines that submit them at
// once, each its own in seq order.
func drawSubmitters(t *rapid.T, sc *scenario) {
	sc.submitters = rapid.IntRange(1, 4).Draw(t, "submitters")
	for i := range sc.jobs {
		sc.jobs[i].submitter = rapid.IntRange(0, sc.submitters-1).Draw(t, "submitter")
	}
}

// laneOfSubmitter names a lane as one submitter's items see it.
type laneOfSubmitter struct {
	lane      string
	submitter int
}

// trace is what a scenario's handlers and dead letter saw.
type trace struct {
	mu          sync.Mutex
	running     int
	maxRunning  int
	laneRunning map[string]int
	laneLast    map[string]int          // the last item started in the lane
	laneLastOf  map[laneOfSubmitter]int // the last item of a submitter started in the lane
	failedLane  map[string]bool
	attempts    map[int]int
	handled     map[int]int
	dead        map[int]int
	refused     map[int]error // Submit's errors
	faults      []string      // what broke a rule, as the handler saw it
	closeErr    error
	stats       Stats
	goroutines  [2]int // before New, after Close
	versions    refusalCount
	staleRan    int // items handled and then found stale by the version stamp
}

// refusalCount is the scenarios' VersionStore under the version stamp: a
// MemoryVersions, a VersionReader too, that counts the items Advance
// refused, stale once handled, which the trace counts among the handled
// ones and the executor among the skipped.
type refusalCount struct {
	MemoryVersions
	refused atomic.Int64
}

func (r *refusalCount) Advance(ctx context.Context, key string, step int) (bool, error) {
	ok, err := r.MemoryVersions.Advance(ctx, key, step)
	if !ok {
		r.refused.Add(1)
	}
	return ok, err
}

func (tr *trace) fault(format string, args ...any) {
	tr.faults = append(tr.faults, fmt.Sprintf(format, args...))
}

// deadline bounds every wait in the specification: only an executor that
// hangs reaches it.
const deadline = 20 * time.Second

// runScenario runs sc and returns its trace.
func runScenario(t *rapid.T, sc scenario) *trace {
	tr := &trace{laneRunning: map[string]int{}, laneLast: map[string]int{}, laneLastOf: map[laneOfSubmitter]int{}, failedLane: map[string]bool{},
		attempts: map[int]int{}, handled: map[int]int{}, dead: map[int]int{}, refused: map[int]error{}}
	closeCtx, cancelClose := context.WithTimeout(context.Background(), deadline)
	defer cancelClose()
	submitCtx, cancelSubmit := context.WithTimeout(context.Background(), deadline)
	defer cancelSubmit()
	if sc.cancelAt == 0 {
		cancelClose()
	}
	handle := func(ctx context.Context, j job) error {
		lane, hasLane, reseq := laneOf(sc.layout, j.ev)
		tr.mu.Lock()
		tr.attempts[j.seq]++
		attempt := tr.attempts[j.seq]
		tr.running++
		tr.maxRunning = max(tr.maxRunning, tr.running)
		if hasLane {
			tr.laneRunning[lane]++
			if tr.laneRunning[lane] > 1 {
				tr.fault("item %d started while lane %q ran another", j.seq, lane)
			}
			own := laneOfSubmitter{lane, j.submitter}
			if last, ok := tr.laneLastOf[own]; ok && !reseq && (last > j.seq || last == j.seq && attempt == 1) {
				tr.fault("item %d started in lane %q after item %d of its submitter", j.seq, lane, last)
			}
			if tr.failedLane[lane] {
				tr.fault("item %d started in lane %q after an item of it failed", j.seq, lane)
			}
			tr.laneLast[lane], tr.laneLastOf[own] = j.seq, j.seq
		}
		tr.mu.Unlock()
		for range j.yields {
			runtime.Gosched()
		}
		var hangErr error
		if j.hang {
			cancelClose()  // else nothing ends the handler's context,
			cancelSubmit() // nor a Submit waiting for room
			select {
			case <-ctx.Done():
				hangErr = ctx.Err()
			case <-time.After(deadline):
				hangErr = errors.New("the context never ended")
			}
		}
		tr.mu.Lock()
		defer tr.mu.Unlock()
		tr.running--
		if hasLane {
			tr.laneRunning[lane]--
		}
		if hangErr != nil {
			return hangErr
		}
		if attempt <= j.fails {
			if attempt == sc.attempts && !sc.dead && hasLane {
				tr.failedLane[lane] = true
			}
			if j.panics {
				panic(fmt.Sprintf("item %d attempt %d", j.seq, attempt))
			}
			return fmt.Errorf("item %d attempt %d", j.seq, attempt)
		}
		tr.handled[j.seq]++
		if len(tr.handled) == sc.cancelAt {
			cancelClose()
		}
		return nil
	}
	opts := []Option{WithPolicy(sc.policy), WithMaxHeld(sc.maxHeld), WithVersions(&tr.versions),
		WithRetry(Retry{Attempts: sc.attempts, Base: time.Microsecond, Cap: 4 * time.Microsecond, Jitter: 0.5})}
	if sc.dead {
		opts = append(opts, WithDeadLetter(func(ctx context.Context, j job, err error) error {
			tr.mu.Lock()
			defer tr.mu.Unlock()
			var ie *ItemError
			if !errors.As(err, &ie) || !failureOf(ie, j, sc) || ie.Attempts != sc.attempts {
				tr.fault("dead letter of item %d got %v", j.seq, err)
			}
			if lane, ok, _ := laneOf(sc.layout, j.ev); ok && tr.laneLast[lane] != j.seq {
				tr.fault("dead letter of item %d in lane %q after item %d started", j.seq, lane, tr.laneLast[lane])
			}
			tr.dead[j.seq]++
			return nil
		}))
	}
	tr.goroutines[0] = runtime.NumGoroutine()
	x, err := New(sc.layout, sc.consumers, func(j job) konvoy.Event { return j.ev }, handle, opts...)
	if err != nil {
		t.Fatal(err)
	}
	var submitting sync.WaitGroup
	for s := range max(sc.submitters, 1) {
		submitting.Go(func() {
			for _, j := range sc.jobs {
				if j.submitter != s {
					continue
				}
				if err := x.Submit(submitCtx, j); err != nil {
					tr.mu.Lock()
					tr.refused[j.seq] = err
					tr.mu.Unlock()
				}
			}
		})
	}
	submitting.Wait()
	tr.closeErr = x.Close(closeCtx)
	tr.mu.Lock()
	if tr.running > 0 {
		tr.fault("%d handlers still ran when Close returned", tr.running)
	}
	tr.mu.Unlock()
	tr.stats = x.Stats()
	tr.staleRan = int(tr.versions.refused.Load())
	tr.goroutines[1] = settledGoroutines(tr.goroutines[0])
	return tr
}

// settledGoroutines returns the goroutines running once they are no more
// than want, or after a deadline: a goroutine that has called wg.Done may
// take a moment to end.
func settledGoroutines(want int) int {
	end := time.Now().Add(deadline)
	for {
		n := runtime.NumGoroutine()
		if n <= want || time.Now().After(end) {
			return n
		}
		time.Sleep(time.Millisecond)
	}
}

// failureOf tells whether ie, an item's failure, is j's: of its event
// and, when one goroutine submits the items, of its submission
// number, j's seq (from several, the submission numbers follow the order
// in which the goroutines happen to submit).
func failureOf(ie *ItemError, j job, sc scenario) bool {
	return ie.Event == j.ev && (sc.submitters > 1 || ie.Seq == j.seq)
}

// checkFaults fails t with what the handlers saw go wrong.
func (tr *trace) checkFaults(t *rapid.T) {
	if len(tr.faults) > 0 {
		t.Fatalf("%d faults, the first: %s", len(tr.faults), tr.faults[0])
	}
}

// unrunItems returns the items Close reported not run.
func unrunItems(err error) []job {
	var u *UnrunError[job]
	if errors.As(err, &u) {
		return u.Items
	}
	return nil
}

// Two items of one lane never run at once, and run in submission order:
// an item takes its lane only when the one before it has finished, under
// every policy (lane-aware and head-of-line by the lane's busy flag and
// queue, static by running a lane on one consumer only). Retries of an
// item keep its lane, so no later item of the lane runs between them, and
// after a failure that stops the executor none of the lane runs again.
// Items submitted from several goroutines at once keep each goroutine's
// order in a lane: an item takes its place in its lane under the submit
// lock, so one goroutine's items, submitted one after another, take their
// places in that order, whoever else's come between.
func TestLaneOrderAndExclusion(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		sc := drawScenario(t, true, false)
		drawSubmitters(t, &sc)
		runScenario(t, sc).checkFaults(t)
	})
}

// Never more than consumers handlers run at once: each consumer is one
// goroutine that runs one item at a time.
func TestNeverMoreThanConsumers(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		sc := drawScenario(t, true, true)
		tr := runScenario(t, sc)
		if tr.maxRunning > sc.consumers || tr.stats.MaxInFlight > sc.consumers {
			t.Fatalf("%d handlers ran at once, %d by the executor's count; %d consumers", tr.maxRunning, tr.stats.MaxInFlight, sc.consumers)
		}
	})
}

// Every item submitted is accounted for exactly once, none lost: handled
// (and then, under the version stamp, applied or found stale),
// dead-lettered, the failure that stopped the executor, reported by Close
// as not run, or refused by Submit (after a stop). With a dead letter and
// no cancellation, every item is handled or dead-lettered and Close
// returns nil. So too when several goroutines submit at once.
func TestEveryItemAccountedFor(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		sc := drawScenario(t, true, rapid.Bool().Draw(t, "cancels"))
		drawSubmitters(t, &sc)
		tr := runScenario(t, sc)
		var failures []*ItemError
		for _, e := range joined(tr.closeErr) {
			var ie *ItemError
			if errors.As(e, &ie) && !slices.Contains(failures, ie) { // joined lists a wrapper and what it wraps
				failures = append(failures, ie)
			}
		}
		seen := map[int]string{}
		mark := func(seq int, how string) {
			if prev, ok := seen[seq]; ok {
				t.Fatalf("item %d is both %s and %s", seq, prev, how)
			}
			seen[seq] = how
		}
		for seq, n := range tr.handled {
			if n != 1 {
				t.Fatalf("item %d handled %d times", seq, n)
			}
			mark(seq, "handled")
		}
		for seq, n := range tr.dead {
			if n != 1 {
				t.Fatalf("item %d dead-lettered %d times", seq, n)
			}
			mark(seq, "dead-lettered")
		}
		for _, j := range unrunItems(tr.closeErr) {
			mark(j.seq, "not run")
		}
		for seq, err := range tr.refused {
			if !errors.Is(err, ErrStopped) && !errors.Is(err, context.Canceled) {
				t.Fatalf("Submit refused item %d: %v", seq, err)
			}
			mark(seq, "refused")
		}
		// The items left are the failures that stopped the executor, each
		// an ItemError of its own (see failureOf).
		left := slices.Clone(failures)
		for _, j := range sc.jobs {
			if _, ok := seen[j.seq]; ok {
				continue
			}
			if i := slices.IndexFunc(left, func(ie *ItemError) bool { return failureOf(ie, j, sc) }); i >= 0 {
				left = slices.Delete(left, i, i+1)
				mark(j.seq, "failed")
			}
		}
		if len(left) > 0 {
			t.Fatalf("Close reported the failure %v of no item left", left[0])
		}
		st := tr.stats
		if len(seen)+st.Duplicates+st.Skipped-tr.staleRan != len(sc.jobs) {
			t.Fatalf("%d items accounted for, %d duplicates, %d skipped (%d of them handled), of %d; close error: %v", len(seen), st.Duplicates, st.Skipped, tr.staleRan, len(sc.jobs), tr.closeErr)
		}
		if sc.dead && sc.cancelAt < 0 && tr.closeErr != nil && st.NeverApplied == 0 {
			t.Fatalf("with a dead letter Close returned %v", tr.closeErr)
		}
		if st.Done != len(tr.handled)-tr.staleRan || st.DeadLetters != len(tr.dead) || st.Failed != len(failures) || st.Events != len(sc.jobs)-len(tr.refused) {
			t.Fatalf("Stats %+v; handled %d, dead-lettered %d, failed %d, submitted %d", st, len(tr.handled), len(tr.dead), len(failures), len(sc.jobs)-len(tr.refused))
		}
		// Once Close returned, Stats counts each item submitted once (an
		// item cut short was counted nowhere: found by a review).
		if sum := st.Done + st.DeadLetters + st.Skipped + st.Failed + st.CutShort + st.InFlight + st.Held + st.Duplicates + st.RejectedOld; sum != st.Events {
			t.Fatalf("Stats %+v: its outcomes add up to %d; want Events, %d", st, sum, st.Events)
		}
		if unrun := len(unrunItems(tr.closeErr)); st.CutShort > unrun {
			t.Fatalf("CutShort %d, but Close named %d items not run", st.CutShort, unrun)
		}
	})
}

// joined returns the errors errors.Join joined in err, at any depth, and
// err itself.
func joined(err error) []error {
	if err == nil {
		return nil
	}
	out := []error{err}
	switch e := err.(type) {
	case interface{ Unwrap() []error }:
		for _, inner := range e.Unwrap() {
			out = append(out, joined(inner)...)
		}
	case interface{ Unwrap() error }:
		out = append(out, joined(e.Unwrap())...)
	}
	return out
}

// Close drains: without failures or cancellation it returns once every
// item has been handled, skipped as stale by the version stamp, discarded
// as a duplicate by the resequencer, or is held by the resequencer for a
// gap that never filled, running nothing; it returns nil, or under the
// resequencer ErrNeverApplied with the items held.
func TestCloseDrains(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		sc := drawScenario(t, false, false)
		tr := runScenario(t, sc)
		st := tr.stats
		never := unrunItems(tr.closeErr)
		if len(never) != st.NeverApplied || st.NeverApplied > 0 && !errors.Is(tr.closeErr, ErrNeverApplied) ||
			st.NeverApplied == 0 && tr.closeErr != nil {
			t.Fatalf("Close: %v; %d items held for gaps", tr.closeErr, st.NeverApplied)
		}
		if len(tr.handled)-tr.staleRan+st.Duplicates+st.Skipped+st.NeverApplied != len(sc.jobs) || st.Held != st.NeverApplied || st.InFlight != 0 {
			t.Fatalf("handled %d of %d; stats %+v", len(tr.handled), len(sc.jobs), st)
		}
	})
}

// No goroutine of the executor outlives Close, whether it drained, gave up
// on its context or stopped on a failure: Close waits for its consumers,
// which wait for their handlers.
func TestNoGoroutineOutlivesClose(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		tr := runScenario(t, drawScenario(t, true, true))
		tr.checkFaults(t)
		if tr.goroutines[1] > tr.goroutines[0] {
			t.Fatalf("%d goroutines before New, %d after Close", tr.goroutines[0], tr.goroutines[1])
		}
	})
}

// When Close's context ends first, the handlers running see their
// context cancelled, and Close names every item that did not run to its
// end, in submission order, with the context's error.
func TestCancelledCloseReportsUnrun(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		sc := drawScenario(t, false, true)
		tr := runScenario(t, sc)
		unrun := unrunItems(tr.closeErr)
		st := tr.stats
		if len(tr.handled)-tr.staleRan+len(unrun)+len(tr.refused)+st.Duplicates+st.Skipped != len(sc.jobs) {
			t.Fatalf("handled %d, not run %d, refused %d, of %d; stats %+v; Close: %v", len(tr.handled), len(unrun), len(tr.refused), len(sc.jobs), st, tr.closeErr)
		}
		if len(unrun) > st.NeverApplied && !errors.Is(tr.closeErr, context.Canceled) {
			t.Fatalf("Close: %v; want context.Canceled", tr.closeErr)
		}
		if !slices.IsSortedFunc(unrun, func(a, b job) int { return a.seq - b.seq }) {
			t.Fatalf("not run out of order: %v", unrun)
		}
	})
}
