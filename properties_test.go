package konvoy_test

import (
	"cmp"
	"fmt"
	"slices"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"
	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/synth"
	"pgregory.net/rapid"
)

// shape says what kind of event set a generator draws.
type shape struct {
	ordered     bool // every key's nonzero steps arrive in nondecreasing order
	linePerKey  bool // every key belongs to exactly one line
	arrivals    bool // events arrive over time, not all at round 0
	maxKeys     int  // 12 when 0
	maxEvents   int
	maxDuration int
}

var anyShape = shape{maxEvents: 80, maxDuration: 6}

// eventsOf draws an event set with up to 12 keys and 4 lines, interleaved in
// any order, with durations including 0 and steps including 0 (history only).
func eventsOf(sh shape) *rapid.Generator[[]konvoy.Event] {
	return rapid.Custom(func(t *rapid.T) []konvoy.Event {
		nKeys := rapid.IntRange(1, cmp.Or(sh.maxKeys, 12)).Draw(t, "keys")
		nLines := rapid.IntRange(1, 4).Draw(t, "lines")
		keyLine := make([]int, nKeys)
		for k := range keyLine {
			keyLine[k] = rapid.IntRange(0, nLines-1).Draw(t, "keyLine")
		}
		last := make([]int, nKeys)
		arrival := 0
		n := rapid.IntRange(0, sh.maxEvents).Draw(t, "events")
		events := make([]konvoy.Event, n)
		for i := range events {
			k := rapid.IntRange(0, nKeys-1).Draw(t, "key")
			line := keyLine[k]
			if !sh.linePerKey {
				line = rapid.IntRange(0, nLines-1).Draw(t, "line")
			}
			step := rapid.IntRange(0, 5).Draw(t, "step")
			if sh.ordered && step != 0 {
				step = last[k] + rapid.IntRange(0, 2).Draw(t, "advance")
				last[k] = step
			}
			if sh.arrivals {
				arrival += rapid.IntRange(0, 3).Draw(t, "gap")
			}
			events[i] = konvoy.Event{
				Key:      fmt.Sprintf("K%d", k),
				Line:     fmt.Sprintf("L%d", line),
				Step:     step,
				Duration: rapid.IntRange(0, sh.maxDuration).Draw(t, "duration"),
				Arrival:  arrival,
			}
		}
		return events
	})
}

var (
	consumersGen = rapid.IntRange(1, 64)
	allLayouts   = konvoy.AllLayouts(3)
	layoutGen    = rapid.SampledFrom(allLayouts)
	// orderedLayouts serialise every ordered event of a key in one lane.
	orderedLayouts = []konvoy.Layout{konvoy.Convoy, konvoy.LineConvoy, konvoy.SelectiveConvoy, konvoy.Partitioned(3)}
)

func simulate(t *rapid.T, events []konvoy.Event, l konvoy.Layout, c int) konvoy.Result {
	r, err := konvoy.Simulate(events, l, c)
	if err != nil {
		t.Fatalf("Simulate(%s, %d): %v", l, c, err)
	}
	return r
}

func stats(events []konvoy.Event) (work, longest int, keys, lines map[string]bool) {
	keys, lines = map[string]bool{}, map[string]bool{}
	for _, e := range events {
		work += e.Duration
		longest = max(longest, e.Duration)
		keys[e.Key], lines[e.Line] = true, true
	}
	return work, longest, keys, lines
}

// A convoy applies a key's events in the order they were dispatched: its
// lane runs them one after another, so each finishes no earlier than the one
// before, and ties go to the lower input index. Events that arrive in step
// order are therefore applied in step order and never write backward, and
// the last one applied carries the highest step. A line lane or a partition
// serialises a superset of the key's events, so the same holds for them
// when a key has one line; the selective convoy serialises the ordered ones,
// and history-only events never change state.
func TestConvoyNeverWritesBackward(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		events := eventsOf(shape{ordered: true, linePerKey: true, maxEvents: 80, maxDuration: 6}).Draw(t, "events")
		c := consumersGen.Draw(t, "consumers")
		for _, l := range orderedLayouts {
			r := simulate(t, events, l, c)
			if r.BackwardWrites != 0 || r.WrongFinal != 0 {
				t.Fatalf("%s with %d consumers: %d backward writes, %d wrong final states %v; want 0 and 0",
					l, c, r.BackwardWrites, r.WrongFinal, r.WrongKeys)
			}
		}
	})
}

