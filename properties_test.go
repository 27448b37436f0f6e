// The root package's properties: what the model promises for every input,
// each checked on random inputs by pgregory.net/rapid, each in one function
// whose comment says why it holds. This file holds every property of the
// public API, grouped by topic in the order below; the properties of
// unexported structures live beside the code they test, in package konvoy,
// and are listed here with their files. A test at the end of this file,
// TestThePropertiesIndexNamesEveryProperty, keeps the index whole.
//
// Every layout (this file):
//
//	TestConvoyNeverWritesBackward              a key's lane applies its steps in order
//	TestLaneLoadBoundsRounds                   heaviest lane, work/c and longest event bound Rounds
//	TestFreeObeysGrahamsBound                  c·Rounds ≤ Work + (c−1)·longest without lanes
//	TestOneConsumerRunsBackToBack              one consumer: Rounds = Work
//	TestVersionStampSkipsEveryBackwardWrite    the stamp skips exactly the backward writes
//	TestLanesFollowTheKey                      one lane per key, per line
//	TestSimulateIsDeterministic                same input, same Result; input untouched
//	TestMoreConsumersNeverRaiseRounds          a consumer more never costs a round
//	TestConsumersBeyondTheEventsChangeNothing  more consumers than events change nothing
//	TestLaneAndOwnerAreTheSchedules  lane_api_test.go  Layout.Lane and Owner = the schedule's lanes and consumers
//
// Layouts (this file):
//
//	TestSelectiveConvoyWithoutHistoryIsConvoy    no history-only events: the convoy
//	TestPartitionsWithoutCollisionAreAConvoy     no two keys share a partition: the convoy
//	TestCollisionIsNeverNegative                 a partition carries at least its heaviest key
//	TestResequencerNeverWritesBackward           steps applied 1, 2, 3, … only
//	TestResequencerCompletesGaplessKeys          gapless keys end on their highest step
//	TestResequencerWithoutTimeoutOrCapacityIsTheLessons  no timeout, no capacity: the lesson's resequencer
//	TestResequencerTimeoutBoundsTheTimeHeld      timeout T: no event held longer than T, none left
//	TestResequencerCapacityBoundsWhatItHolds     capacity N: MaxBuffered ≤ N
//	TestResequencerOptionsChangeNothingOnGaplessKeys  gapless keys: no knob changes anything
//	TestFirstSeenCompletesKeysThatStartMidLifecycle   first-seen: mid-lifecycle keys end right, none held
//	TestPartitionsForFindsTheFirstCountThatFits  PartitionsFor's count fits, no smaller one does
//
// Policies (this file):
//
//	TestLaneAwareObeysGrahamsBoundWithChains       Graham's bound with the heaviest lane as chain
//	TestStaticNeverBeatsItsHeaviestConsumer        no run beats the busiest static consumer
//	TestOneConsumerRunsBackToBackUnderEveryPolicy  one consumer: Rounds = Work, every policy
//	TestScheduleAccountsForEveryEvent              the schedule adds up to the Result
//	TestPoliciesWithoutLanesRunAlike               no lanes: every policy's Result is head-of-line's
//	TestNoLatencyPassesTheWork                     no wait or response passes the run's work
//
// The planner (this file):
//
//	TestPlanFindsTheSmallestCountThatKeepsUp      the plan's count keeps up, no smaller one does
//	TestPlanCeilingIsTheRunWithAConsumerPerEvent  the ceiling is a consumer per event
//	TestPlanCeilingIsAnArrivalPlusBackToBackWork  plan_test.go  the ceiling is an arrival plus back-to-back work
//	TestMoreConsumersNeverRaiseLatency            head-of-line: a consumer more never delays an event
//	TestPlanLatencyFindsTheSmallestCountThatMeets  the latency plan's count meets it, no smaller one does
//	TestLatencyPlanCarriesTheLoad                  slo_test.go  no latency plan below the offered load
//
// Sweeps (this file):
//
//	TestSweepEqualsRunsOneByOne  a sweep's results = each configuration run alone
//
// Memory (this file):
//
//	TestRunsThatHoldNoBacklogStayWithinTheirConsumers  at most two events held per consumer
//
// The reference model (this file, against reference_test.go):
//
//	TestSimulateMatchesTheLessonsModel             Simulate = the lesson's model, every layout, event by event
//	TestSimulateMatchesTheLessonsModelOnManyKeys   the same on thousands of keys
//	TestSimulateMatchesTheLessonsModelAcrossPages  the same on a fixed trace across pages
//	TestPoliciesMatchTheirPlainVersions            each policy = its plain version, slot by slot
//	TestSweepMatchesThePlainVersions               the same, every layout and policy in one sweep
//	TestLaneAwareLongRunsMatchThePlainVersion      the same on long lane-aware runs
//	TestResequencerMatchesThePlainVersionUnderEveryConfig  the configured resequencer = refResequenced, event by event
//	TestSimulateMatchesTheReferenceAtTheIntegerLimits  the same with times up to the largest int
//
// Unexported structures (package konvoy, in their own files):
//
//	TestKeyTableNumbersKeysInOrderOfFirstAppearance  keytable_test.go
//	TestLatencyPercentilesKeepTheirPrecision         latency_internal_test.go
//	TestPagedKeepsEveryElementAtItsIndex             paged_internal_test.go
//	TestFifoIsAQueueThatLetsGoOfItsPages             paged_internal_test.go
//	TestPartitionLoadsAgreeWithAPlainSum             partition_internal_test.go
//	TestHeaviestFirstSortsTogether                   partition_internal_test.go
//	TestOwnedQueuesGiveBackInApplyOrder              static_internal_test.go
//	TestUnlimitedIsHeadOfLineWithAConsumerPerEvent   unlimited_internal_test.go
//	TestEventsAreAppliedAsSoonAsTheyAreSafe          streaming_internal_test.go
//	TestDueListsSpreadFinishTimes                    streaming_internal_test.go
//	TestLaneAwareForgetsTakenEvents                  streaming_internal_test.go
//
// Every property runs rapid's 100 checks (-rapid.checks=N for more), in
// parallel with the others (t.Parallel): they share nothing. The three
// comparisons with the reference model that take longest draw smaller
// inputs or run fewer layouts unless the long randomised checks are asked
// for: go test . -args -konvoy.long.

package konvoy_test

import (
	"cmp"
	"context"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/sirali-konvoy/konvoy/internal/seqtest"

	gocmp "github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/synth"
	"pgregory.net/rapid"
)

// long asks for the long randomised checks: go test . -args -konvoy.long
// (only the root package has long checks and defines the flag). Without it,
// the three comparisons with the naive reference model, whose time grows
// with the square of the events, draw smaller inputs or run fewer layouts,
// so that go test . takes seconds; every property still runs rapid's 100
// checks (-rapid.checks=N for more).
var long = flag.Bool("konvoy.long", false, "run the long randomised checks")

// sized is full under -konvoy.long and short otherwise.
func sized(short, full int) int {
	if *long {
		return full
	}
	return short
}

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

