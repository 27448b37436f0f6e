package konvoy_test

import (
	"fmt"
	"strings"

	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/lesson"
)

// Two orders, each created (step 1) then paid (step 2). The slow creation of
// order A finishes after its payment when any consumer may take any event. In
// the convoy the consumer that takes A's payment waits idle until A's lane is
// free (head-of-line blocking), and B's events queue behind it.
func ExampleSimulate() {
	events := []konvoy.Event{
		{Key: "A", Step: 1, Duration: 3},
		{Key: "A", Step: 2, Duration: 1},
		{Key: "B", Step: 1, Duration: 1},
		{Key: "B", Step: 2, Duration: 1},
	}
	for _, l := range []konvoy.Layout{konvoy.Free, konvoy.Convoy} {
		r, err := konvoy.Simulate(events, l, 2)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("%-7s rounds %d, backward writes %d, wrong keys %v\n", l, r.Rounds, r.BackwardWrites, r.WrongKeys)
	}
	// Output:
	// free    rounds 3, backward writes 1, wrong keys [A]
	// convoy  rounds 5, backward writes 0, wrong keys []
}

// A layout from your own grouping: here every customer's orders share a lane,
// a key coarser than the order and finer than the region.
func ExampleNewLayout() {
	byCustomer := konvoy.NewLayout("by-customer", func(e konvoy.Event) (string, bool) {
		customer, _, _ := strings.Cut(e.Key, "/")
		return customer, true
	})
	events := []konvoy.Event{
		{Key: "alice/1", Step: 1, Duration: 2},
		{Key: "alice/2", Step: 1, Duration: 2},
		{Key: "bob/1", Step: 1, Duration: 1},
		{Key: "alice/1", Step: 2, Duration: 1},
	}
	r, _ := konvoy.Simulate(events, byCustomer, 4)
	fmt.Printf("%s: %d lanes, heaviest %d, rounds %d\n", byCustomer, r.Lanes, r.HeaviestLane, r.Rounds)
	// Output:
	// by-customer: 2 lanes, heaviest 5, rounds 5
}

// Reading a Result: the lesson's events under free consumption.
func ExampleResult() {
	r, _ := konvoy.Simulate(lesson.Events(), konvoy.Free, 4)
	fmt.Printf("%d events of %d keys, work %d rounds, done in %d: parallelism %.2f\n",
		r.Events, r.Keys, r.Work, r.Rounds, r.Parallelism())
	fmt.Printf("%d backward writes, of which %d left a key wrong: %v\n", r.BackwardWrites, r.WrongFinal, r.WrongKeys)
	// Output:
	// 20 events of 5 keys, work 32 rounds, done in 8: parallelism 4.00
	// 5 backward writes, of which 1 left a key wrong: [TR-4821]
}

// Feeding a Simulator one event at a time gives the same Result as Simulate,
// in memory that grows with the keys, not the events.
func ExampleSimulator() {
	s, err := konvoy.NewSimulator(konvoy.Convoy, 4)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, e := range lesson.Events() {
		if err := s.Add(e); err != nil {
			fmt.Println(err)
			return
		}
	}
	r, _ := s.Result()
	fmt.Println(r.Rounds, r.Lanes, r.HeaviestLane)
	// Output:
	// 13 5 8
}

// From a layout's measured cost to the consumers a peak rate needs, when only
// the ordered share of the stream pays it.
func ExampleSelectiveMultiplier() {
	events := lesson.Events()
	free, _ := konvoy.Simulate(events, konvoy.Free, 4)
	convoy, _ := konvoy.Simulate(events, konvoy.Convoy, 4)
	cost := konvoy.Cost(convoy, free)
	ordered, unordered := konvoy.SplitRate(100, 0.5)
	fmt.Printf("convoy cost ×%.3f; half of 100 ev/s ordered: %.0f + %.0f ev/s, multiplier ×%.4f\n",
		cost, ordered, unordered, konvoy.SelectiveMultiplier(0.5, cost))
	// Output:
	// convoy cost ×1.625; half of 100 ev/s ordered: 50 + 50 ev/s, multiplier ×1.3125
}

// Bad input is an error that names the event and the field.
func ExampleSimulate_badInput() {
	_, err := konvoy.Simulate([]konvoy.Event{{Key: "A", Step: 1, Duration: 1}, {Key: "A", Step: 2, Duration: -1}}, konvoy.Convoy, 2)
	fmt.Println(err)
	// Output:
	// konvoy: event 1 (key "A"): Duration is -1; want 0 or more rounds
}

// The lesson estimates the selective convoy on paper: with an ordered share s
// and the convoy's cost on ordered events, the multiplier is s·cost + (1 − s).
// Simulated on lesson-style shipments of 7 events (the 4 ordered steps, each
// of the first three followed by a history-only record), the selective
// convoy here comes out cheaper than the formula says: the formula charges
// the ordered events the convoy's cost as if they ran apart, while in one
// stream the free history records keep consumers busy during the time
// ordered events wait for their lanes. On other traces the two can differ
// either way; the simulation is the figure to trust.
func ExampleSelectiveConvoy() {
	ordered, events := lesson.Events(), lesson.EventsWithHistory()
	run := func(evs []konvoy.Event, l konvoy.Layout) konvoy.Result {
		r, _ := konvoy.Simulate(evs, l, 4)
		return r
	}
	share := float64(len(ordered)) / float64(len(events))
	formula := konvoy.SelectiveMultiplier(share, konvoy.Cost(run(ordered, konvoy.Convoy), run(ordered, konvoy.Free)))
	free := run(events, konvoy.Free)
	selective := run(events, konvoy.SelectiveConvoy)
	convoy := run(events, konvoy.Convoy)
	fmt.Printf("%d events, ordered share %.3f\n", len(events), share)
	fmt.Printf("rounds: free %d, selective convoy %d, convoy %d\n", free.Rounds, selective.Rounds, convoy.Rounds)
	fmt.Printf("multiplier: simulated ×%.3f, formula ×%.3f; whole stream in the convoy ×%.3f\n",
		konvoy.Cost(selective, free), formula, konvoy.Cost(convoy, free))
	// Output:
	// 35 events, ordered share 0.571
	// rounds: free 14, selective convoy 15, convoy 24
	// multiplier: simulated ×1.071, formula ×1.357; whole stream in the convoy ×1.714
}
