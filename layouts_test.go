package konvoy_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/lesson"
)

func TestKafkaPartition(t *testing.T) {
	// toPositive(-973932308) = 1173551340; 1173551340 % 7 = 5.
	if got := konvoy.KafkaPartition("21", 7); got != 1173551340%7 {
		t.Errorf(`KafkaPartition("21", 7) = %d; want %d`, got, 1173551340%7)
	}
	if got := konvoy.KafkaPartition("abc", 1); got != 0 {
		t.Errorf("one partition: %d", got)
	}
}

// ParseLayout takes each layout's own name, and refuses any other: a
// partition count is written only as Layout.String writes it, so that a
// name read reads back as itself.
func TestParseLayout(t *testing.T) {
	for _, name := range []string{"free", "convoy", "line-convoy", "version-stamp", "selective-convoy", "resequencer", "partitioned:1", "partitioned:12"} {
		l, err := konvoy.ParseLayout(name)
		if err != nil || l.String() != name {
			t.Errorf("ParseLayout(%q) = %v, %v", name, l, err)
		}
	}
	for _, name := range []string{"", "Free", "partitioned:", "partitioned:0", "partitioned:-2", "partitioned:x", "partitioned",
		"partitioned:+3", "partitioned:03", "partitioned: 3", "partitioned:3 ", "recorded:+1", "recorded:007"} {
		if l, err := konvoy.ParseLayout(name); err == nil {
			t.Errorf("ParseLayout(%q) = %v; want an error", name, l)
		}
	}
}

func TestResequencerOnTheLesson(t *testing.T) {
	r, err := konvoy.Simulate(lesson.Events(), konvoy.Resequencer, 4)
	if err != nil {
		t.Fatal(err)
	}
	free, err := konvoy.Simulate(lesson.Events(), konvoy.Free, 4)
	if err != nil {
		t.Fatal(err)
	}
	// Free writes 5 steps backward; the resequencer holds those keys' early
	// arrivals instead and applies every step.
	if r.Rounds != free.Rounds || r.WrongFinal != 0 || r.BackwardWrites != 0 || r.Buffered == 0 || r.NeverApplied != 0 {
		t.Fatalf("%+v", r)
	}
}

// A timeout that gives up a key's gap applies the steps it holds in step
// order, skipping only the steps that never came, and a step delivered
// again once applied is a duplicate, as ResequencerConfig says. Step 5
// finishes at 0 and is held; a copy of step 4 finishes at 6 and is held;
// at 11, step 5's timeout (at 10) gives up steps 1 to 3 and applies step 4,
// then step 5 after it; the second copy of step 4 is a duplicate.
func TestATimeoutAppliesHeldStepsInOrderAndARedeliveryIsADuplicate(t *testing.T) {
	events := []konvoy.Event{{Key: "K", Step: 5}, {Key: "K", Step: 4, Duration: 6}, {Key: "K", Step: 4, Duration: 5}}
	r, err := konvoy.Simulate(events, konvoy.Resequencer, 1, konvoy.WithResequencer(konvoy.ResequencerConfig{Timeout: 10}), konvoy.WithSchedule(3))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range r.Schedule {
		got = append(got, fmt.Sprintf("%s@%d", s.Outcome, s.AppliedAt))
	}
	want := []string{"held@10", "held@10", "duplicate@-1"}
	if !slices.Equal(got, want) || r.BackwardWrites != 0 || r.Duplicates != 1 || r.GapsSkipped != 3 || r.Forced != 1 || r.WrongFinal != 0 {
		t.Errorf("outcomes %v, %+v; want %v, no backward write, 1 duplicate, 3 gaps skipped, 1 forced, no wrong key", got, r, want)
	}
}