// init names every generator the tests share before any test runs. rapid
// names a generator lazily, once, and its Draw reads the name unguarded, so
// two parallel tests drawing from one shared generator would race on it.
func init() {
	for _, g := range []fmt.Stringer{consumersGen, layoutGen, planLayoutGen, reseqConfigs, arriving, arrivingLong, edgeEvents} {
		_ = g.String()
	}
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

// Every layout: the bounds and rules of the model.

// A convoy applies a key's events in the order they were dispatched: its
// lane runs them one after another, so each finishes no earlier than the one
// before, and ties go to the lower input index. Events that arrive in step
// order are therefore applied in step order and never write backward, and
// the last one applied carries the highest step. A line lane or a partition
// serialises a superset of the key's events, so the same holds for them
// when a key has one line; the selective convoy serialises the ordered ones,
// and history-only events never change state.
func TestConvoyNeverWritesBackward(t *testing.T) {
	t.Parallel()
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
	t.Parallel()
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
	t.Parallel()
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
	t.Parallel()
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
	t.Parallel()
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
	t.Parallel()
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
	t.Parallel()
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
	t.Parallel()
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
	t.Parallel()
	rapid.Check(t, func(t *rapid.T) {
		events := eventsOf(anyShape).Draw(t, "events")
		n := max(1, len(events))
		more := rapid.OneOf(rapid.IntRange(n+1, n+70), rapid.Just(konvoy.MaxConsumers)).Draw(t, "more consumers")
		p := rapid.SampledFrom(konvoy.Policies()).Draw(t, "policy")
		for _, l := range allLayouts {
			// Kafka's range assignor deals partitions by the group's size,
			// so only first-seen owners are the same beyond the events.
			opts := []konvoy.Option{konvoy.WithPolicy(p), konvoy.WithSchedule(n), konvoy.WithAssignor(konvoy.FirstSeenAssignor)}
			want, err := konvoy.Simulate(events, l, n, opts...)
			if err != nil {
				t.Fatal(err)
			}
			got, err := konvoy.Simulate(events, l, more, opts...)
			if err != nil {
				t.Fatal(err)
			}
			if slices.Equal(want.Schedule, got.Schedule) { // quick; go-cmp walks slots by reflection
				want.Schedule, got.Schedule = nil, nil
			}
			if d := gocmp.Diff(want, got); d != "" {
				t.Fatalf("%s, %s: %d consumers against %d (-fewer +more):\n%s", l, p, n, more, d)
			}
		}
	})
}

// Layouts: what each layout's lanes and handler promise.

// gaplessEvents draws keys whose steps are exactly 1..k, each step once or,
// with duplicates, more than once, interleaved in any order, with
// history-only records among them, arriving all at round 0 or over time.
func gaplessEvents(duplicates bool) *rapid.Generator[[]konvoy.Event] {
	return rapid.Custom(func(t *rapid.T) []konvoy.Event {
		var events []konvoy.Event
		for k := range rapid.IntRange(1, 8).Draw(t, "keys") {
			key := fmt.Sprintf("K%d", k)
			for step := range rapid.IntRange(1, 6).Draw(t, "steps") + 1 {
				copies := 1
				if duplicates {
					copies = rapid.IntRange(1, 3).Draw(t, "copies")
				}
				if step == 0 {
					copies = rapid.IntRange(0, 2).Draw(t, "history")
				}
				for range copies {
					events = append(events, konvoy.Event{Key: key, Line: "L", Step: step, Duration: rapid.IntRange(0, 6).Draw(t, "duration")})
				}
			}
		}
		events = rapid.Permutation(events).Draw(t, "interleaving")
		if rapid.Bool().Draw(t, "arrivals") {
			arrival := 0
			for i := range events {
				arrival += rapid.IntRange(0, 3).Draw(t, "gap")
				events[i].Arrival = arrival
			}
		}
		return events
	})
}

// The selective convoy differs from the convoy only in where history-only
// events run; without any, the two are the same layout.
func TestSelectiveConvoyWithoutHistoryIsConvoy(t *testing.T) {
	t.Parallel()
	rapid.Check(t, func(t *rapid.T) {
		events := eventsOf(anyShape).Draw(t, "events")
		for i := range events {
			events[i].Step = max(events[i].Step, 1)
		}
		c := consumersGen.Draw(t, "consumers")
		convoy := simulate(t, events, konvoy.Convoy, c)
		selective := simulate(t, events, konvoy.SelectiveConvoy, c)
		if d := gocmp.Diff(convoy, selective); d != "" {
			t.Fatalf("(-convoy +selective):\n%s", d)
		}
	})
}

// A key's events all go to one partition, so when no two keys share a
// partition, every partition is one key's lane: the convoy's run, with
// lanes named by partition number instead of key.
func TestPartitionsWithoutCollisionAreAConvoy(t *testing.T) {
	t.Parallel()
	rapid.Check(t, func(t *rapid.T) {
		events := eventsOf(anyShape).Draw(t, "events")
		c := consumersGen.Draw(t, "consumers")
		_, _, keys, _ := stats(events)
		n := rapid.IntRange(max(len(keys), 1), 4096).Filter(func(n int) bool {
			used := map[int]bool{}
			for k := range keys {
				used[konvoy.KafkaPartition(k, n)] = true
			}
			return len(used) == len(keys)
		}).Draw(t, "partitions")
		convoy := simulate(t, events, konvoy.Convoy, c)
		parted := simulate(t, events, konvoy.Partitioned(n), c)
		if d := gocmp.Diff(convoy, parted, cmpopts.IgnoreFields(konvoy.Result{}, "HeaviestLaneName"), cmpopts.IgnoreFields(konvoy.LaneWait{}, "Lane")); d != "" {
			t.Fatalf("partitioned:%d (-convoy +partitioned):\n%s", n, d)
		}
		if parted.Collision() != 0 {
			t.Fatalf("partitioned:%d without collisions: Collision %d", n, parted.Collision())
		}
	})
}

// Whatever the partition count, the heaviest partition carries at least its
// heaviest key, and a key's lane under the convoy is never heavier than the
// partition it hashes to.
func TestCollisionIsNeverNegative(t *testing.T) {
	t.Parallel()
	rapid.Check(t, func(t *rapid.T) {
		events := eventsOf(anyShape).Draw(t, "events")
		c := consumersGen.Draw(t, "consumers")
		n := rapid.IntRange(1, 8).Draw(t, "partitions")
		parted := simulate(t, events, konvoy.Partitioned(n), c)
		convoy := simulate(t, events, konvoy.Convoy, c)
		if parted.Collision() < 0 || parted.HeaviestLane < convoy.HeaviestLane || parted.Lanes > n {
			t.Fatalf("partitioned:%d: %+v; convoy's heaviest lane %d", n, parted, convoy.HeaviestLane)
		}
		if convoy.Collision() != 0 {
			t.Fatalf("convoy: Collision %d; want 0", convoy.Collision())
		}
	})
}

// The resequencer applies a key's steps only in the order 1, 2, 3, …, so no
// step can ever land on a higher one.
func TestResequencerNeverWritesBackward(t *testing.T) {
	t.Parallel()
	rapid.Check(t, func(t *rapid.T) {
		events := arriving.Draw(t, "events")
		r := simulate(t, events, konvoy.Resequencer, consumersGen.Draw(t, "consumers"))
		if r.BackwardWrites != 0 || r.Skipped != 0 {
			t.Fatalf("BackwardWrites %d, Skipped %d; want 0", r.BackwardWrites, r.Skipped)
		}
	})
}

// When every key's steps are 1..k without gaps, each gap the resequencer
// waits for is filled by an event that does come, whatever the interleaving
// and however often a step is delivered, so every key ends on its highest
// step and nothing is left held.
func TestResequencerCompletesGaplessKeys(t *testing.T) {
	t.Parallel()
	rapid.Check(t, func(t *rapid.T) {
		events := gaplessEvents(rapid.Bool().Draw(t, "duplicates")).Draw(t, "events")
		r := simulate(t, events, konvoy.Resequencer, consumersGen.Draw(t, "consumers"))
		if r.WrongFinal != 0 || r.NeverApplied != 0 {
			t.Fatalf("WrongFinal %d %v, NeverApplied %d; want 0", r.WrongFinal, r.WrongKeys, r.NeverApplied)
		}
		distinct := map[[2]any]bool{}
		for _, e := range events {
			if e.Step > 0 {
				distinct[[2]any{e.Key, e.Step}] = true
			}
		}
		nonzero := 0
		for _, e := range events {
			if e.Step > 0 {
				nonzero++
			}
		}
		if r.Duplicates != nonzero-len(distinct) {
			t.Fatalf("Duplicates %d; want %d repeated deliveries", r.Duplicates, nonzero-len(distinct))
		}
		if r.MaxKeyBuffered > r.MaxBuffered || r.MaxBuffered > r.Buffered {
			t.Fatalf("buffer depths out of order: %+v", r)
		}
	})
}

// reseqConfigs draws a resequencer configuration, every knob on or off.
var reseqConfigs = rapid.Custom(func(t *rapid.T) konvoy.ResequencerConfig {
	return konvoy.ResequencerConfig{
		Start:     rapid.SampledFrom([]konvoy.ResequencerStart{konvoy.StartZero, konvoy.StartFirstSeen}).Draw(t, "start"),
		Timeout:   rapid.SampledFrom([]int{0, 0, 1, 3, 10}).Draw(t, "timeout"),
		Capacity:  rapid.SampledFrom([]int{0, 0, 1, 2, 5}).Draw(t, "capacity"),
		RejectOld: rapid.Bool().Draw(t, "rejectOld"),
	}
})

// simulateReseq runs events under the resequencer configured by cfg, with
// its schedule kept.
func simulateReseq(t *rapid.T, events []konvoy.Event, c int, cfg konvoy.ResequencerConfig) konvoy.Result {
	r, err := konvoy.Simulate(events, konvoy.Resequencer, c, konvoy.WithResequencer(cfg), konvoy.WithSchedule(max(1, len(events))))
	if err != nil {
		t.Fatalf("Simulate(resequencer %+v, %d): %v", cfg, c, err)
	}
	return r
}

// Without a timeout or a capacity, keys that start at 1 never skip a gap,
// so every step at or below a key's state was applied: RejectOld has
// nothing to reject, and the resequencer is the lesson's, as the lesson's
// reference (refResequence, through refScheduled) runs it, event by event,
// under every policy, with events arriving at once or over time.
func TestResequencerWithoutTimeoutOrCapacityIsTheLessons(t *testing.T) {
	t.Parallel()
	rapid.Check(t, func(t *rapid.T) {
		events := arriving.Draw(t, "events")
		c := consumersGen.Draw(t, "consumers")
		p := rapid.SampledFrom(konvoy.Policies()).Draw(t, "policy")
		cfg := konvoy.ResequencerConfig{RejectOld: rapid.Bool().Draw(t, "rejectOld")}
		got, err := konvoy.Simulate(events, konvoy.Resequencer, c, konvoy.WithResequencer(cfg), konvoy.WithPolicy(p), konvoy.WithSchedule(max(1, len(events))))
		if err != nil {
			t.Fatal(err)
		}
		if d := refDiff(refScheduled(events, c, nil, "resequencer", plainPolicies[p]), got); d != "" {
			t.Fatalf("%+v, %s (-lesson's +configured):\n%s", cfg, p, d)
		}
	})
}

// A held event whose gap has not filled Timeout rounds after it finished
// is applied then: no event is held longer, and none is left held.
func TestResequencerTimeoutBoundsTheTimeHeld(t *testing.T) {
	t.Parallel()
	rapid.Check(t, func(t *rapid.T) {
		events := arriving.Draw(t, "events")
		cfg := reseqConfigs.Draw(t, "config")
		cfg.Timeout = rapid.IntRange(1, 12).Draw(t, "T")
		r := simulateReseq(t, events, consumersGen.Draw(t, "consumers"), cfg)
		for _, s := range r.Schedule {
			if s.AppliedAt >= 0 && s.AppliedAt-s.Finish > cfg.Timeout {
				t.Fatalf("event %d held %d rounds, timeout %d", s.Index, s.AppliedAt-s.Finish, cfg.Timeout)
			}
		}
		if r.NeverApplied != 0 || r.HeldRounds > cfg.Timeout*r.Buffered {
			t.Fatalf("NeverApplied %d, HeldRounds %d for %d held; want 0 and at most %d each", r.NeverApplied, r.HeldRounds, r.Buffered, cfg.Timeout)
		}
	})
}

// When holding one more event would exceed the capacity, the event held
// longest is applied first: the resequencer never holds more.
func TestResequencerCapacityBoundsWhatItHolds(t *testing.T) {
	t.Parallel()
	rapid.Check(t, func(t *rapid.T) {
		events := arriving.Draw(t, "events")
		cfg := reseqConfigs.Draw(t, "config")
		cfg.Capacity = rapid.IntRange(1, 6).Draw(t, "N")
		r := simulateReseq(t, events, consumersGen.Draw(t, "consumers"), cfg)
		if r.MaxBuffered > cfg.Capacity {
			t.Fatalf("MaxBuffered %d; capacity %d", r.MaxBuffered, cfg.Capacity)
		}
	})
}

// On gapless keys, each key's steps 1..k in step order in the input, every
// gap fills: a key's first event is its step 1, so first-seen is zero; no
// step was skipped, so none is old; and a timeout no shorter than the
// longest the lesson's resequencer holds an event, or a capacity no smaller
// than the most it holds at once, never fires.
func TestResequencerOptionsChangeNothingOnGaplessKeys(t *testing.T) {
	t.Parallel()
	rapid.Check(t, func(t *rapid.T) {
		events := inStepOrder(gaplessEvents(rapid.Bool().Draw(t, "duplicates")).Draw(t, "events"))
		c := consumersGen.Draw(t, "consumers")
		want := simulateReseq(t, events, c, konvoy.ResequencerConfig{})
		longest := 0
		for _, s := range want.Schedule {
			longest = max(longest, s.AppliedAt-s.Finish)
		}
		cfg := konvoy.ResequencerConfig{
			Start:     konvoy.StartFirstSeen,
			Timeout:   rapid.SampledFrom([]int{0, longest, longest + 1}).Draw(t, "timeout"),
			Capacity:  rapid.SampledFrom([]int{0, want.MaxBuffered, want.MaxBuffered + 1}).Draw(t, "capacity"),
			RejectOld: rapid.Bool().Draw(t, "rejectOld"),
		}
		if cfg.Capacity == 0 && want.MaxBuffered > 0 && rapid.Bool().Draw(t, "tight") {
			cfg.Capacity = want.MaxBuffered
		}
		if d := gocmp.Diff(want, simulateReseq(t, events, c, cfg), withinPrecision); d != "" {
			t.Fatalf("%+v (-zero config +configured):\n%s", cfg, d)
		}
	})
}

// inStepOrder reorders each key's events so that its steps come in step
// order, each key keeping the places in the input its events had, and each
// place its arrival.
func inStepOrder(events []konvoy.Event) []konvoy.Event {
	byKey := map[string][]konvoy.Event{}
	for _, e := range events {
		byKey[e.Key] = append(byKey[e.Key], e)
	}
	for _, es := range byKey {
		slices.SortStableFunc(es, func(a, b konvoy.Event) int { return a.Step - b.Step })
	}
	out := make([]konvoy.Event, len(events))
	for i, e := range events {
		out[i], byKey[e.Key] = byKey[e.Key][0], byKey[e.Key][1:]
		out[i].Arrival = e.Arrival
	}
	return out
}

// A trace cut from a longer stream starts each key mid-lifecycle. Under
// first-seen, a key whose first event in the input carries its lowest step,
// and whose steps are gapless from there, is no gap: every held event is
// released, and every key ends on its highest step, however the events
// interleave and finish. Under zero, every key that starts above 1 is
// wrong.
func TestFirstSeenCompletesKeysThatStartMidLifecycle(t *testing.T) {
	t.Parallel()
	rapid.Check(t, func(t *rapid.T) {
		events := inStepOrder(gaplessEvents(false).Draw(t, "events"))
		starts := map[string]int{}
		for i, e := range events {
			if _, ok := starts[e.Key]; !ok {
				starts[e.Key] = rapid.IntRange(0, 1000).Draw(t, "start")
			}
			if e.Step > 0 {
				events[i].Step += starts[e.Key]
			}
		}
		c := consumersGen.Draw(t, "consumers")
		r := simulateReseq(t, events, c, konvoy.ResequencerConfig{Start: konvoy.StartFirstSeen})
		if r.NeverApplied != 0 || r.WrongFinal != 0 || r.GapsSkipped != 0 || r.BackwardWrites != 0 {
			t.Fatalf("NeverApplied %d, WrongFinal %d %v, GapsSkipped %d, BackwardWrites %d; want 0", r.NeverApplied, r.WrongFinal, r.WrongKeys, r.GapsSkipped, r.BackwardWrites)
		}
		late := 0
		for k, s := range starts {
			if s > 0 && slices.ContainsFunc(events, func(e konvoy.Event) bool { return e.Key == k && e.Step > 0 }) {
				late++
			}
		}
		if z := simulate(t, events, konvoy.Resequencer, c); z.WrongFinal != late {
			t.Fatalf("under zero, WrongFinal %d; want the %d keys that start above 1", z.WrongFinal, late)
		}
	})
}

// The configured resequencer matches refResequenced in reference_test.go,
// written from ResequencerConfig's documentation another way than
// resequencer.go, under every configuration and every policy, with events
// arriving at once or over time: the same measures, the same wrong keys,
// and each event's outcome and apply time.
func TestResequencerMatchesThePlainVersionUnderEveryConfig(t *testing.T) {
	t.Parallel()
	rapid.Check(t, func(t *rapid.T) {
		events := arriving.Draw(t, "events")
		c := consumersGen.Draw(t, "consumers")
		cfg := reseqConfigs.Draw(t, "config")
		p := rapid.SampledFrom(konvoy.Policies()).Draw(t, "policy")
		got, err := konvoy.Simulate(events, konvoy.Resequencer, c, konvoy.WithResequencer(cfg), konvoy.WithPolicy(p), konvoy.WithSchedule(max(1, len(events))))
		if err != nil {
			t.Fatal(err)
		}
		if d := refDiff(refResequenced(events, c, cfg, plainPolicies[p]), got); d != "" {
			t.Fatalf("%+v, %s, %d consumers (-reference +Simulate):\n%s", cfg, p, c, d)
		}
	})
}

// PartitionsFor reads the same lane loads that a partitioned run makes, and
// returns the first partition count that meets the bound: every smaller
// count's partitioned run misses it. Shares that are ratios of small
// numbers meet some counts' collision shares exactly, at the bound.
func TestPartitionsForFindsTheFirstCountThatFits(t *testing.T) {
	t.Parallel()
	rapid.Check(t, func(t *rapid.T) {
		events := eventsOf(anyShape).Draw(t, "events")
		b := rapid.IntRange(1, 12).Draw(t, "of")
		share := rapid.OneOf(rapid.SampledFrom([]float64{0, 0.1, 0.25, 0.5, 1}),
			rapid.Map(rapid.IntRange(0, b), func(a int) float64 { return float64(a) / float64(b) })).Draw(t, "share")
		limit := rapid.IntRange(1, 40).Draw(t, "limit")
		p, found, err := konvoy.PartitionsFor(konvoy.Values(events), share, limit)
		if err != nil {
			t.Fatal(err)
		}
		if found != (p.CollisionShare() <= share) || p.Partitions < 1 || p.Partitions > limit || !found && p.Partitions != limit {
			t.Fatalf("share %v, limit %d: %+v found %v", share, limit, p, found)
		}
		run := simulate(t, events, konvoy.Partitioned(p.Partitions), 2)
		if run.HeaviestLane != p.HeaviestLoad || run.HeaviestKeyLoad != p.HeaviestKeyLoad || run.Lanes != p.Used {
			t.Fatalf("PartitionsFor %+v disagrees with partitioned run %+v", p, run)
		}
		// Among equally heavy keys of one partition, both name the key
		// seen first (among equally heavy partitions they may differ: the
		// run's is the lane opened first, PartitionsFor's the lowest).
		if run.HeaviestLaneName == strconv.Itoa(p.HeaviestPartition) && run.HeaviestKey != p.HeaviestKey {
			t.Fatalf("PartitionsFor names %q the heaviest key of partition %d, the partitioned run %q", p.HeaviestKey, p.HeaviestPartition, run.HeaviestKey)
		}
		// Every smaller count, and every count up to the limit when none
		// fits, misses the bound in a partitioned run of its own.
		last := p.Partitions - 1
		if !found {
			last = limit
		}
		for n := 1; n <= last; n++ {
			r := simulate(t, events, konvoy.Partitioned(n), 2)
			if r.HeaviestLane == 0 || float64(r.HeaviestLane-r.HeaviestKeyLoad)/float64(r.HeaviestLane) <= share {
				t.Fatalf("%d partitions already fit (heaviest %d, its key %d, share %v), yet %d was returned, found %v",
					n, r.HeaviestLane, r.HeaviestKeyLoad, share, p.Partitions, found)
			}
		}
	})
}

// Policies: what head-of-line, lane-aware and static dispatch promise.

// Under the lane-aware policy no consumer is idle while an arrived event's
// lane is free. So whenever one is idle, the lane of the event that finishes
// last is running (or, for a last event without a lane, it has started):
// at most c−1 consumers are idle for at most that lane's load, and
// c·Rounds ≤ Work + (c−1)·max(HeaviestLane, longest event without a lane).
func TestLaneAwareObeysGrahamsBoundWithChains(t *testing.T) {
	t.Parallel()
	rapid.Check(t, func(t *rapid.T) {
		events := eventsOf(anyShape).Draw(t, "events")
		c := consumersGen.Draw(t, "consumers")
		for _, l := range allLayouts {
			r, err := konvoy.Simulate(events, l, c, konvoy.WithPolicy(konvoy.LaneAware), konvoy.WithSchedule(len(events)+1))
			if err != nil {
				t.Fatal(err)
			}
			chain := r.HeaviestLane
			for _, slot := range r.Schedule {
				if slot.Lane == "" {
					chain = max(chain, slot.Finish-slot.Start)
				}
			}
			if c*r.Rounds > r.Work+(c-1)*chain {
				t.Fatalf("%s: %d·%d > Work %d + %d·%d", l, c, r.Rounds, r.Work, c-1, chain)
			}
		}
	})
}

// A static consumer runs every lane it owns and nothing else of theirs, so
// no run ends before the busiest consumer has worked through its lanes.
func TestStaticNeverBeatsItsHeaviestConsumer(t *testing.T) {
	t.Parallel()
	rapid.Check(t, func(t *rapid.T) {
		events := eventsOf(anyShape).Draw(t, "events")
		c := consumersGen.Draw(t, "consumers")
		p := rapid.IntRange(1, 8).Draw(t, "partitions")
		for _, tt := range []struct {
			layout konvoy.Layout
			laneOf func(konvoy.Event) string
		}{
			{konvoy.Convoy, func(e konvoy.Event) string { return e.Key }},
			{konvoy.LineConvoy, func(e konvoy.Event) string { return e.Line }},
			{konvoy.Partitioned(p), func(e konvoy.Event) string { return fmt.Sprint(konvoy.KafkaPartition(e.Key, p)) }},
		} {
			l, laneOf := tt.layout, tt.laneOf
			owner, load := map[string]int{}, make([]int, c)
			for _, e := range events {
				ln := laneOf(e)
				if _, ok := owner[ln]; !ok {
					owner[ln] = len(owner) % c
					if l.Partitions() > 0 { // Kafka's range assignor, the default
						p, _ := strconv.Atoi(ln)
						owner[ln] = refRange(l.Partitions(), c)[p]
					}
				}
				load[owner[ln]] += e.Duration
			}
			r, err := konvoy.Simulate(events, l, c, konvoy.WithPolicy(konvoy.Static))
			if err != nil {
				t.Fatal(err)
			}
			if heaviest := slices.Max(append(load, 0)); r.Rounds < heaviest {
				t.Fatalf("%s: Rounds %d < heaviest consumer's load %d", l, r.Rounds, heaviest)
			}
		}
	})
}

// With one consumer and every event there from the start, no policy can do
// anything but run the events back to back.
func TestOneConsumerRunsBackToBackUnderEveryPolicy(t *testing.T) {
	t.Parallel()
	rapid.Check(t, func(t *rapid.T) {
		events := eventsOf(anyShape).Draw(t, "events")
		for _, p := range konvoy.Policies() {
			for _, l := range allLayouts {
				r, err := konvoy.Simulate(events, l, 1, konvoy.WithPolicy(p))
				if err != nil || r.Rounds != r.Work {
					t.Fatalf("%s, %s: Rounds %d, Work %d, %v", l, p, r.Rounds, r.Work, err)
				}
			}
		}
	})
}

// The schedule is the run, event by event: its outcomes add up to the
// Result's counts, and every slot's times agree with its latencies.
func TestScheduleAccountsForEveryEvent(t *testing.T) {
	t.Parallel()
	rapid.Check(t, func(t *rapid.T) {
		events := arriving.Draw(t, "events")
		c := consumersGen.Draw(t, "consumers")
		l := layoutGen.Draw(t, "layout")
		p := rapid.SampledFrom(konvoy.Policies()).Draw(t, "policy")
		r, err := konvoy.Simulate(events, l, c, konvoy.WithPolicy(p), konvoy.WithSchedule(max(len(events), 1)))
		if err != nil {
			t.Fatal(err)
		}
		count := map[konvoy.Outcome]int{}
		maxWait, rounds := 0, 0
		lastFinish := map[int]int{} // by consumer, in input order
		for i, slot := range r.Schedule {
			// A consumer takes an event when it is free and the event has
			// arrived; lane-aware dispatch takes it only when it can start.
			wantTaken := max(lastFinish[slot.Consumer], slot.Arrival)
			if p == konvoy.LaneAware {
				wantTaken = slot.Start
			}
			if slot.Taken != wantTaken {
				t.Fatalf("slot %d = %+v: taken at %d, want %d", i, slot, slot.Taken, wantTaken)
			}
			lastFinish[slot.Consumer] = slot.Finish
			e := events[i]
			count[slot.Outcome]++
			if slot.Index != i || slot.Key != e.Key || slot.Arrival != e.Arrival || slot.Finish-slot.Start != e.Duration ||
				slot.Start < e.Arrival || slot.Taken < e.Arrival || slot.Taken > slot.Start || slot.Consumer < 0 || slot.Consumer >= c {
				t.Fatalf("slot %d = %+v for event %+v", i, slot, e)
			}
			if (slot.AppliedAt >= 0) != (slot.Outcome != konvoy.Skipped && slot.Outcome != konvoy.Duplicate && slot.Outcome != konvoy.NeverApplied) ||
				slot.AppliedAt >= 0 && slot.AppliedAt < slot.Finish {
				t.Fatalf("slot %d: outcome %s applied at %d", i, slot.Outcome, slot.AppliedAt)
			}
			maxWait, rounds = max(maxWait, slot.Start-slot.Arrival), max(rounds, slot.Finish)
		}
		if len(r.Schedule) != len(events) || count[konvoy.Skipped] != r.Skipped ||
			count[konvoy.Skipped]+count[konvoy.WrittenBackward] != r.BackwardWrites ||
			count[konvoy.Duplicate] != r.Duplicates || count[konvoy.NeverApplied] != r.NeverApplied ||
			count[konvoy.Held] != r.Buffered-r.NeverApplied || maxWait != r.Wait.Max || rounds != r.Rounds {
			t.Fatalf("outcomes %v disagree with %+v", count, r)
		}
	})
}

// Without lanes, the three policies run alike: each gives every event, in
// input order, to a consumer free by the time it can start, when it has
// arrived and the earliest consumer is free, so the starts, finishes and
// applies agree, and only the consumer that takes an event and the backlog
// counted can differ. NewSimulator so gives a run without lanes, a
// schedule or a backlog limit the head-of-line dispatcher: its Result must
// be that of the policy's own, which a schedule asks for. And the policy's
// own holds at most its consumers but for the resequencer's events, which
// is why a limit of the consumers gets head-of-line's too: such a limit is
// never reached, and the Result is the same.
func TestPoliciesWithoutLanesRunAlike(t *testing.T) {
	t.Parallel()
	rapid.Check(t, func(t *rapid.T) {
		events := arriving.Draw(t, "events")
		c := consumersGen.Draw(t, "consumers")
		for _, l := range []konvoy.Layout{konvoy.Free, konvoy.VersionStamp, konvoy.Resequencer} {
			for _, p := range konvoy.Policies() {
				own, err := konvoy.Simulate(events, l, c, konvoy.WithPolicy(p), konvoy.WithSchedule(len(events)+1))
				if err != nil {
					t.Fatal(err)
				}
				// The schedule is the policy's own: its consumers are the
				// plain version's, not head-of-line's.
				policy := plainPolicies[p]
				if p == konvoy.Static {
					policy = refStaticOf(0)
				}
				for i, o := range refRun(events, c, nil, policy) {
					if slot := own.Schedule[i]; slot.Consumer != o.consumer || slot.Start != o.start {
						t.Fatalf("%s, %s: event %d ran on consumer %d from %d; the plain version says %d from %d", l, p, i, slot.Consumer, slot.Start, o.consumer, o.start)
					}
				}
				own.Schedule = nil
				limits := []konvoy.Option{konvoy.WithMaxBacklog(0)}
				if !l.Equal(konvoy.Resequencer) {
					limits = append(limits, konvoy.WithMaxBacklog(c))
					if _, err := konvoy.Simulate(events, l, c, konvoy.WithPolicy(p), konvoy.WithSchedule(len(events)+1), konvoy.WithMaxBacklog(c)); err != nil {
						t.Fatalf("%s, %s, %d consumers, its own dispatcher: %v", l, p, c, err)
					}
				}
				for i, limit := range limits {
					got, err := konvoy.Simulate(events, l, c, konvoy.WithPolicy(p), limit)
					if err != nil {
						t.Fatal(err)
					}
					if d := gocmp.Diff(own, got, withinPrecision); d != "" {
						t.Fatalf("%s, %s, %d consumers, limit %d (-own dispatcher +head-of-line's):\n%s", l, p, c, i, d)
					}
				}
			}
		}
	})
}

// No event waits longer, or takes longer from its arrival to its finish,
// than the run's whole work: every policy is work-conserving (while an
// event waits, some consumer runs another: under head-of-line the blocked
// lane's item, under static the owner's, under lane-aware a lane's head),
// so the time an event waits is time some other event ran; and the
// resequencer holds events only after they finish, outside its latencies.
func TestNoLatencyPassesTheWork(t *testing.T) {
	t.Parallel()
	rapid.Check(t, func(t *rapid.T) {
		events := arrivingLong.Draw(t, "events")
		l := layoutGen.Draw(t, "layout")
		c := consumersGen.Draw(t, "consumers")
		p := rapid.SampledFrom(konvoy.Policies()).Draw(t, "policy")
		opts := []konvoy.Option{konvoy.WithPolicy(p)}
		if l.Equal(konvoy.Resequencer) {
			opts = append(opts, konvoy.WithResequencer(reseqConfigs.Draw(t, "config")))
		}
		r, err := konvoy.Simulate(events, l, c, opts...)
		if err != nil {
			t.Fatal(err)
		}
		if r.Response.Max > r.Work || r.Wait.Max > r.Work {
			t.Fatalf("%s, %s, %d consumers: wait up to %d, response up to %d, beyond the work, %d", l, p, c, r.Wait.Max, r.Response.Max, r.Work)
		}
	})
}

// The planner: the count it answers and the ceiling it reports.

// The planner's answer is the smallest consumer count whose run fits the
// peak: that count fits, every smaller one does not, and no count at all
// beats the chain of events one lane must run in turn. A run fits when it
// lasts at most the budget, events/(peak·round), or a whole number of
// rounds that the budget falls short of by float64's error alone, up to 16
// units in its last place, as PlanConsumers says; the rate the plan
// reports may then be as many units below the peak. (Checked as the rate's
// "at least the peak", the property failed where a run of exactly the
// budget, 14 rounds of 7 events at 50 events/s and 0.01 s, sustains
// 7/(14·0.01) = 49.99999999999999 events/s in float64.)
func TestPlanFindsTheSmallestCountThatKeepsUp(t *testing.T) {
	t.Parallel()
	rapid.Check(t, func(t *rapid.T) {
		events := arriving.Draw(t, "events")
		l := planLayoutGen.Draw(t, "layout")
		p := rapid.SampledFrom(konvoy.Policies()).Draw(t, "policy")
		cfg := konvoy.PlanConfig{
			Peak:         rapid.Float64Range(0.5, 50).Draw(t, "peak"),
			RoundSeconds: rapid.SampledFrom([]float64{0.001, 0.01, 0.1}).Draw(t, "round"),
			MaxConsumers: rapid.IntRange(1, 40).Draw(t, "limit"),
		}
		plan, err := konvoy.PlanConsumers(konvoy.Values(events), l, cfg, konvoy.WithPolicy(p))
		if err != nil {
			t.Fatal(err)
		}
		budget := float64(len(events)) / (cfg.Peak * cfg.RoundSeconds)
		keepsUp := func(c int) (int, bool) {
			r, err := konvoy.Simulate(events, l, c, konvoy.WithPolicy(p))
			if err != nil {
				t.Fatal(err)
			}
			if r.Rounds < plan.CeilingRounds {
				t.Fatalf("%d consumers: %d rounds beat the ceiling of %d", c, r.Rounds, plan.CeilingRounds)
			}
			// Keeping up means lasting at most the budget, float64's error aside.
			return r.Rounds, float64(r.Rounds) <= budget || unitsAbove(budget, float64(r.Rounds)) <= 16
		}
		if plan.Events != len(events) || len(plan.Assumptions) < 4 {
			t.Fatalf("plan %+v", plan)
		}
		if plan.Consumers > 0 {
			rounds, ok := keepsUp(plan.Consumers)
			if !ok || rounds != plan.Rounds || unitsAbove(plan.Rate, cfg.Peak) > 16 || plan.Rate > plan.Ceiling {
				t.Fatalf("plan %+v: %d consumers take %d rounds, budget %.3f", plan, plan.Consumers, rounds, budget)
			}
		}
		last := plan.Consumers - 1
		if plan.Consumers == 0 {
			last = cfg.MaxConsumers
		}
		for c := 1; c <= last; c++ {
			if _, ok := keepsUp(c); ok && len(events) > 0 {
				t.Fatalf("plan %+v, yet %d consumers keep up", plan, c)
			}
		}
	})
}

// unitsAbove returns how many units in v's last place w lies above v: 0
// when w is at most v.
func unitsAbove(v, w float64) float64 {
	if w <= v {
		return 0
	}
	return (w - v) / (math.Nextafter(v, math.Inf(1)) - v)
}

// With a consumer for every event, each event starts as soon as it has
// arrived and its lane is free: that run is the ceiling, exactly.
func TestPlanCeilingIsTheRunWithAConsumerPerEvent(t *testing.T) {
	t.Parallel()
	rapid.Check(t, func(t *rapid.T) {
		events := arriving.Draw(t, "events")
		l := layoutGen.Draw(t, "layout")
		plan, err := konvoy.PlanConsumers(konvoy.Values(events), l, konvoy.PlanConfig{Peak: 1, RoundSeconds: 1})
		if err != nil {
			t.Fatal(err)
		}
		r := simulate(t, events, l, max(len(events), 1))
		if plan.CeilingRounds != r.Rounds {
			t.Fatalf("ceiling %d rounds; with a consumer per event the run takes %d", plan.CeilingRounds, r.Rounds)
		}
	})
}

// Under head-of-line dispatch a consumer more never lets any event start,
// or finish, later, under every layout; so no latency percentile, of waits
// or of responses, ever rises with consumers, and PlanLatency may bisect.
//
// Proof, by induction over the events in input order, coupling the run on
// c consumers with the run on c+1. Before each event, let f₁ ≤ … ≤ f_c be
// the times the c consumers become free, g₁ ≤ … ≤ g_{c+1} the c+1
// consumers', and L(ℓ), L'(ℓ) each lane's free time in the two runs. The
// invariant is gᵢ ≤ fᵢ for i ≤ c and L'(ℓ) ≤ L(ℓ) for every lane; it holds
// at the start, where every time is 0. The event, of arrival a, duration d
// and lane ℓ (a lane is a function of the event alone, whatever the
// consumers), goes to the consumer free first and starts at s = max(a, f₁,
// L(ℓ)) with c consumers and at s' = max(a, g₁, L'(ℓ)) ≤ s with c+1, by
// the invariant; it finishes at s'+d ≤ s+d. Its lane's time becomes s'+d ≤
// s+d. Its consumer's time f₁ becomes s+d and g₁ becomes s'+d: the first
// run's times are now {f₂ … f_c, s+d}, the second's {g₂ … g_{c+1}, s'+d}.
// Pairing gᵢ with fᵢ for 2 ≤ i ≤ c and s'+d with s+d shows that the i-th
// smallest of {g₂ … g_c, s'+d} is at most the i-th smallest of {f₂ … f_c,
// s+d}, and adding g_{c+1} to a set can only lower its i-th smallest: the
// invariant holds again. Which consumer takes a tie, and when events are
// applied, change neither start times nor finish times. (Lane-aware and
// static dispatch do not dispatch in input order to the consumer free
// first, and the property is not claimed for them.)
func TestMoreConsumersNeverRaiseLatency(t *testing.T) {
	t.Parallel()
	rapid.Check(t, func(t *rapid.T) {
		events := arriving.Draw(t, "events")
		l := layoutGen.Draw(t, "layout")
		c := rapid.IntRange(1, 40).Draw(t, "consumers")
		more := c + rapid.IntRange(1, 3).Draw(t, "more")
		fewer, err := konvoy.Simulate(events, l, c, konvoy.WithSchedule(max(1, len(events))))
		if err != nil {
			t.Fatal(err)
		}
		then, err := konvoy.Simulate(events, l, more, konvoy.WithSchedule(max(1, len(events))))
		if err != nil {
			t.Fatal(err)
		}
		for i, s := range then.Schedule {
			if f := fewer.Schedule[i]; s.Start > f.Start || s.Finish > f.Finish {
				t.Fatalf("%s: event %d starts at %d, finishes at %d on %d consumers, but at %d and %d on %d",
					l, i, f.Start, f.Finish, c, s.Start, s.Finish, more)
			}
		}
	})
}

// PlanLatency's answer is the smallest count that meets the objective and
// carries the offered load, as brute force finds it: every count from 1 to
// the limit is run, more than the events too (static dispatch deals
// partitions, not events, to consumers), its percentile read off its
// schedule by nearest rank, sorting every latency, and the load floor is
// the work over the rounds from the first arrival to the last, rounded up
// (none when all arrive in one round). Its floor is the run with a
// consumer for every event, and every point of its curve is the run at
// that count. It holds under every policy: PlanLatency tries every count
// where latency need not fall, skips only counts whose work cannot fit or
// that do not carry the load (see its doc) and bisects only under
// head-of-line, where TestMoreConsumersNeverRaiseLatency shows latency
// never rises; the extra counts a picture asks for change nothing but the
// curve. No count is the answer when a lane carries more work than those
// rounds (a load floor there is): it runs one event at a time, and falls
// behind the arrivals whatever the count; nor is a count on which static
// dispatch deals a consumer lanes of more work than those rounds. At a
// Rate the arrivals were made at, those rounds are the events over the
// rate, whatever rounds the arrivals fall in.
func TestPlanLatencyFindsTheSmallestCountThatMeets(t *testing.T) {
	t.Parallel()
	rapid.Check(t, func(t *rapid.T) {
		events := arriving.Draw(t, "events")
		layouts := rapid.SliceOfNDistinct(planLayoutGen, 1, 3, konvoy.Layout.String).Draw(t, "layouts")
		p := rapid.SampledFrom(konvoy.Policies()).Draw(t, "policy")
		slo := konvoy.SLO{
			Percentile: rapid.SampledFrom([]float64{50, 75.5, 90, 95, 99, 99.9, 100}).Draw(t, "percentile"),
			Wait:       rapid.Bool().Draw(t, "wait"),
			Rounds:     rapid.IntRange(0, 25).Draw(t, "target"),
		}
		limit := rapid.IntRange(1, 30).Draw(t, "limit")
		counts := rapid.SliceOfN(rapid.IntRange(-1, 40), 0, 6).Draw(t, "counts")                  // for a picture
		eighths := rapid.SampledFrom([]int{0, 0, 1, 3, 8, 12, 20, 64}).Draw(t, "rate in eighths") // 0: the trace's own
		cfg := konvoy.LatencyConfig{SLO: slo, MaxConsumers: limit, Counts: counts, Rate: float64(eighths) / 8}
		plans, err := konvoy.PlanLatency(konvoy.Values(events), layouts, cfg, konvoy.WithPolicy(p))
		if err != nil {
			t.Fatal(err)
		}
		for i, l := range layouts {
			plan := plans[i]
			at := func(c int, p konvoy.Policy) int {
				r, err := konvoy.Simulate(events, l, c, konvoy.WithPolicy(p), konvoy.WithSchedule(max(1, len(events))))
				if err != nil {
					t.Fatal(err)
				}
				return percentileOf(r.Schedule, slo)
			}
			if plan.Layout != l.String() || plan.Events != len(events) || len(events) > 0 && plan.Floor != at(len(events), konvoy.HeadOfLine) {
				t.Fatalf("%s: plan %+v", l, plan)
			}
			for _, c := range counts {
				if c >= 1 && c <= min(limit, len(events)) && !slices.ContainsFunc(plan.Curve, func(pt konvoy.LatencyPoint) bool { return pt.Consumers == c }) {
					t.Fatalf("%s: curve %v leaves out %d consumers", l, plan.Curve, c)
				}
			}
			for _, pt := range plan.Curve {
				if got := at(pt.Consumers, p); got != pt.Rounds {
					t.Fatalf("%s: plan %+v: %d consumers reach %d rounds", l, plan, pt.Consumers, got)
				}
			}
			load := loadFloorOf(events)
			if work := workOf(events); eighths > 0 && work > 0 { // ⌈work·rate/n⌉, exactly
				load = (work*eighths + 8*len(events) - 1) / (8 * len(events))
			}
			if plan.LoadFloor != load {
				t.Fatalf("%s: load floor %d; want %d", l, plan.LoadFloor, load)
			}
			fits := func(work int) bool { // within the rounds the events arrive over
				return eighths == 0 && work <= events[len(events)-1].Arrival-events[0].Arrival+1 || eighths > 0 && work*eighths <= 8*len(events)
			}
			lanes, work := heaviestLanesOf(t, events, l)
			if load == 0 || fits(work) {
				lanes, work = []string{""}, 0
			}
			if !slices.Contains(lanes, plan.OverloadedLane) || plan.OverloadedWork != work {
				t.Fatalf("%s: overloaded lane %q of %d rounds; want one of %q, of %d", l, plan.OverloadedLane, plan.OverloadedWork, lanes, work)
			}
			want := 0
			for c := max(1, load); c <= limit && len(events) > 0 && work == 0; c++ {
				if at(c, p) <= slo.Rounds && (load == 0 || p != konvoy.Static || fits(busiestDealt(t, events, l, c))) {
					want = c
					break
				}
			}
			if plan.Consumers != want || plan.Meets != (want > 0 || len(events) == 0) || want > 0 && plan.Achieved != at(want, p) {
				t.Fatalf("%s under %s, %s: plan %+v; want %d consumers", l, p, slo, plan, want)
			}
		}
	})
}

// planLayoutGen draws the layouts of the planners' brute force: any layout,
// or a topic of up to 12 partitions, which can have more partitions than a
// trace has events, where static dispatch can use more consumers than
// events.
var planLayoutGen = rapid.OneOf(layoutGen, rapid.Custom(func(t *rapid.T) konvoy.Layout {
	return konvoy.Partitioned(rapid.IntRange(1, 12).Draw(t, "partitions"))
}))

// busiestDealt returns the most work of events in lanes of l that one of
// c consumers runs under Static, read off the run's schedule: each lane's
// events run on the consumer it is dealt to, and the lanes of one after
// another.
func busiestDealt(t *rapid.T, events []konvoy.Event, l konvoy.Layout, c int) int {
	r, err := konvoy.Simulate(events, l, c, konvoy.WithPolicy(konvoy.Static), konvoy.WithSchedule(max(1, len(events))))
	if err != nil {
		t.Fatal(err)
	}
	work := map[int]int{}
	most := 0
	for _, s := range r.Schedule {
		e := events[s.Index]
		if _, ok, _ := l.Lane(e); ok {
			work[s.Consumer] += e.Duration
			most = max(most, work[s.Consumer])
		}
	}
	return most
}

// heaviestLanesOf returns the lanes of l that carry the most work over
// events, and that work; none and 0 for a layout without lanes.
func heaviestLanesOf(t *rapid.T, events []konvoy.Event, l konvoy.Layout) ([]string, int) {
	work := map[string]int{}
	for _, e := range events {
		lane, ok, err := l.Lane(e)
		if err != nil {
			t.Fatal(err)
		}
		if ok {
			work[lane] += e.Duration
		}
	}
	var lanes []string
	most := 0
	for lane, w := range work {
		switch {
		case w > most:
			lanes, most = []string{lane}, w
		case w == most:
			lanes = append(lanes, lane)
		}
	}
	return lanes, most
}

// workOf is the sum of events' durations.
func workOf(events []konvoy.Event) int {
	work := 0
	for _, e := range events {
		work += e.Duration
	}
	return work
}

// loadFloorOf is the fewest consumers that carry events' load: their
// durations' sum over the rounds from the first arrival to the last, both
// counted, rounded up; 0 when every event arrives in one round.
func loadFloorOf(events []konvoy.Event) int {
	if len(events) == 0 || events[0].Arrival == events[len(events)-1].Arrival {
		return 0
	}
	work := 0
	for _, e := range events {
		work += e.Duration
	}
	span := events[len(events)-1].Arrival - events[0].Arrival + 1
	return int(math.Ceil(float64(work) / float64(span)))
}

// percentileOf is the nearest-rank percentile of the latencies slo names
// in a schedule, sorting them all: the smallest that at least slo's share
// of them do not exceed.
func percentileOf(slots []konvoy.Slot, slo konvoy.SLO) int {
	if len(slots) == 0 {
		return 0
	}
	var all []int
	for _, s := range slots {
		if slo.Wait {
			all = append(all, s.Start-s.Arrival)
		} else {
			all = append(all, s.Finish-s.Arrival)
		}
	}
	slices.Sort(all)
	rank := int(math.Ceil(float64(len(all)) * slo.Percentile / 100))
	return all[max(rank, 1)-1]
}

// sweepBudgets are TestSweepEqualsRunsOneByOne's memory budgets: all at
// once, or some runs in each pass, or one a pass (beside the sweep's own
// 1.8 MiB, a run takes 64 KiB, 72 KiB under lane-aware dispatch, which
// holds only the events not taken yet).
// TestSweepBudgetsForceSeveralPasses checks that they do.
var sweepBudgets = []int{konvoy.DefaultMaxMemory, 2_500_000, 2_365_000, 2_010_000}

// A sweep's results are those of the same configurations run one by one:
// each run is its own Simulator, fed every event in input order, whichever
// worker feeds it, however the batches fall and however many passes a
// memory budget, and the stream's length the sweep is told, split the runs
// into; the runs of a pass share the
// stream's interned keys and lanes, which depend on the events alone.
func TestSweepEqualsRunsOneByOne(t *testing.T) {
	t.Parallel()
	rapid.Check(t, func(t *rapid.T) {
		events := arriving.Draw(t, "events")
		configs := rapid.SliceOfN(rapid.Custom(func(t *rapid.T) konvoy.Config {
			return konvoy.Config{
				Layout:    layoutGen.Draw(t, "layout"),
				Consumers: consumersGen.Draw(t, "consumers"),
				Options: []konvoy.Option{konvoy.WithPolicy(rapid.SampledFrom(konvoy.Policies()).Draw(t, "policy")),
					konvoy.WithResequencer(reseqConfigs.Draw(t, "resequencer"))},
			}
		}), 0, 12).Draw(t, "configs")
		// The budget: all at once, or some in each pass, or one a pass.
		budget := rapid.SampledFrom(sweepBudgets).Draw(t, "budget")
		// The stream's length as the sweep is told it: unknown, right, or
		// wrong either way, which changes only when runs stop for a later
		// pass.
		expected := rapid.SampledFrom([]int{0, len(events), len(events)/3 + 1, 10*len(events) + 5}).Draw(t, "expected")
		got, err := konvoy.Sweep(context.Background(), konvoy.Values(events), configs, konvoy.WithMaxMemory(budget), konvoy.WithExpectedEvents(expected))
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(configs) {
			t.Fatalf("%d results for %d configurations", len(got), len(configs))
		}
		for i, c := range configs {
			want, err := konvoy.Simulate(events, c.Layout, c.Consumers, c.Options...)
			if err != nil {
				t.Fatal(err)
			}
			if d := gocmp.Diff(want, got[i]); d != "" {
				t.Fatalf("%v: the sweep's result differs from Simulate's (-one by one +sweep):\n%s", c, d)
			}
		}
	})
}

// Memory: the runs that hold no backlog.

// A run of a layout and policy that HoldsBacklog says hold no backlog holds
// at most two events for each of its consumers: its place in the
// consumers' tree, and, at most, its last event waiting to be applied
// (under static dispatch of no lanes, in its queue); under static dispatch
// of keys pinned to lanes none waits, and under lane-aware dispatch with no
// lanes a free consumer takes each event as it can.
func TestRunsThatHoldNoBacklogStayWithinTheirConsumers(t *testing.T) {
	t.Parallel()
	rapid.Check(t, func(t *rapid.T) {
		events := arriving.Draw(t, "events")
		c := rapid.IntRange(1, 8).Draw(t, "consumers")
		for _, p := range konvoy.Policies() {
			for _, l := range allLayouts {
				if l.HoldsBacklog(p) {
					continue
				}
				// WithSchedule keeps p's own dispatcher: without it a run
				// without lanes gets head-of-line's (see dispatchedAs).
				if _, err := konvoy.Simulate(events, l, c, konvoy.WithPolicy(p), konvoy.WithMaxBacklog(2*c), konvoy.WithSchedule(max(1, len(events)))); err != nil {
					t.Fatalf("%s, %s, %d consumers: %v", l, p, c, err)
				}
			}
		}
	})
}

// The reference model: Simulate and each policy against the naive
// transliteration of the lesson in reference_test.go.

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

// arriving draws events of any shape that arrive all at round 0 or over
// time.
var arriving = rapid.Custom(func(t *rapid.T) []konvoy.Event {
	sh := anyShape
	sh.arrivals = rapid.Bool().Draw(t, "arrivals")
	return eventsOf(sh).Draw(t, "events")
})

// arrivingLong draws as arriving does, but one time in three with
// durations of up to 4,000 rounds, so that waits and responses pass
// konvoy.ExactLatency (2,048 rounds) and Latency's percentiles are read
// off its buckets.
var arrivingLong = rapid.Custom(func(t *rapid.T) []konvoy.Event {
	sh := anyShape
	sh.arrivals = rapid.Bool().Draw(t, "arrivals")
	sh.maxDuration = rapid.SampledFrom([]int{6, 6, 4000}).Draw(t, "longest")
	return eventsOf(sh).Draw(t, "events")
})

// byStepParity is a LaneFunc whose lanes skip some events: a lane for each
// line and parity of step, none for steps divisible by 3.
func byStepParity(e konvoy.Event) (string, bool) {
	return e.Line + "/" + fmt.Sprint(e.Step%2), e.Step%3 != 0
}

// plainPolicies are the plain versions of the dispatch policies in
// reference_test.go, by policy.
var plainPolicies = map[konvoy.Policy]func([]refEvent, int, func(refEvent) *string) []refEvent{
	konvoy.HeadOfLine: refHeadOfLine,
	konvoy.LaneAware:  refLaneAware,
	konvoy.Static:     refStatic,
}

// Simulate streams and keeps heaps where the lesson sorts and scans; the
// reference transliterates the lesson's JavaScript, so the two must agree on
// every measure for every layout, including a custom one whose lanes skip
// some events, whether events all arrive at round 0 or over time, and
// whether latencies stay below 2,048 rounds or pass them.
func TestSimulateMatchesTheLessonsModel(t *testing.T) {
	t.Parallel()
	rapid.Check(t, func(t *rapid.T) {
		events := arrivingLong.Draw(t, "events")
		c := consumersGen.Draw(t, "consumers")
		p := rapid.IntRange(1, 16).Draw(t, "partitions")
		layouts := append(refLayoutsFor(p), refLayout{konvoy.NewLayout("parity", byStepParity), byStepParity, ""})
		for _, l := range layouts {
			want := refScheduled(events, c, l.lanes, l.handler, refHeadOfLine)
			got, err := konvoy.Simulate(events, l.layout, c, konvoy.WithSchedule(max(1, len(events))))
			if err != nil {
				t.Fatal(err)
			}
			// Every measure, and every event's slot: its consumer, lane
			// and times, what the handler made of it and when.
			if d := refDiff(want, got); d != "" {
				t.Fatalf("%s with %d consumers (-reference +Simulate):\n%s", l.layout, c, d)
			}
		}
	})
}

// The same comparison on many keys and events (up to 600 keys and 900
// events, or 10,000 and 12,000 with -konvoy.long), so that the key table
// grows and lanes are many. Rapid seldom draws more than a page
// (4096) of distinct keys; TestSimulateMatchesTheLessonsModelAcrossPages
// always does.
func TestSimulateMatchesTheLessonsModelOnManyKeys(t *testing.T) {
	t.Parallel() // the three longest comparisons run side by side
	rapid.Check(t, func(t *rapid.T) {
		sh := shape{maxKeys: sized(600, 10000), maxEvents: sized(900, 12000), maxDuration: 9, arrivals: rapid.Bool().Draw(t, "arrivals")}
		events := eventsOf(sh).Draw(t, "events")
		c := consumersGen.Draw(t, "consumers")
		for _, l := range refLayoutsFor(rapid.IntRange(1, 64).Draw(t, "partitions")) {
			if d := refDiff(refSimulate(events, c, l.lanes, l.handler), simulate(t, events, l.layout, c)); d != "" {
				t.Fatalf("%s with %d consumers (-reference +Simulate):\n%s", l.layout, c, d)
			}
		}
	})
}

// The comparison with the plain versions holds on a sweep's interned path
// too, where every layout and policy runs over one interning of the events,
// sharing the keys' names and highest steps and each layout's lanes, and
// the runs keep only their own states: every layout (a LaneFunc's too)
// under every policy, in one sweep, whatever its memory budget makes of
// its passes, matches its plain version, result and slot by slot.
func TestSweepMatchesThePlainVersions(t *testing.T) {
	t.Parallel()
	rapid.Check(t, func(t *rapid.T) {
		events := arriving.Draw(t, "events")
		c := rapid.IntRange(1, 8).Draw(t, "consumers")
		layouts := append(refLayoutsFor(rapid.IntRange(1, 6).Draw(t, "partitions")), refLayout{konvoy.NewLayout("parity", byStepParity), byStepParity, ""})
		var configs []konvoy.Config
		for _, l := range layouts {
			for _, p := range konvoy.Policies() {
				configs = append(configs, konvoy.Config{Layout: l.layout, Consumers: c, Options: []konvoy.Option{konvoy.WithPolicy(p), konvoy.WithSchedule(len(events) + 1)}})
			}
		}
		budget := rapid.SampledFrom([]int{konvoy.DefaultMaxMemory, 2_265_000}).Draw(t, "budget")
		got, err := konvoy.Sweep(context.Background(), konvoy.Values(events), configs, konvoy.WithMaxMemory(budget))
		if err != nil {
			t.Fatal(err)
		}
		for i, cf := range configs {
			l, p := layouts[i/3], konvoy.Policies()[i%3]
			policy := plainPolicies[p]
			if p == konvoy.Static {
				policy = refStaticOf(l.layout.Partitions())
			}
			want := refScheduled(events, c, l.lanes, l.handler, policy)
			if d := refDiff(want, got[i]); d != "" {
				t.Fatalf("%s, %s, %d consumers (-plain +Sweep):\n%s", cf.Layout, p, c, d)
			}
		}
	})
}

// The same comparison on a generated trace of 10,000 events of 5,000 keys,
// more than one page of key and lane state (4096 each), with
// arrivals and durations of 1 to 9 rounds, under every policy (lane-aware,
// whose plain version is quadratic, on the convoy alone): whatever rapid
// draws, this run always crosses pages. By default each policy runs the
// convoy alone; -konvoy.long runs every layout.
func TestSimulateMatchesTheLessonsModelAcrossPages(t *testing.T) {
	t.Parallel() // the three longest comparisons run side by side
	cfg := synth.Default()
	cfg.Events, cfg.Keys, cfg.Lines, cfg.InFlight = 10_000, 10_000, 50, 300
	cfg.StepsPerKey, cfg.OrderedSteps = 2, 1
	cfg.Duration = synth.Uniform(1, 9)
	cfg.Rate = 20
	events := seqtest.Drain(synth.Events(cfg))
	for _, p := range konvoy.Policies() {
		for _, l := range refLayoutsFor(64) {
			if p == konvoy.LaneAware && l.layout.String() != "convoy" {
				continue
			}
			// By default every policy runs the convoy alone, whose keys and
			// lanes both fill more than a page; the long checks run every
			// layout.
			if !*long && l.layout.String() != "convoy" {
				continue
			}
			got, err := konvoy.Simulate(events, l.layout, 64, konvoy.WithPolicy(p))
			if err != nil {
				t.Fatal(err)
			}
			if got.Keys <= 4096 {
				t.Fatalf("the trace has %d keys; want more than one page", got.Keys)
			}
			policy := plainPolicies[p]
			if p == konvoy.Static {
				policy = refStaticOf(l.layout.Partitions())
			}
			if d := refDiff(refSimulateWith(events, 64, l.lanes, l.handler, policy), got); d != "" {
				t.Fatalf("%s, %s (-reference +Simulate):\n%s", l.layout, p, d)
			}
		}
	}
}

// Each policy's streaming dispatcher, which holds as little as it can and
// decides as early as it safely can, must agree on every measure with a
// plain version that knows the whole input, for every layout and, under
// static dispatch, every assignor, with events arriving at once or over
// time.
func TestPoliciesMatchTheirPlainVersions(t *testing.T) {
	t.Parallel()
	rapid.Check(t, func(t *rapid.T) {
		events := arrivingLong.Draw(t, "events")
		c := rapid.IntRange(1, 8).Draw(t, "consumers")
		p := rapid.SampledFrom(konvoy.Policies()).Draw(t, "policy")
		// The assignor by which static dispatch deals partitions; the
		// other policies ignore it.
		a := rapid.SampledFrom([]konvoy.Assignor{konvoy.RangeAssignor, konvoy.RoundRobinAssignor, konvoy.FirstSeenAssignor}).Draw(t, "assignor")
		for _, l := range refLayoutsFor(rapid.IntRange(1, 6).Draw(t, "partitions")) {
			policy := plainPolicies[p]
			if p == konvoy.Static {
				policy = refStaticDealt(l.layout.Partitions(), a)
			}
			want := refScheduled(events, c, l.lanes, l.handler, policy)
			got, err := konvoy.Simulate(events, l.layout, c, konvoy.WithPolicy(p), konvoy.WithAssignor(a), konvoy.WithSchedule(len(events)+1))
			if err != nil {
				t.Fatal(err)
			}
			// Every measure, and who ran what, in which lane, when, and
			// what became of it, event by event.
			if d := refDiff(want, got); d != "" {
				t.Fatalf("%s, %s (%s), %d consumers (-plain +Simulate):\n%s", l.layout, p, a, c, d)
			}
		}
	})
}

// Long lane-aware runs, where the dispatcher drops the events it has given
// out from the front of its queue (once more than 1,024 of them), agree with
// the plain version too: up to 1,200 events, or 2,600 with -konvoy.long.
func TestLaneAwareLongRunsMatchThePlainVersion(t *testing.T) {
	t.Parallel() // the three longest comparisons run side by side
	rapid.Check(t, func(t *rapid.T) {
		sh := shape{maxKeys: 300, maxEvents: sized(1200, 2600), maxDuration: 4, arrivals: rapid.Bool().Draw(t, "arrivals")}
		events := eventsOf(sh).Draw(t, "events")
		c := rapid.IntRange(1, 16).Draw(t, "consumers")
		for _, l := range refLayoutsFor(3)[1:3] { // convoy, line-convoy
			want := refSimulateWith(events, c, l.lanes, l.handler, refLaneAware)
			got, err := konvoy.Simulate(events, l.layout, c, konvoy.WithPolicy(konvoy.LaneAware))
			if err != nil {
				t.Fatal(err)
			}
			if d := refDiff(want, got); d != "" {
				t.Fatalf("%s, %d consumers (-plain +Simulate):\n%s", l.layout, c, d)
			}
		}
	})
}

// edgeEvents draws up to 12 events of up to 4 keys whose times reach the
// integer limits: a first arrival at round 0, the largest int over 2^20,
// half the largest int or just below it; durations of a few rounds, of
// 2,048 rounds and more (where Latency's percentiles leave their exact
// range), or up to all the room left, so that the last arrival plus the
// total work is at most MaxInt−1, the most Simulate takes.
var edgeEvents = rapid.Custom(func(t *rapid.T) []konvoy.Event {
	events := make([]konvoy.Event, rapid.IntRange(0, 12).Draw(t, "events"))
	arrival := rapid.SampledFrom([]int{0, math.MaxInt >> 20, math.MaxInt / 2, math.MaxInt - 200}).Draw(t, "first arrival")
	for i := range events {
		arrival += rapid.IntRange(0, 3).Draw(t, "gap")
		events[i] = konvoy.Event{
			Key:     fmt.Sprintf("K%d", rapid.IntRange(0, 3).Draw(t, "key")),
			Line:    fmt.Sprintf("L%d", rapid.IntRange(0, 1).Draw(t, "line")),
			Step:    rapid.IntRange(0, 5).Draw(t, "step"),
			Arrival: arrival,
		}
	}
	room := math.MaxInt - 1 - arrival
	for i := range events {
		d := rapid.OneOf(rapid.IntRange(0, 6), rapid.IntRange(2040, 5000), rapid.IntRange(0, room), rapid.Just(room)).Draw(t, "duration")
		events[i].Duration = min(d, room)
		room -= events[i].Duration
	}
	return events
})

// Simulate's arithmetic holds to the integer limits: with arrivals and
// durations up to the largest int the run allows, and latencies far above
// 2,048 rounds, every layout under every policy matches the reference,
// measure by measure and event by event (percentiles within Latency's
// precision); and the resequencer, with timeouts up to the largest int,
// matches refResequenced, including the held events whose finish plus
// Timeout passes the largest int and so are never applied. Where the
// rounds events spent held add up past the largest int, the run is an
// error, not a wrong HeldRounds.
func TestSimulateMatchesTheReferenceAtTheIntegerLimits(t *testing.T) {
	t.Parallel()
	rapid.Check(t, func(t *rapid.T) {
		events := edgeEvents.Draw(t, "events")
		c := rapid.IntRange(1, 4).Draw(t, "consumers")
		for _, p := range konvoy.Policies() {
			for _, l := range refLayoutsFor(3) {
				policy := plainPolicies[p]
				if p == konvoy.Static {
					policy = refStaticOf(l.layout.Partitions())
				}
				got, err := konvoy.Simulate(events, l.layout, c, konvoy.WithPolicy(p), konvoy.WithSchedule(max(1, len(events))))
				matchesAtTheLimits(t, fmt.Sprintf("%s, %s, %d consumers", l.layout, p, c), refScheduled(events, c, l.lanes, l.handler, policy), got, err)
			}
			cfg := reseqConfigs.Draw(t, "config")
			cfg.Timeout = rapid.SampledFrom([]int{0, 1, 2048, math.MaxInt / 2, math.MaxInt - 1, math.MaxInt}).Draw(t, "timeout")
			got, err := konvoy.Simulate(events, konvoy.Resequencer, c, konvoy.WithPolicy(p), konvoy.WithResequencer(cfg), konvoy.WithSchedule(max(1, len(events))))
			matchesAtTheLimits(t, fmt.Sprintf("%+v, %s, %d consumers", cfg, p, c), refResequenced(events, c, cfg, plainPolicies[p]), got, err)
		}
	})
}

// matchesAtTheLimits checks a run, got or err, against the reference's
// want: an error where the rounds held pass the largest int (HeldRounds
// -1 in the reference), want event by event otherwise.
func matchesAtTheLimits(t *rapid.T, run string, want, got konvoy.Result, err error) {
	t.Helper()
	if want.HeldRounds < 0 {
		if err == nil || !strings.Contains(err.Error(), "(HeldRounds) add up past") {
			t.Fatalf("%s: the rounds held pass the largest int; Simulate gives %+v, error %v", run, got, err)
		}
		return
	}
	if err != nil {
		t.Fatalf("%s: %v", run, err)
	}
	if d := refDiff(want, got); d != "" {
		t.Fatalf("%s (-reference +Simulate):\n%s", run, d)
	}
}

// The index at the top of this file is how a reader finds a property, so it
// must name every one: each function of the package's tests that calls
// rapid.Check is listed, with its file when that is not this one, and each
// name listed is a test of the package, in the file named.
func TestThePropertiesIndexNamesEveryProperty(t *testing.T) {
	t.Parallel()
	src, err := os.ReadFile("properties_test.go")
	if err != nil {
		t.Fatal(err)
	}
	head, _, _ := strings.Cut(string(src), "\npackage ")
	listed := map[string]string{} // property → file, from the index
	for _, line := range strings.Split(head, "\n") {
		fields := strings.Fields(strings.TrimPrefix(line, "//\t"))
		if !strings.HasPrefix(line, "//\tTest") || len(fields) < 2 {
			continue
		}
		file := "properties_test.go"
		if strings.HasSuffix(fields[1], "_test.go") {
			file = fields[1]
		}
		listed[fields[0]] = file
	}
	names, err := filepath.Glob("*_test.go")
	if err != nil {
		t.Fatal(err)
	}
	tests, properties := map[string]string{}, map[string]string{} // name → file
	fset := token.NewFileSet()
	for _, name := range names {
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Recv != nil || !strings.HasPrefix(fn.Name.Name, "Test") {
				continue
			}
			tests[fn.Name.Name] = name
			ast.Inspect(fn.Body, func(n ast.Node) bool {
				if sel, ok := n.(*ast.SelectorExpr); ok && sel.Sel.Name == "Check" {
					if x, ok := sel.X.(*ast.Ident); ok && x.Name == "rapid" {
						properties[fn.Name.Name] = name
					}
				}
				return true
			})
		}
	}
	for p, file := range properties {
		if listed[p] != file {
			t.Errorf("property %s in %s: the index lists it in %q", p, file, listed[p])
		}
	}
	for p, file := range listed {
		if tests[p] != file {
			t.Errorf("the index lists %s in %s; it is in %q", p, file, tests[p])
		}
	}
	if len(properties) < 30 {
		t.Errorf("found %d properties; the index lists %d", len(properties), len(listed))
	}
}
