package konvoy_test

import (
	"fmt"

	"github.com/sirali-konvoy/konvoy"
)

func rounds(events []konvoy.Event, consumers int) string {
	out := ""
	for _, p := range konvoy.Policies() {
		r, _ := konvoy.Simulate(events, konvoy.Convoy, consumers, konvoy.WithPolicy(p))
		out += fmt.Sprintf(" %s %d", p, r.Rounds)
	}
	return out
}

// Head-of-line blocking costs a round here: the second consumer takes A's
// second event and waits for A's lane, while B's event, free to run, waits
// behind it. A lane-aware broker (Service Bus sessions, SQS FIFO message
// groups) lets that consumer run B first; static assignment gets there too,
// by giving B's lane a consumer of its own.
func ExampleLaneAware() {
	events := []konvoy.Event{
		{Key: "A", Step: 1, Duration: 2},
		{Key: "A", Step: 2, Duration: 1},
		{Key: "B", Step: 1, Duration: 2},
	}
	fmt.Println("rounds:" + rounds(events, 2))
	// Output:
	// rounds: head-of-line 4 lane-aware 3 static 3
}

// Static assignment costs a round here: lanes A and C both belong to the
// first consumer (round-robin in the order lanes appear), which works
// through both while the second consumer, done with B, has nothing to do.
func ExampleStatic() {
	events := []konvoy.Event{
		{Key: "A", Step: 1, Duration: 2},
		{Key: "B", Step: 1, Duration: 1},
		{Key: "C", Step: 1, Duration: 2},
	}
	fmt.Println("rounds:" + rounds(events, 2))
	// Output:
	// rounds: head-of-line 3 lane-aware 3 static 4
}

// Lane-aware dispatch is not always best. rapid found this case: at round 2
// the free consumer takes the oldest event it can, K1's, and K2's second
// event, on the longest chain, starts a round later than under static
// assignment, where K2's lane has a consumer to itself.
func ExamplePolicy_laneAwareLosesToStatic() {
	events := []konvoy.Event{
		{Key: "K0", Step: 1, Duration: 3},
		{Key: "K2", Step: 1, Duration: 2},
		{Key: "K1", Step: 1, Duration: 1},
		{Key: "K2", Step: 2, Duration: 2},
	}
	fmt.Println("rounds:" + rounds(events, 2))
	// Output:
	// rounds: head-of-line 5 lane-aware 5 static 4
}

// Events that arrive over time: latency is what users watch. Wait runs from
// arrival to start, response from arrival to finish.
func ExampleLatency() {
	events := []konvoy.Event{
		{Key: "A", Step: 1, Duration: 3, Arrival: 0},
		{Key: "A", Step: 2, Duration: 1, Arrival: 1},
		{Key: "B", Step: 1, Duration: 1, Arrival: 1},
		{Key: "B", Step: 2, Duration: 1, Arrival: 2},
	}
	for _, p := range []konvoy.Policy{konvoy.HeadOfLine, konvoy.LaneAware} {
		r, _ := konvoy.Simulate(events, konvoy.Convoy, 2, konvoy.WithPolicy(p))
		fmt.Printf("%-12s wait p50 %d max %d, response p50 %d max %d, worst lane %s (%d)\n", p,
			r.Wait.P50, r.Wait.Max, r.Response.P50, r.Response.Max, r.WorstLanes[0].Lane, r.WorstLanes[0].MaxWait)
	}
	// Output:
	// head-of-line wait p50 2 max 2, response p50 3 max 3, worst lane B (2)
	// lane-aware   wait p50 0 max 2, response p50 1 max 3, worst lane A (2)
}