// No layout can finish before its heaviest lane's events have run back to
// back, nor before c consumers have shared the work, nor before the longest
// event is done; and since every event starts no later than the work
// dispatched before it, the last one finishes by the total work.
func TestLaneLoadBoundsRounds(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		events := eventsOf(anyShape).Draw(t, "events")
		c := consumersGen.Draw(t, "consumers")
		work, longest, _, _ := stats(events)
		for _, l := range allLayouts {
			r := simulate(t, events, l, c)
			if r.Rounds < r.HeaviestLane {
				t.Fatalf("%s: Rounds %d < HeaviestLane %d", l, r.Rounds, r.HeaviestLane)
			}
			if lower := (work + c - 1) / c; r.Rounds < lower {
				t.Fatalf("%s: Rounds %d < ⌈Work/consumers⌉ = %d", l, r.Rounds, lower)
			}
			if r.Rounds < longest {
				t.Fatalf("%s: Rounds %d < longest duration %d", l, r.Rounds, longest)
			}
			if r.Rounds > r.Work {
				t.Fatalf("%s: Rounds %d > Work %d", l, r.Rounds, r.Work)
			}
		}
	})
}

// Free dispatch is Graham's list scheduling: no consumer is idle before the
// last event starts, so the last event starts by (Work − its duration)/c and
// c·Rounds ≤ Work + (c−1)·longest duration.
func TestFreeObeysGrahamsBound(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		events := eventsOf(anyShape).Draw(t, "events")
		c := consumersGen.Draw(t, "consumers")
		work, longest, _, _ := stats(events)
		for _, l := range []konvoy.Layout{konvoy.Free, konvoy.VersionStamp, konvoy.Resequencer} {
			r := simulate(t, events, l, c)
			if c*r.Rounds > work+(c-1)*longest {
				t.Fatalf("%s: %d·%d = %d > Work %d + %d·longest %d", l, c, r.Rounds, c*r.Rounds, work, c-1, longest)
			}
		}
	})
}

// With one consumer every event waits for the one before it and nothing
// else: the lane is never busier than the consumer, so the run is the events
// back to back.
func TestOneConsumerRunsBackToBack(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		events := eventsOf(anyShape).Draw(t, "events")
		for _, l := range allLayouts {
			if r := simulate(t, events, l, 1); r.Rounds != r.Work {
				t.Fatalf("%s with 1 consumer: Rounds %d, Work %d; want equal", l, r.Rounds, r.Work)
			}
		}
	})
}

// The version stamp dispatches exactly as Free does and only changes the
// handler: it rejects every backward write, so each key's state only rises
// and ends at its highest step, and every backward write is a skipped event.
func TestVersionStampSkipsEveryBackwardWrite(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		events := eventsOf(anyShape).Draw(t, "events")
		c := consumersGen.Draw(t, "consumers")
		r := simulate(t, events, konvoy.VersionStamp, c)
		free := simulate(t, events, konvoy.Free, c)
		if r.WrongFinal != 0 || r.Skipped != r.BackwardWrites || r.Rounds != free.Rounds {
			t.Fatalf("version stamp: WrongFinal %d (want 0), Skipped %d (want BackwardWrites %d), Rounds %d (want Free's %d)",
				r.WrongFinal, r.Skipped, r.BackwardWrites, r.Rounds, free.Rounds)
		}
	})
}

// A convoy opens one lane per key and a line convoy one per line. When each
// key lies in one line, every line lane carries whole key lanes, so the
// heaviest line is at least as heavy as the heaviest key.
func TestLanesFollowTheKey(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		events := eventsOf(shape{linePerKey: true, maxEvents: 80, maxDuration: 6}).Draw(t, "events")
		c := consumersGen.Draw(t, "consumers")
		_, _, keys, lines := stats(events)
		convoy := simulate(t, events, konvoy.Convoy, c)
		line := simulate(t, events, konvoy.LineConvoy, c)
		if convoy.Lanes != len(keys) || line.Lanes != len(lines) {
			t.Fatalf("Lanes: convoy %d (want %d keys), line convoy %d (want %d lines)", convoy.Lanes, len(keys), line.Lanes, len(lines))
		}
		if line.HeaviestLane < convoy.HeaviestLane {
			t.Fatalf("HeaviestLane: line convoy %d < convoy %d", line.HeaviestLane, convoy.HeaviestLane)
		}
	})
}