// A held event whose finish plus Timeout is the largest int exactly is
// applied then, at the end of the run: only a time past the largest int
// never comes, as ResequencerConfig says.
func TestATimeoutAtTheLargestIntStillComes(t *testing.T) {
	events := []konvoy.Event{{Key: "K", Step: 2, Duration: math.MaxInt - 1}}
	for _, tt := range []struct {
		timeout int
		want    konvoy.Slot
		held    int
	}{
		{1, konvoy.Slot{Outcome: konvoy.Held, AppliedAt: math.MaxInt}, 1},
		{2, konvoy.Slot{Outcome: konvoy.NeverApplied, AppliedAt: -1}, 0},
	} {
		r, err := konvoy.Simulate(events, konvoy.Resequencer, 1, konvoy.WithResequencer(konvoy.ResequencerConfig{Timeout: tt.timeout}), konvoy.WithSchedule(1))
		if err != nil {
			t.Fatal(err)
		}
		if s := r.Schedule[0]; s.Outcome != tt.want.Outcome || s.AppliedAt != tt.want.AppliedAt || r.HeldRounds != tt.held {
			t.Errorf("timeout %d: %s at %d, HeldRounds %d; want %s at %d, %d", tt.timeout, s.Outcome, s.AppliedAt, r.HeldRounds, tt.want.Outcome, tt.want.AppliedAt, tt.held)
		}
	}
}

// The rounds events spend held can add up past the largest int, under
// timeouts near it or, as here, without one: three events held for most of
// it each. The run is an error, in Simulate and in a sweep, not a
// HeldRounds that wrapped around.
func TestHeldRoundsPastTheLargestIntAreAnError(t *testing.T) {
	third := math.MaxInt / 3
	events := []konvoy.Event{
		{Key: "A", Step: 2}, {Key: "B", Step: 2}, {Key: "C", Step: 2},
		{Key: "A", Step: 1, Duration: third}, {Key: "B", Step: 1, Duration: third}, {Key: "C", Step: 1, Duration: third},
	}
	// The error names the event at which the sum passed it: C's step 2,
	// released third.
	want := fmt.Sprintf(`konvoy: event 2 (key "C"): the rounds events spent held (HeldRounds) add up past %d, the largest int, from this event on`, math.MaxInt)
	var ev *konvoy.EventError
	if _, err := konvoy.Simulate(events, konvoy.Resequencer, 1); !errors.As(err, &ev) || ev.Index != 2 || ev.Key != "C" {
		t.Errorf("Simulate: error %v; want a *konvoy.EventError of event 2, key C", err)
	}
	if _, err := konvoy.Simulate(events, konvoy.Resequencer, 1); err == nil || err.Error() != want {
		t.Errorf("Simulate: error %v; want %q", err, want)
	}
	// A sweep names the run: it has many.
	want = fmt.Sprintf(`konvoy: the run of resequencer, head-of-line, on 1 consumer: event 2 (key "C"): the rounds events spent held (HeldRounds) add up past %d, the largest int, from this event on`, math.MaxInt)
	if _, err := konvoy.Sweep(context.Background(), konvoy.Values(events), []konvoy.Config{{Layout: konvoy.Resequencer, Consumers: 1}}); err == nil || err.Error() != want {
		t.Errorf("Sweep: error %v; want %q", err, want)
	}
	// Two of them fit, up to the largest int itself: held 1 round and
	// MaxInt−1.
	two := []konvoy.Event{{Key: "A", Step: 2}, {Key: "B", Step: 2}, {Key: "A", Step: 1, Duration: 1}, {Key: "B", Step: 1, Duration: math.MaxInt - 2}}
	if r, err := konvoy.Simulate(two, konvoy.Resequencer, 1); err != nil || r.HeldRounds != math.MaxInt {
		t.Errorf("two held: HeldRounds %d, %v; want %d", r.HeldRounds, err, math.MaxInt)
	}
}

func TestPartitionsForRejectsBadInput(t *testing.T) {
	for _, tt := range []struct {
		events []konvoy.Event
		share  float64
		limit  int
		want   string
	}{
		{nil, 1.5, 4, "konvoy: collision share 1.5: want a fraction in [0, 1]"},
		{nil, 0.1, 0, "konvoy: partition limit 0: want 1 to 2147483647"},
		{[]konvoy.Event{{Key: "A"}, {}}, 0.1, 4, "konvoy: event 1: Key is empty"},
		{[]konvoy.Event{{Key: "A", Duration: -1}}, 0.1, 4, `konvoy: event 0 (key "A"): Duration is -1`},
	} {
		if _, _, err := konvoy.PartitionsFor(konvoy.Values(tt.events), tt.share, tt.limit); err == nil || !strings.HasPrefix(err.Error(), tt.want) {
			t.Errorf("error %v; want %q", err, tt.want)
		}
	}
	if _, found, err := konvoy.PartitionsFor(konvoy.Values(lesson.Events()), 1, konvoy.MaxPartitions); err != nil || !found {
		t.Errorf("the largest limit: %v, %v", found, err)
	}
	if over := int64(konvoy.MaxPartitions) + 1; over <= math.MaxInt {
		_, _, err := konvoy.PartitionsFor(konvoy.Values(nil), 0.1, int(over))
		if want := "konvoy: partition limit 2147483648: want 1 to 2147483647"; err == nil || err.Error() != want {
			t.Errorf("error %v; want %q", err, want)
		}
	}
}

