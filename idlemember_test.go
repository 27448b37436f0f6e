package konvoy_test

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/sirali-konvoy/konvoy"
)

// A consumer that can never take an event must not make a run hold its
// events. Under Static on Recorded(n), a group of more than n consumers
// deals no partition to the consumers past the n-th (RangeAssignor and
// RoundRobinAssignor alike, as Kafka's leave them idle), so the run is the
// one on n consumers: NewSimulator's doc says consumers "cost memory only
// once they take an event ... so a run costs what its events need however
// many consumers it has", and the planners run counts up to the events on
// exactly that ground. Today the idle consumer is taken to be free at round
// 0 for ever, so no event that finishes after the latest arrival is
// applied before the run ends: a batch of any length is held whole, its
// memory grows with the events, and WithMaxBacklog fails a run that on n
// consumers holds nothing.
func TestAConsumerWithoutAPartitionHoldsNoEvents(t *testing.T) {
	var events []konvoy.Event
	for i := range 1000 {
		events = append(events, konvoy.Event{Key: fmt.Sprint("k", i%10), Step: 1 + i/10, Duration: 1, Partition: i % 2})
	}
	for _, a := range []konvoy.Assignor{konvoy.RangeAssignor, konvoy.RoundRobinAssignor} {
		opts := []konvoy.Option{konvoy.WithPolicy(konvoy.Static), konvoy.WithAssignor(a)}
		two, err := konvoy.Simulate(events, konvoy.Recorded(2), 2, append(opts, konvoy.WithMaxBacklog(10))...)
		if err != nil {
			t.Fatalf("%v on 2 consumers: %v", a, err)
		}
		three, err := konvoy.Simulate(events, konvoy.Recorded(2), 3, append(opts, konvoy.WithMaxBacklog(10))...)
		if err != nil {
			t.Errorf("%v on 3 consumers, one of them dealt no partition: %v; want the run on 2, which holds no more than 10", a, err)
			continue
		}
		if !reflect.DeepEqual(two, three) {
			t.Errorf("%v: on 3 consumers %+v; want the run on 2, %+v", a, three, two)
		}
	}
}