// The model has no randomness and no map-order dependence, and Simulate
// works on its own state: the same input gives the same Result and the
// input is left as it was.
func TestSimulateIsDeterministic(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		events := eventsOf(anyShape).Draw(t, "events")
		before := slices.Clone(events)
		l := layoutGen.Draw(t, "layout")
		c := consumersGen.Draw(t, "consumers")
		first, second := simulate(t, events, l, c), simulate(t, events, l, c)
		if d := gocmp.Diff(first, second); d != "" {
			t.Fatalf("two runs differ (-first +second):\n%s", d)
		}
		if d := gocmp.Diff(before, events); d != "" {
			t.Fatalf("Simulate changed its input (-before +after):\n%s", d)
		}
	})
}

// Adding a consumer never makes a run longer under the lesson's dispatch
// rule, whatever the lanes. By induction over the events in input order: if
// every earlier event finishes no later with c+1 consumers than with c, and
// the sorted free times of the c+1 consumers, less the first, lie at or below
// those of the c consumers, then the next event starts no later (the earliest
// free consumer and its lane are both free no later), so it finishes no
// later, and pairing the new finish times with each other keeps the sorted
// free times dominated. Rounds, the latest finish, can only fall.
func TestMoreConsumersNeverRaiseRounds(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		events := eventsOf(anyShape).Draw(t, "events")
		l := layoutGen.Draw(t, "layout")
		c := rapid.IntRange(1, 63).Draw(t, "consumers")
		fewer, more := simulate(t, events, l, c), simulate(t, events, l, c+1)
		if more.Rounds > fewer.Rounds {
			t.Fatalf("%s: %d rounds with %d consumers, %d with %d", l, fewer.Rounds, c, more.Rounds, c+1)
		}
	})
}

// A run with more consumers than events is the run with as many consumers
// as events, under every layout and policy, to the last slot of its
// schedule. Every consumer an event is given to is the lowest-indexed one
// free at its time; while fewer consumers have taken events than there are
// events, one that has taken none, free at round 0, is always there, and
// all such consumers are alike but for their index, so each choice falls
// on the same consumer with n consumers as with more. A static lane's owner,
// its opening order modulo the consumers, is its opening order with either.
// So a consumer count above a run's events costs nothing, and the planner
// need try none.
func TestConsumersBeyondTheEventsChangeNothing(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		events := eventsOf(anyShape).Draw(t, "events")
		n := max(1, len(events))
		more := rapid.OneOf(rapid.IntRange(n+1, n+70), rapid.Just(konvoy.MaxConsumers)).Draw(t, "more consumers")
		p := rapid.SampledFrom(konvoy.Policies()).Draw(t, "policy")
		for _, l := range allLayouts {
			opts := []konvoy.Option{konvoy.WithPolicy(p), konvoy.WithSchedule(n)}
			want, err := konvoy.Simulate(events, l, n, opts...)
			if err != nil {
				t.Fatal(err)
			}
			got, err := konvoy.Simulate(events, l, more, opts...)
			if err != nil {
				t.Fatal(err)
			}
			if d := gocmp.Diff(want, got); d != "" {
				t.Fatalf("%s, %s: %d consumers against %d (-fewer +more):\n%s", l, p, n, more, d)
			}
		}
	})
}

// refLayout is the reference model's view of a layout: its lanes and whether
// its handler is the version stamp.
type refLayout struct {
	layout  konvoy.Layout
	lanes   konvoy.LaneFunc
	handler string
}

func refLayoutsFor(partitions int) []refLayout {
	byKey := func(e konvoy.Event) (string, bool) { return e.Key, true }
	return []refLayout{
		{konvoy.Free, nil, ""},
		{konvoy.Convoy, byKey, ""},
		{konvoy.LineConvoy, func(e konvoy.Event) (string, bool) { return e.Line, true }, ""},
		{konvoy.VersionStamp, nil, "version-stamp"},
		{konvoy.SelectiveConvoy, func(e konvoy.Event) (string, bool) { return e.Key, e.Step > 0 }, ""},
		{konvoy.Partitioned(partitions), func(e konvoy.Event) (string, bool) {
			return fmt.Sprint(konvoy.KafkaPartition(e.Key, partitions)), true
		}, ""},
		{konvoy.Resequencer, nil, "resequencer"},
	}
}

