package konvoy

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// TestSweepErrorBeforeOrdersByIndexThenRun pins sweepError.before: an
// error comes before another when its input index is lower, or, at the same
// index, when its run is; it is a strict order, so an error is not before
// itself (nor an equal one), and anything is before no error. Sweep's
// "first event, then first run" promise rests on it.
func TestSweepErrorBeforeOrdersByIndexThenRun(t *testing.T) {
	for _, c := range []struct {
		e, o *sweepError
		want bool
	}{
		{&sweepError{index: 3, run: 5}, nil, true},
		{&sweepError{index: 3, run: 5}, &sweepError{index: 4, run: 0}, true},
		{&sweepError{index: 4, run: 0}, &sweepError{index: 3, run: 5}, false},
		{&sweepError{index: 5, run: 1}, &sweepError{index: 3, run: 2}, false},
		{&sweepError{index: 3, run: 1}, &sweepError{index: 3, run: 2}, true},
		{&sweepError{index: 3, run: 2}, &sweepError{index: 3, run: 1}, false},
		{&sweepError{index: 3, run: 2}, &sweepError{index: 3, run: 2}, false},
	} {
		if got := c.e.before(c.o); got != c.want {
			t.Errorf("%+v before %+v = %v, want %v", c.e, c.o, got, c.want)
		}
	}
}

// recordedFailing returns events on partition 0 but for those in bad,
// which go to partition bad[i], out of range of a Recorded layout with no
// more partitions.
func recordedFailing(n int, bad map[int]int) []Event {
	ev := make([]Event, n)
	for i := range ev {
		ev[i] = Event{Key: "k", Step: i + 1, Duration: 1, Partition: bad[i]}
	}
	return ev
}

// TestSweepTiedFailuresReturnFirstConfig pins that when several runs fail
// at the same event, Sweep returns the first configuration's error. Every
// run fails at input index 2 (its partition is out of range of them all),
// and there are at least two runs per worker, so whatever the spread over
// GOMAXPROCS workers, ties are met both within a worker and across workers.
func TestSweepTiedFailuresReturnFirstConfig(t *testing.T) {
	var configs []Config
	for i := range 2*runtime.GOMAXPROCS(0) + 2 {
		configs = append(configs, Config{Layout: Recorded(2 + i), Consumers: 2})
	}
	_, err := Sweep(context.Background(), Values(recordedFailing(5, map[int]int{2: 100})), configs)
	var ev *EventError
	if !errors.As(err, &ev) || ev.Index != 2 {
		t.Fatalf("Sweep: %v, want an EventError at index 2", err)
	}
	if !strings.Contains(err.Error(), "recorded:2 has 2 partitions") {
		t.Errorf("Sweep: %v, want the first configuration's (recorded:2) error", err)
	}
}

// TestSweepReturnsEarliestFailingEvent pins that Sweep returns the error
// at the lowest input index, whichever run it is: the first configuration
// fails at index 5, the second at index 3, so the second's error wins. An
// error's index is the batch's start plus the event's place in it.
func TestSweepReturnsEarliestFailingEvent(t *testing.T) {
	events := recordedFailing(8, map[int]int{3: 5, 5: 9})
	configs := []Config{{Layout: Recorded(8), Consumers: 2}, {Layout: Recorded(4), Consumers: 2}}
	_, err := Sweep(context.Background(), Values(events), configs)
	var ev *EventError
	if !errors.As(err, &ev) || ev.Index != 3 || !strings.Contains(err.Error(), "recorded:4") {
		t.Fatalf("Sweep: %v, want recorded:4's EventError at index 3", err)
	}
}

