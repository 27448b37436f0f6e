package konvoy

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

// The planner's unlimited dispatch is the head-of-line policy with a
// consumer for every event: each event then starts when it has arrived and
// its lane is free, whichever consumer takes it. Its run must time every
// event as that run does (its schedule's starts and finishes, its rounds,
// work, lanes and latencies), but for which consumer ran each event and
// what applying events would change, which it leaves out, and name as the
// chain's lane that of the first event, in input order, to finish last.
func TestUnlimitedIsHeadOfLineWithAConsumerPerEvent(t *testing.T) {
	t.Parallel()
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 40).Draw(t, "events")
		l := rapid.SampledFrom([]Layout{Free, Convoy, LineConvoy, Partitioned(3), VersionStamp, Resequencer}).Draw(t, "layout")
		var events []Event
		arrival := 0
		for range n {
			arrival += rapid.IntRange(0, 2).Draw(t, "gap")
			events = append(events, Event{
				Key:      fmt.Sprint(rapid.IntRange(0, 4).Draw(t, "key")),
				Line:     fmt.Sprint(rapid.IntRange(0, 2).Draw(t, "line")),
				Step:     rapid.IntRange(0, 4).Draw(t, "step"),
				Duration: rapid.IntRange(0, 4).Draw(t, "duration"),
				Arrival:  arrival,
			})
		}
		want, err := Simulate(events, l, n, WithSchedule(n))
		if err != nil {
			t.Fatal(err)
		}
		s, err := NewSimulator(l, 1, withConsumerPerEvent(), WithSchedule(n))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range events {
			if err := s.Add(e); err != nil {
				t.Fatal(err)
			}
		}
		lane := ""
		if ln := s.dispatch.(*unlimited).last; ln >= 0 {
			lane = s.table.name(s.in, ln)
		}
		got, err := s.Result()
		if err != nil {
			t.Fatal(err)
		}
		for i := range got.Schedule {
			got.Schedule[i].Consumer, want.Schedule[i].Consumer = 0, 0
			got.Schedule[i].AppliedAt, want.Schedule[i].AppliedAt = 0, 0
			got.Schedule[i].Outcome, want.Schedule[i].Outcome = 0, 0
		}
		timing := func(r Result) Result {
			return Result{Events: r.Events, Keys: r.Keys, Work: r.Work, Rounds: r.Rounds, Lanes: r.Lanes, HeaviestLane: r.HeaviestLane,
				HeaviestLaneName: r.HeaviestLaneName, HeaviestKey: r.HeaviestKey, HeaviestKeyLoad: r.HeaviestKeyLoad,
				Wait: r.Wait, Response: r.Response, BlockedMean: r.BlockedMean, WorstLanes: r.WorstLanes, Schedule: r.Schedule}
		}
		if diff := cmp.Diff(timing(want), timing(got)); diff != "" {
			t.Fatalf("unlimited run differs from head-of-line on %d consumers (-want +got):\n%s", n, diff)
		}
		last := 0
		for i, slot := range want.Schedule {
			if slot.Finish > want.Schedule[last].Finish {
				last = i
			}
		}
		if lane != want.Schedule[last].Lane {
			t.Fatalf("chain lane %q; want %q, the lane of event %d, the first to finish last", lane, want.Schedule[last].Lane, last)
		}
	})
}