// Simulate streams and keeps heaps where the lesson sorts and scans; the
// reference transliterates the lesson's JavaScript, so the two must agree on
// every measure for every layout, including a custom one whose lanes skip
// some events, whether events all arrive at round 0 or over time.
func TestSimulateMatchesTheLessonsModel(t *testing.T) {
	byStepParity := func(e konvoy.Event) (string, bool) {
		return e.Line + "/" + fmt.Sprint(e.Step%2), e.Step%3 != 0
	}
	rapid.Check(t, func(t *rapid.T) {
		sh := anyShape
		sh.arrivals = rapid.Bool().Draw(t, "arrivals")
		events := eventsOf(sh).Draw(t, "events")
		c := consumersGen.Draw(t, "consumers")
		p := rapid.IntRange(1, 16).Draw(t, "partitions")
		layouts := append(refLayoutsFor(p), refLayout{konvoy.NewLayout("parity", byStepParity), byStepParity, ""})
		for _, l := range layouts {
			want := refSimulate(events, c, l.lanes, l.handler)
			got := simulate(t, events, l.layout, c)
			if d := gocmp.Diff(want, got, withinPrecision); d != "" {
				t.Fatalf("%s with %d consumers (-reference +Simulate):\n%s", l.layout, c, d)
			}
		}
	})
}

// The same comparison on thousands of keys and events, so that the key
// table grows, keys and lanes fill more than one page, and lanes are many.
func TestSimulateMatchesTheLessonsModelOnManyKeys(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		events := eventsOf(shape{maxKeys: 10000, maxEvents: 12000, maxDuration: 9, arrivals: rapid.Bool().Draw(t, "arrivals")}).Draw(t, "events")
		c := consumersGen.Draw(t, "consumers")
		for _, l := range refLayoutsFor(rapid.IntRange(1, 64).Draw(t, "partitions")) {
			if d := gocmp.Diff(refSimulate(events, c, l.lanes, l.handler), simulate(t, events, l.layout, c), withinPrecision); d != "" {
				t.Fatalf("%s with %d consumers (-reference +Simulate):\n%s", l.layout, c, d)
			}
		}
	})
}

// The same comparison on a generated trace of 10,000 events of 5,000 keys,
// more than one page of key and lane state (4096 each), with
// arrivals and durations of 1 to 9 rounds, under every policy (lane-aware,
// whose plain version is quadratic, on the convoy alone): whatever rapid
// draws, this run always crosses pages.
func TestSimulateMatchesTheLessonsModelAcrossPages(t *testing.T) {
	cfg := synth.Default()
	cfg.Events, cfg.Keys, cfg.Lines, cfg.InFlight = 10_000, 10_000, 50, 300
	cfg.StepsPerKey, cfg.OrderedSteps = 2, 1
	cfg.Duration = synth.Uniform(1, 9)
	cfg.Rate = 20
	events := slices.Collect(synth.Events(cfg))
	plain := map[konvoy.Policy]func([]refEvent, int, func(refEvent) *string) []refEvent{
		konvoy.HeadOfLine: refHeadOfLine,
		konvoy.LaneAware:  refLaneAware,
		konvoy.Static:     refStatic,
	}
	for _, p := range konvoy.Policies() {
		for _, l := range refLayoutsFor(64) {
			if p == konvoy.LaneAware && l.layout.String() != "convoy" {
				continue
			}
			got, err := konvoy.Simulate(events, l.layout, 64, konvoy.WithPolicy(p))
			if err != nil {
				t.Fatal(err)
			}
			if got.Keys <= 4096 {
				t.Fatalf("the trace has %d keys; want more than one page", got.Keys)
			}
			if d := gocmp.Diff(refSimulateWith(events, 64, l.lanes, l.handler, plain[p]), got, withinPrecision); d != "" {
				t.Fatalf("%s, %s (-reference +Simulate):\n%s", l.layout, p, d)
			}
		}
	}
}