// TestSweepMemoryErrorBeforeRunErrorAtSameEvent pins that when a lone run
// outgrows the memory at the very event it also fails at, Sweep returns
// the memory error, found first: the pass records it before the run takes
// the batch, and an error at the same index and run does not displace it.
// One byte of memory is too little for any run, so the pass finds it at
// the last event of the only batch, index 4, which is out of range.
func TestSweepMemoryErrorBeforeRunErrorAtSameEvent(t *testing.T) {
	events := recordedFailing(5, map[int]int{4: 7})
	_, err := Sweep(context.Background(), Values(events), []Config{{Layout: Recorded(2), Consumers: 2}}, WithMaxMemory(1))
	var ev *EventError
	if !errors.As(err, &ev) || ev.Index != 4 || !strings.Contains(err.Error(), "WithMaxMemory") {
		t.Fatalf("Sweep: %v, want the memory error at index 4", err)
	}
}

// TestSweepMemoryCheckedAtBatchEnd pins the batch length: the pass plans
// its memory when a batch is full, after sweepBatch events, so a run that
// cannot fit in one byte fails at the batch's last event, sweepBatch−1,
// not before nor after it. Keys and lines are short: the byte budget plays
// no part.
func TestSweepMemoryCheckedAtBatchEnd(t *testing.T) {
	events := make([]Event, sweepBatch+100)
	for i := range events {
		events[i] = Event{Key: "k", Step: i + 1, Duration: 1}
	}
	_, err := Sweep(context.Background(), Values(events), []Config{{Layout: Convoy, Consumers: 2}}, WithMaxMemory(1))
	var ev *EventError
	if !errors.As(err, &ev) || ev.Index != sweepBatch-1 {
		t.Fatalf("Sweep: %v, want an EventError at index %d", err, sweepBatch-1)
	}
}

// TestSweepBatchEndsAtByteBudget pins the batch's byte budget: a batch ends
// once its keys' and lines' bytes together reach sweepBatchBytes. Each event
// here carries exactly a quarter of it, mostly in its line, so the first
// batch is the first four events and a run that cannot fit in one byte
// fails at index 3.
func TestSweepBatchEndsAtByteBudget(t *testing.T) {
	line := strings.Repeat("l", sweepBatchBytes/4-1)
	events := make([]Event, 10)
	for i := range events {
		events[i] = Event{Key: "k", Line: line, Step: i + 1, Duration: 1}
	}
	_, err := Sweep(context.Background(), Values(events), []Config{{Layout: Convoy, Consumers: 2}}, WithMaxMemory(1))
	var ev *EventError
	if !errors.As(err, &ev) || ev.Index != 3 {
		t.Fatalf("Sweep: %v, want an EventError at index 3", err)
	}
}

// TestWithMaxBacklogZeroIsNoLimit pins that 0, the documented default of no
// limit, is accepted: WithMaxBacklog panics only below 0.
func TestWithMaxBacklogZeroIsNoLimit(t *testing.T) {
	defer func() {
		if r := recover(); r != nil {
			t.Fatalf("WithMaxBacklog(0) panicked: %v", r)
		}
	}()
	if _, err := Simulate([]Event{{Key: "k", Step: 1, Duration: 1}}, Convoy, 1, WithMaxBacklog(0)); err != nil {
		t.Fatal(err)
	}
}

// TestPlanConsumersStaticTriesEveryCount pins that PlanConsumers searches
// counts one by one under Static, whose rounds need not fall as consumers
// grow, and bisects only under HeadOfLine. Six key lanes of 3, 1, 1, 1, 3
// and 1 events, dealt by the order they open, take 7 rounds on 2
// consumers, 4 on 3, 6 on 4 (the two heavy lanes share one) and 4 on 5; at
// a peak of 2.5 events a round, 4 rounds keep up. Doubling from 2 would
// meet 2 and 4, both too slow, and bisect between 4 and 8 to 5; the answer
// is 3.
func TestPlanConsumersStaticTriesEveryCount(t *testing.T) {
	var events []Event
	for i, n := range []int{3, 1, 1, 1, 3, 1} {
		for s := 1; s <= n; s++ {
			events = append(events, Event{Key: string(rune('a' + i)), Step: s, Duration: 1})
		}
	}
	p, err := PlanConsumers(Values(events), Convoy, PlanConfig{Peak: 2.5, RoundSeconds: 1}, WithPolicy(Static))
	if err != nil {
		t.Fatal(err)
	}
	if p.Consumers != 3 || p.Rounds != 4 {
		t.Errorf("PlanConsumers: %d consumers, %d rounds; want 3 and 4", p.Consumers, p.Rounds)
	}
}