func TestPartitionLoadFigures(t *testing.T) {
	p := konvoy.PartitionLoad{HeaviestLoad: 8, HeaviestKeyLoad: 6}
	if p.Collision() != 2 || p.CollisionShare() != 0.25 {
		t.Errorf("%+v: Collision %d, CollisionShare %v; want 2 and 0.25", p, p.Collision(), p.CollisionShare())
	}
	if (konvoy.PartitionLoad{}).CollisionShare() != 0 {
		t.Error("an empty partition's collision share is not 0")
	}
	// Two keys of equal load in one partition: the one seen first is named.
	events := []konvoy.Event{{Key: "b", Duration: 3}, {Key: "a", Duration: 3}}
	q, found, err := konvoy.PartitionsFor(konvoy.Values(events), 0.5, 1)
	if err != nil || !found || q.HeaviestKey != "b" || q.HeaviestLoad != 6 || q.HeaviestKeyLoad != 3 {
		t.Errorf("%+v, %v, %v; want b named, 3 of 6", q, found, err)
	}
}

// A run whose count of steps skipped would pass the largest int ends in
// an error naming it, as one whose held rounds would: a result is whole
// or none. Under a Capacity of 1, keys a, b and c each send step
// math.MaxInt: two gaps of math.MaxInt−1 steps are skipped.
func TestGapsSkippedPastTheLargestIntIsAnError(t *testing.T) {
	var events []konvoy.Event
	for _, k := range []string{"a", "b", "c"} {
		events = append(events, konvoy.Event{Key: k, Step: math.MaxInt, Duration: 1})
	}
	_, err := konvoy.Simulate(events, konvoy.Resequencer, 1, konvoy.WithResequencer(konvoy.ResequencerConfig{Capacity: 1}))
	if err == nil || !strings.Contains(err.Error(), "GapsSkipped") {
		t.Errorf("Simulate: %v; want an error naming GapsSkipped", err)
	}
	events = events[:2] // one gap: within the largest int
	if r, err := konvoy.Simulate(events, konvoy.Resequencer, 1, konvoy.WithResequencer(konvoy.ResequencerConfig{Capacity: 1})); err != nil || r.GapsSkipped != math.MaxInt-1 {
		t.Errorf("one gap: GapsSkipped %d, %v; want %d", r.GapsSkipped, err, math.MaxInt-1)
	}
}

// The steps the resequencer skips can add up past the largest int too,
// and the error names the event whose gap passed it: key B's jump from
// step 1 to the largest int, the second such gap, forced by the timeout.
func TestGapsSkippedPastTheLargestIntNameTheirEvent(t *testing.T) {
	events := []konvoy.Event{
		{Key: "A", Step: 1}, {Key: "A", Step: math.MaxInt, Arrival: 1},
		{Key: "B", Step: 1, Arrival: 2}, {Key: "B", Step: math.MaxInt, Arrival: 3},
	}
	_, err := konvoy.Simulate(events, konvoy.Resequencer, 1, konvoy.WithResequencer(konvoy.ResequencerConfig{Timeout: 1}))
	want := fmt.Sprintf(`konvoy: event 3 (key "B"): the steps skipped (GapsSkipped) add up past %d, the largest int, from this event on`, math.MaxInt)
	var ev *konvoy.EventError
	if !errors.As(err, &ev) || ev.Index != 3 || err.Error() != want {
		t.Errorf("Simulate: error %v; want %q", err, want)
	}
}
