package konvoy_test

import (
	"slices"
	"testing"

	"github.com/sirali-konvoy/konvoy"
)

// consumersOf runs events, all arriving at round 0 on their own keys, under
// the free layout and head-of-line dispatch on the given consumers, and
// returns the consumer of each event from the schedule, in input order.
func consumersOf(t *testing.T, durations []int, consumers int) []int {
	t.Helper()
	events := make([]konvoy.Event, len(durations))
	for i, d := range durations {
		events[i] = konvoy.Event{Key: string(rune('A' + i)), Duration: d}
	}
	r, err := konvoy.Simulate(events, konvoy.Free, consumers, konvoy.WithSchedule(len(events)))
	if err != nil {
		t.Fatal(err)
	}
	ids := make([]int, len(r.Schedule))
	for _, s := range r.Schedule {
		ids[s.Index] = s.Consumer
	}
	return ids
}

// The next event goes to the consumer free earliest, the lowest index among
// ties, whichever way the tie came about. On three consumers, events of 5,
// 5 and 10 rounds take consumers 0, 1 and 2; the fourth, of 1 round, goes
// to consumer 0, the lower of the two free at 5, and the fifth to consumer
// 1, free at 5 while consumer 0 is busy until 6. The tie at 5 is already
// there when consumer 2 is first made busy, which rebuilds the consumers'
// tree: it must keep the lower index as the winner of the tie.
func TestATieBetweenConsumersBeforeTheQueueGrowsGoesToTheLowerIndex(t *testing.T) {
	if got, want := consumersOf(t, []int{5, 5, 10, 1, 1}, 3), []int{0, 1, 2, 0, 1}; !slices.Equal(got, want) {
		t.Errorf("consumers %v; want %v", got, want)
	}
}

// As above, but the tie comes about when the lower-indexed consumer is made
// busy until the time the higher one is already busy until: events of 3, 5
// and 10 rounds take consumers 0, 1 and 2; the fourth, of 2 rounds, takes
// consumer 0, free first at 3, which is then busy until 5 like consumer 1;
// the fifth must go to consumer 0, the lower index, and the sixth to 1.
func TestATieMadeByTheLowerConsumerGoesToTheLowerIndex(t *testing.T) {
	if got, want := consumersOf(t, []int{3, 5, 10, 2, 1, 1}, 3), []int{0, 1, 2, 0, 0, 1}; !slices.Equal(got, want) {
		t.Errorf("consumers %v; want %v", got, want)
	}
}

// A consumer that has run an event and is free at round 0 (its event took
// no time) comes before any consumer never used: it is free as early and
// has the lower index. So an event of no time and the one after it, both
// arriving at round 0, run on consumer 0, and a third, arriving while
// consumer 0 runs the second, on consumer 1.
func TestAConsumerFreeAtRoundZeroComesBeforeAnUnusedOne(t *testing.T) {
	if got, want := consumersOf(t, []int{0, 1, 1}, 3), []int{0, 0, 1}; !slices.Equal(got, want) {
		t.Errorf("consumers %v; want %v", got, want)
	}
}

// As above, with the tie made by the higher-indexed consumer: on two
// consumers, events of 5 rounds take consumers 0 and 1, both then busy
// until 5, and a third event must go to consumer 0, the lower index.
func TestATieMadeByTheHigherConsumerGoesToTheLowerIndex(t *testing.T) {
	if got, want := consumersOf(t, []int{5, 5, 1}, 2), []int{0, 1, 0}; !slices.Equal(got, want) {
		t.Errorf("consumers %v; want %v", got, want)
	}
}
