package konvoy_test

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/sirali-konvoy/konvoy"
)

// A sweep plans for the bytes of its keys' and lines' names, which it
// keeps once each: names of up to kilobytes (a trace's reader takes up to
// 4 KiB) would otherwise outgrow the memory it was given, some 90 bytes a
// key, unseen, and end in a fatal out-of-memory error where it should
// fail with ErrMemory (found by a review, with 700,000 keys of 4 KiB
// against the default GiB). Here 4,096 keys fit in 8 MiB with short names
// and not with names of 4 KiB, whether as keys or as lines.
func TestASweepPlansForItsNames(t *testing.T) {
	const keys, budget = 4096, 8 << 20
	long := strings.Repeat("x", 4090)
	events := func(key, line string) []konvoy.Event {
		es := make([]konvoy.Event, keys)
		for i := range es {
			es[i] = konvoy.Event{Key: fmt.Sprintf("%s%06d", key, i), Line: fmt.Sprintf("%s%06d", line, i), Step: 1, Duration: 1}
		}
		return es
	}
	for _, tc := range []struct {
		name      string
		key, line string
		layout    konvoy.Layout
		fits      bool
	}{
		{"short names", "k", "l", konvoy.LineConvoy, true},
		{"long keys", long, "l", konvoy.Convoy, false},
		{"long lines", "k", long, konvoy.LineConvoy, false},
	} {
		_, err := konvoy.Sweep(context.Background(), konvoy.Values(events(tc.key, tc.line)),
			[]konvoy.Config{{Layout: tc.layout, Consumers: 1}}, konvoy.WithMaxMemory(budget))
		if tc.fits && err != nil || !tc.fits && !errors.Is(err, konvoy.ErrMemory) {
			t.Errorf("%s: %v; want fits %v", tc.name, err, tc.fits)
		}
	}
}

// A sweep's results name the keys each run leaves in a wrong final state,
// 16 bytes a key and run: with many of both, more than the memory the
// sweep was given, which it planned for its runs alone, and a fatal
// out-of-memory error (found by a review: 3,000,000 keys, each written
// backward, over 100 runs). The sweep now counts them, and fails with
// ErrMemory naming the run whose result does not fit; with room, the
// results are whole.
func TestASweepPlansForItsResultsNames(t *testing.T) {
	const keys = 20_000
	events, configs := backwardKeys(keys), freeRuns(40)
	rs, err := konvoy.Sweep(context.Background(), konvoy.Values(events), configs)
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range rs {
		if r.WrongFinal != keys || len(r.WrongKeys) != keys {
			t.Fatalf("run %d: %d wrong, %d named; want every key, %d", i, r.WrongFinal, len(r.WrongKeys), keys)
		}
	}
	// 10 runs and their results fit in 7 MiB.
	few, err := konvoy.Sweep(context.Background(), konvoy.Values(events), configs[:10], konvoy.WithMaxMemory(7<<20))
	if err != nil || !reflect.DeepEqual(few, rs[:10]) {
		t.Errorf("Sweep of 10 runs in 7 MiB: %v; want the results of a sweep with room", err)
	}
	// 40 runs name 20,000 keys each: 12.8 MB on 64 bits (6.4 on 32),
	// past 6 MiB beside the runs.
	_, err = konvoy.Sweep(context.Background(), konvoy.Values(events), configs, konvoy.WithMaxMemory(6<<20))
	if !errors.Is(err, konvoy.ErrMemory) || !strings.Contains(err.Error(), ": its result names 20000 keys left in a wrong final state, some "+strconv.Itoa(20000*2*strconv.IntSize/8)+" bytes, which with") {
		t.Errorf("Sweep in 6 MiB: %v; want ErrMemory for the results' names", err)
	}
}

// A run alone that does not fit counts the results made before it: after
// the results of 10 free runs, a convoy run, whose lane table they leave
// no room for, fails alone in a later pass, at an event.
func TestARunAloneCountsTheResultsMade(t *testing.T) {
	mem := 7 << 20
	if strconv.IntSize == 32 { // names take half as much
		mem = 5 << 20
	}
	configs := append(freeRuns(10), konvoy.Config{Layout: konvoy.Convoy, Consumers: 1})
	_, err := konvoy.Sweep(context.Background(), konvoy.Values(backwardKeys(20_000)), configs, konvoy.WithMaxMemory(mem))
	var ee *konvoy.EventError
	if !errors.As(err, &ee) || !errors.Is(err, konvoy.ErrMemory) || !strings.Contains(err.Error(), "the run of convoy") ||
		!strings.Contains(err.Error(), "and the results (") {
		t.Errorf("Sweep of 10 runs and a convoy in %d bytes: %v; want ErrMemory at an event, counting the results made", mem, err)
	}
}

// backwardKeys returns n keys' events, step 2 then step 1, which free runs
// on two consumers or more leave in a wrong final state: each key's step
// 1 finishes last.
func backwardKeys(n int) []konvoy.Event {
	var events []konvoy.Event
	for i := range n {
		k := fmt.Sprintf("k%d", i)
		events = append(events, konvoy.Event{Key: k, Step: 2, Duration: 1}, konvoy.Event{Key: k, Step: 1, Duration: 1})
	}
	return events
}

