package konvoy_test

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/sirali-konvoy/konvoy"
)

// Under FirstSeenAssignor, too, Recorded(n)'s n lanes go to the first n
// consumers in the order they open, so a consumer past the n-th never
// takes an event and must not hold the run's events: the run on 3
// consumers is the run on 2, within the same backlog.
func TestAConsumerWithoutALaneHoldsNoEventsUnderFirstSeen(t *testing.T) {
	var events []konvoy.Event
	for i := range 1000 {
		events = append(events, konvoy.Event{Key: fmt.Sprint("k", i%10), Step: 1 + i/10, Duration: 1 + i%3, Partition: i % 2})
	}
	opts := []konvoy.Option{konvoy.WithPolicy(konvoy.Static), konvoy.WithAssignor(konvoy.FirstSeenAssignor), konvoy.WithMaxBacklog(10)}
	two, err := konvoy.Simulate(events, konvoy.Recorded(2), 2, opts...)
	if err != nil {
		t.Fatalf("on 2 consumers: %v", err)
	}
	three, err := konvoy.Simulate(events, konvoy.Recorded(2), 3, opts...)
	if err != nil {
		t.Fatalf("on 3 consumers, one of them with no lane: %v; want the run on 2, which holds no more than 10", err)
	}
	if !reflect.DeepEqual(two, three) {
		t.Errorf("on 3 consumers %+v; want the run on 2, %+v", three, two)
	}
}