// TestPartitionLoadsRoomStaysWithinKeys pins partitionLoads' O(keys)
// memory, which PartitionsFor promises: three keys spread over 1<<16
// partitions, far more than twice the keys, are counted by the order they
// land in, in room for a few loads, with no room by partition. The loads
// are right all the same.
func TestPartitionLoadsRoomStaysWithinKeys(t *testing.T) {
	var pl partitionLoads
	p, _ := pl.spread([]string{"a", "b", "c"}, []int{1, 2, 3}, []int{7, 7 + 1<<16, 9}, 1<<16, math.MaxInt)
	if p.Used != 2 || p.HeaviestLoad != 3 {
		t.Errorf("spread: %+v, want 2 partitions used, the heaviest carrying 3", p)
	}
	if cap(pl.load) > 8 || len(pl.usedBy) != 0 {
		t.Errorf("spread over 1<<16 partitions for 3 keys kept room for %d loads and %d partitions, want a few loads and none",
			cap(pl.load), len(pl.usedBy))
	}
	// Room by partition for 256 keys up to 256 times as many, 1<<16, the
	// most it keeps, and by landing order beyond either bound.
	keys, loads, hashes := make([]string, 1<<15+1), make([]int, 1<<15+1), make([]int, 1<<15+1)
	for i := range keys {
		keys[i], loads[i], hashes[i] = fmt.Sprint(i), 1, i
	}
	for _, c := range []struct {
		keys, n  int
		byNumber bool
	}{{256, 1 << 16, true}, {256, 1<<16 + 1, false}, {255, 255 * 256, true}, {255, 255*256 + 1, false},
		{1<<15 + 1, 1<<16 + 2, true}, {1<<15 + 1, 1<<16 + 3, false}} { // twice the keys past 2^16
		var pl partitionLoads
		p, _ := pl.spread(keys[:c.keys], loads[:c.keys], hashes[:c.keys], c.n, math.MaxInt)
		if byNumber := len(pl.usedBy) == c.n; byNumber != c.byNumber || p.Used != c.keys || p.HeaviestLoad != 1 {
			t.Errorf("%d keys over %d partitions: room by partition %v, %+v; want %v, every key in a partition of its own", c.keys, c.n, byNumber, p, c.byNumber)
		}
	}
}

// TestSweepBatchCountsNewLaneNames pins that a batch counts the name of
// each lane a LaneFunc opens, once, beside its event's key: each event
// here has a key of 2 bytes and opens a lane whose name takes the rest of
// a quarter of sweepBatchBytes, so the first batch is the first four
// events, and a run that cannot fit in one byte fails at index 3.
func TestSweepBatchCountsNewLaneNames(t *testing.T) {
	const quarter = sweepBatchBytes / 4
	named := NewLayout("named", func(e Event) (string, bool) { return e.Key + strings.Repeat("n", quarter-2-len(e.Key)), true })
	events := make([]Event, 10)
	for i := range events {
		events[i] = Event{Key: "k" + strconv.Itoa(i), Step: 1, Duration: 1}
	}
	_, err := Sweep(context.Background(), Values(events), []Config{{Layout: named, Consumers: 2}}, WithMaxMemory(1))
	var ev *EventError
	if !errors.As(err, &ev) || ev.Index != 3 {
		t.Fatalf("Sweep: %v, want an EventError at index 3", err)
	}
}
