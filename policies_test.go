package konvoy_test

import (
	"fmt"
	"slices"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/sirali-konvoy/konvoy"
	"pgregory.net/rapid"
)

// Each policy's streaming dispatcher, which holds as little as it can and
// decides as early as it safely can, must agree on every measure with a
// plain version that knows the whole input, for every layout, with events
// arriving at once or over time.
func TestPoliciesMatchTheirPlainVersions(t *testing.T) {
	plain := map[konvoy.Policy]func([]refEvent, int, func(refEvent) *string) []refEvent{
		konvoy.HeadOfLine: refHeadOfLine,
		konvoy.LaneAware:  refLaneAware,
		konvoy.Static:     refStatic,
	}
	rapid.Check(t, func(t *rapid.T) {
		sh := anyShape
		sh.arrivals = rapid.Bool().Draw(t, "arrivals")
		events := eventsOf(sh).Draw(t, "events")
		c := rapid.IntRange(1, 8).Draw(t, "consumers")
		p := rapid.SampledFrom(konvoy.Policies()).Draw(t, "policy")
		for _, l := range refLayoutsFor(rapid.IntRange(1, 6).Draw(t, "partitions")) {
			want := refSimulateWith(events, c, l.lanes, l.handler, plain[p])
			got, err := konvoy.Simulate(events, l.layout, c, konvoy.WithPolicy(p), konvoy.WithSchedule(len(events)+1))
			if err != nil {
				t.Fatal(err)
			}
			if d := gocmp.Diff(want, got, cmpopts.IgnoreFields(konvoy.Result{}, "Schedule"), withinPrecision); d != "" {
				t.Fatalf("%s, %s, %d consumers (-plain +Simulate):\n%s", l.layout, p, c, d)
			}
			// Who ran what, where and when, agrees too.
			for i, o := range refRun(events, c, l.lanes, plain[p]) {
				slot := got.Schedule[i]
				if slot.Consumer != o.consumer || slot.Start != o.start || slot.Finish != o.finish {
					t.Fatalf("%s, %s: event %d ran on consumer %d from %d to %d; the plain version says %d from %d to %d",
						l.layout, p, i, slot.Consumer, slot.Start, slot.Finish, o.consumer, o.start, o.finish)
				}
				lane := ""
				if l.lanes != nil {
					if name, ok := l.lanes(events[i]); ok {
						lane = name
					}
				}
				if slot.Lane != lane {
					t.Fatalf("%s, %s: event %d ran in lane %q; want %q", l.layout, p, i, slot.Lane, lane)
				}
			}
		}
	})
}

// Under the lane-aware policy no consumer is idle while an arrived event's
// lane is free. So whenever one is idle, the lane of the event that finishes
// last is running (or, for a last event without a lane, it has started):
// at most c−1 consumers are idle for at most that lane's load, and
// c·Rounds ≤ Work + (c−1)·max(HeaviestLane, longest event without a lane).
func TestLaneAwareObeysGrahamsBoundWithChains(t *testing.T) {
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
	rapid.Check(t, func(t *rapid.T) {
		sh := anyShape
		sh.arrivals = rapid.Bool().Draw(t, "arrivals")
		events := eventsOf(sh).Draw(t, "events")
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

func TestScheduleLimitIsAnError(t *testing.T) {
	_, err := konvoy.Simulate(konvoy.LessonEvents(), konvoy.Convoy, 4, konvoy.WithSchedule(19))
	if err == nil || err.Error() != "konvoy: event 19: the run has more events than the schedule limit of 19" {
		t.Fatalf("error %v", err)
	}
	r, err := konvoy.Simulate(konvoy.LessonEvents(), konvoy.Convoy, 4, konvoy.WithSchedule(20))
	if err != nil || len(r.Schedule) != 20 {
		t.Fatalf("%d slots, %v", len(r.Schedule), err)
	}
}

// Latencies of ExactLatency rounds and more are reported within their
// precision, and Max and Mean exactly. The waits are 0, 100,000, 100,000
// and 100,003 rounds: the exact P50, 100,000, falls in the bucket of
// 99,968 to 100,031, whose top is capped at Max.
func TestLatencyOfLargeValuesIsWithinItsPrecision(t *testing.T) {
	events := []konvoy.Event{{Key: "A", Duration: 100_000}, {Key: "A", Duration: 3}, {Key: "B", Duration: 70_000}, {Key: "A", Duration: 1}}
	r, err := konvoy.Simulate(events, konvoy.Convoy, 2)
	if err != nil {
		t.Fatal(err)
	}
	want := refSimulate(events, 2, func(e konvoy.Event) (string, bool) { return e.Key, true }, "")
	if d := gocmp.Diff(want.Wait, r.Wait, withinPrecision); d != "" {
		t.Errorf("Wait (-want +got):\n%s", d)
	}
	if d := gocmp.Diff(want.Response, r.Response, withinPrecision); d != "" {
		t.Errorf("Response (-want +got):\n%s", d)
	}
	if r.Response.Max != 170_000 || r.Wait.Max != 100_003 || r.Wait.P50 != 100_003 {
		t.Errorf("%+v", r)
	}
}

func TestParsePolicy(t *testing.T) {
	for _, p := range konvoy.Policies() {
		if got, err := konvoy.ParsePolicy(p.String()); err != nil || got != p {
			t.Errorf("ParsePolicy(%q) = %v, %v", p, got, err)
		}
	}
	if _, err := konvoy.ParsePolicy("fifo"); err == nil {
		t.Error(`ParsePolicy("fifo") succeeded`)
	}
	if _, err := konvoy.NewSimulator(konvoy.Free, 1, konvoy.WithPolicy(konvoy.Policy(9))); err == nil {
		t.Error("an unknown policy was accepted")
	}
}

// Long lane-aware runs, where the dispatcher drops the events it has given
// out from the front of its queue, agree with the plain version too.
func TestLaneAwareLongRunsMatchThePlainVersion(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		sh := shape{maxKeys: 300, maxEvents: 2600, maxDuration: 4, arrivals: rapid.Bool().Draw(t, "arrivals")}
		events := eventsOf(sh).Draw(t, "events")
		c := rapid.IntRange(1, 16).Draw(t, "consumers")
		for _, l := range refLayoutsFor(3)[1:3] { // convoy, line-convoy
			want := refSimulateWith(events, c, l.lanes, l.handler, refLaneAware)
			got, err := konvoy.Simulate(events, l.layout, c, konvoy.WithPolicy(konvoy.LaneAware))
			if err != nil {
				t.Fatal(err)
			}
			if d := gocmp.Diff(want, got, withinPrecision); d != "" {
				t.Fatalf("%s, %d consumers (-plain +Simulate):\n%s", l.layout, c, d)
			}
		}
	})
}