// freeRuns returns n free runs, on 2 consumers, 3, and so on.
func freeRuns(n int) []konvoy.Config {
	configs := make([]konvoy.Config, n)
	for i := range configs {
		configs[i] = konvoy.Config{Layout: konvoy.Free, Consumers: 2 + i}
	}
	return configs
}

// A run alone that outgrows the memory fails at the event where its own
// keys, names and backlog do, not at the first event a later pass plans
// at, by the sizes an earlier pass met: here the first pass stops convoy
// for a later one, then free fails alone at the key whose name passes the
// memory; the later pass, read up to that event, ran convoy alone from
// the sizes the first met, and failed it at its first batch, which the
// sweep then reported as the first event that fails (found with names:
// "event 255" of a trace whose 190,976th key passed the memory).
func TestARunAloneFailsWhereItsOwnSizesDo(t *testing.T) {
	long := strings.Repeat("x", 4090)
	events := make([]konvoy.Event, 8000)
	for i := range events {
		events[i] = konvoy.Event{Key: fmt.Sprintf("%s%06d", long, i), Step: 1, Duration: 1}
	}
	_, err := konvoy.Sweep(context.Background(), konvoy.Values(events),
		[]konvoy.Config{{Layout: konvoy.Free, Consumers: 1}, {Layout: konvoy.Convoy, Consumers: 1}}, konvoy.WithMaxMemory(16<<20))
	var ee *konvoy.EventError
	if !errors.As(err, &ee) || !errors.Is(err, konvoy.ErrMemory) || ee.Index < 2000 || strings.Contains(err.Error(), "results") {
		t.Fatalf("Sweep: %v; want ErrMemory at an event past 2,000, where 16 MiB hold the names, and no results made", err)
	}
}

// Whatever the memory, a sweep whose results name many keys gives the
// results of a sweep with room, or fails with ErrMemory: runs that give
// way at their end, for their results, change only the passes. Free runs
// name every key; convoy runs under lane-aware name none but take the
// most state, so that, between about 6 and 10 MiB, a pass that fits its
// runs has no room for their results, and some runs give way.
func TestResultsThatGiveWayChangeOnlyThePasses(t *testing.T) {
	events, configs := backwardKeys(20_000), freeRuns(2)
	for c := 1; c <= 6; c++ {
		configs = append(configs, konvoy.Config{Layout: konvoy.Convoy, Consumers: c, Options: []konvoy.Option{konvoy.WithPolicy(konvoy.LaneAware)}})
	}
	want, err := konvoy.Sweep(context.Background(), konvoy.Values(events), configs)
	if err != nil {
		t.Fatal(err)
	}
	whole := 0
	for mem := 6 << 20; mem <= 10<<20; mem += 256 << 10 {
		got, err := konvoy.Sweep(context.Background(), konvoy.Values(events), configs, konvoy.WithMaxMemory(mem))
		switch {
		case err == nil && !reflect.DeepEqual(got, want):
			t.Errorf("in %d bytes: results differ from those of a sweep with room", mem)
		case err == nil:
			whole++
		case !errors.Is(err, konvoy.ErrMemory):
			t.Errorf("in %d bytes: %v; want the results, or ErrMemory", mem, err)
		}
	}
	if whole == 0 {
		t.Error("no memory between 6 and 10 MiB gave the results")
	}
}

// A run's result is planned for by the keys it leaves in a wrong final
// state once it has ended, not while events are still to be applied: the
// least memory a run needs grows by 16 bytes (8 on 32-bit platforms) for
// each key it leaves wrong, and by nothing for keys it leaves right.
// Counted before the run's end, with every event still in flight on its
// 40,000 consumers, every key of either trace looked wrong (found by a
// review of this change).
func TestResultsAreCountedAtTheRunsEnd(t *testing.T) {
	const keys = 20_000
	var inOrder []konvoy.Event
	for i := range keys {
		k := fmt.Sprintf("k%d", i)
		inOrder = append(inOrder, konvoy.Event{Key: k, Step: 1, Duration: 1}, konvoy.Event{Key: k, Step: 2, Duration: 2})
	}
	configs := []konvoy.Config{{Layout: konvoy.Free, Consumers: 2 * keys}}
	least := func(events []konvoy.Event) int { // to 1 KiB
		lo, hi := 1<<20, 64<<20 // fails, fits
		for hi-lo > 1<<10 {
			mid := (lo + hi) / 2
			if _, err := konvoy.Sweep(context.Background(), konvoy.Values(events), configs, konvoy.WithMaxMemory(mid)); err == nil {
				hi = mid
			} else if errors.Is(err, konvoy.ErrMemory) {
				lo = mid
			} else {
				t.Fatal(err)
			}
		}
		return hi
	}
	right, wrong := least(inOrder), least(backwardKeys(keys))
	if want := keys * 2 * strconv.IntSize / 8; wrong-right < want-2<<10 || wrong-right > want+2<<10 {
		t.Errorf("a run that leaves every key wrong needs %d bytes more than one that leaves none; want %d, its result's names", wrong-right, want)
	}
}
