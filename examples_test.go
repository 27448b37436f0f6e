package konvoy_test

import (
	"fmt"
	"strings"

	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/lesson"
	"github.com/sirali-konvoy/konvoy/synth"
)

// Every example of the root package, in the order a reader meets the API:
// a run and its Result, layouts, policies and latency, the capacity
// arithmetic, the planner, partitions, and last the two examples that
// reproduce the lesson's printouts.

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

// The lesson's peak of 97.22 events/s, with a round of 10 ms: the lesson's
// twenty events must run in at most 20.57 rounds.
func ExamplePlanConsumers() {
	events := konvoy.Values(lesson.Events())
	for _, seconds := range []float64{0.010, 0.020} {
		fmt.Printf("a round of %gs:\n", seconds)
		for _, l := range lesson.Layouts()[:3] {
			p, err := konvoy.PlanConsumers(events, l, konvoy.PlanConfig{Peak: lesson.PeakRate, RoundSeconds: seconds})
			if err != nil {
				fmt.Println(err)
				return
			}
			if p.Consumers == 0 {
				fmt.Printf("  %-12s cannot keep up: at most %.1f events/s, %d rounds set by lane %s\n", p.Layout, p.Ceiling, p.CeilingRounds, p.CeilingLane)
				continue
			}
			fmt.Printf("  %-12s %d consumers, %.1f events/s (ceiling %.1f)\n", p.Layout, p.Consumers, p.Rate, p.Ceiling)
		}
	}
	// Output:
	// a round of 0.01s:
	//   free         2 consumers, 125.0 events/s (ceiling 500.0)
	//   convoy       2 consumers, 117.6 events/s (ceiling 250.0)
	//   line-convoy  4 consumers, 105.3 events/s (ceiling 142.9)
	// a round of 0.02s:
	//   free         4 consumers, 125.0 events/s (ceiling 250.0)
	//   convoy       7 consumers, 100.0 events/s (ceiling 125.0)
	//   line-convoy  cannot keep up: at most 71.4 events/s, 14 rounds set by lane H2
}

// On the lesson's five shipments, few partitions put shipments behind each
// other; this is the count at which that stops costing anything.
func ExamplePartitionsFor() {
	p, found, err := konvoy.PartitionsFor(konvoy.Values(lesson.Events()), 0, 64)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("found %v: %d partitions, %d used, heaviest partition %d carries %d rounds, all of it %s's\n",
		found, p.Partitions, p.Used, p.HeaviestPartition, p.HeaviestLoad, p.HeaviestKey)
	// Output:
	// found true: 5 partitions, 5 used, heaviest partition 2 carries 8 rounds, all of it TR-2214's
}

// QuoteKey writes a key as the reports do: as it is when it reads as one
// name, quoted when it would not.
func ExampleQuoteKey() {
	for _, k := range []string{"TR-2214", "a b", "", "line\nbreak", "\xff"} {
		fmt.Println(konvoy.QuoteKey(k))
	}
	// Output:
	// TR-2214
	// "a b"
	// ""
	// "line\nbreak"
	// "\xff"
}

// This example prints, from the public API only, what the lesson's olc.mjs
// prints, byte for byte: its Turkish ASCII labels and column widths included
// (the lesson's printout is kept in testdata/lesson/olc.txt, and a test holds
// this example's output to it). The layouts are serbest (Free), konvoy (Convoy), konvoy-hat (LineConvoy)
// and surum-damgasi (VersionStamp).
func Example_lessonMeasures() {
	const tuketici = lesson.Consumers
	olay := lesson.Events()
	duzen := []struct {
		ad     string
		layout konvoy.Layout
	}{{"serbest", konvoy.Free}, {"konvoy", konvoy.Convoy}, {"konvoy-hat", konvoy.LineConvoy}, {"surum-damgasi", konvoy.VersionStamp}}
	sonuc := make([]konvoy.Result, len(duzen))
	for i, d := range duzen {
		sonuc[i], _ = konvoy.Simulate(olay, d.layout, tuketici)
	}

	fmt.Printf("%d durum olayi, %d gonderi, %d tuketici, toplam is yuku %d tur\n",
		sonuc[0].Events, sonuc[0].Keys, tuketici, sonuc[0].Work)
	fmt.Println()
	fmt.Printf("%-18s", "olcu")
	for _, d := range duzen {
		fmt.Printf("%15s", d.ad)
	}
	fmt.Println()
	satirlar := []struct {
		ad  string
		deg func(konvoy.Result) int
	}{
		{"geriye yazma", func(r konvoy.Result) int { return r.BackwardWrites }},
		{"yanlis son durum", func(r konvoy.Result) int { return r.WrongFinal }},
		{"atlanan olay", func(r konvoy.Result) int { return r.Skipped }},
		{"tur", func(r konvoy.Result) int { return r.Rounds }},
		{"serit", func(r konvoy.Result) int { return r.Lanes }},
		{"en yuklu serit", func(r konvoy.Result) int { return r.HeaviestLane }},
	}
	for _, s := range satirlar {
		fmt.Printf("%-18s", s.ad)
		for _, r := range sonuc {
			fmt.Printf("%15d", s.deg(r))
		}
		fmt.Println()
	}

	serbest, konvoyR, hat, damga := sonuc[0], sonuc[1], sonuc[2], sonuc[3]
	fmt.Printf("\nserbest duzende yanlis son duruma dusen gonderiler = %s\n", strings.Join(serbest.WrongKeys, ", "))
	fmt.Printf("konvoy / serbest tur orani = %.3f, hat konvoyu / serbest = %.3f\n",
		float64(konvoyR.Rounds)/float64(serbest.Rounds), float64(hat.Rounds)/float64(serbest.Rounds))
	fmt.Printf("etkin kosutluk = is yuku / tur: serbest %.2f, konvoy %.2f, hat konvoyu %.2f\n",
		serbest.Parallelism(), konvoyR.Parallelism(), hat.Parallelism())
	fmt.Printf("damga duzeninde durum gecmisinde eksik kalan adim = %d\n", damga.Skipped)

	fmt.Printf("\n%-10s", "tuketici")
	for _, d := range duzen[:3] {
		fmt.Printf("%12s", d.ad)
	}
	fmt.Println()
	for _, t := range []int{1, 2, 4, 8} {
		fmt.Printf("%-10d", t)
		for _, d := range duzen[:3] {
			r, _ := konvoy.Simulate(olay, d.layout, t)
			fmt.Printf("%12d", r.Rounds)
		}
		fmt.Println()
	}
	// Output:
	// 20 durum olayi, 5 gonderi, 4 tuketici, toplam is yuku 32 tur
	//
	// olcu                      serbest         konvoy     konvoy-hat  surum-damgasi
	// geriye yazma                    5              0              0              5
	// yanlis son durum                1              0              0              0
	// atlanan olay                    0              0              0              5
	// tur                             8             13             19              8
	// serit                           0              5              3              0
	// en yuklu serit                  0              8             14              0
	//
	// serbest duzende yanlis son duruma dusen gonderiler = TR-4821
	// konvoy / serbest tur orani = 1.625, hat konvoyu / serbest = 2.375
	// etkin kosutluk = is yuku / tur: serbest 4.00, konvoy 2.46, hat konvoyu 1.68
	// damga duzeninde durum gecmisinde eksik kalan adim = 5
	//
	// tuketici       serbest      konvoy  konvoy-hat
	// 1                   32          32          32
	// 2                   16          17          23
	// 4                    8          13          19
	// 8                    5           9          14
}

// This example prints, from the public API only, what the lesson's hesap.mjs
// prints, byte for byte: the lesson's capacity table for the ordered shares
// (KK1) 4/7 and 5/7 at the peak write rate of 97.22 events per second (the
// lesson's printout is kept in testdata/lesson/hesap.txt, and a test holds
// this example's output to it).
func Example_lessonCapacity() {
	const tepeYazma = lesson.PeakRate
	olay := lesson.Events()
	tur := func(l konvoy.Layout, t int) konvoy.Result {
		r, _ := konvoy.Simulate(olay, l, t)
		return r
	}
	serbest := tur(konvoy.Free, lesson.Consumers)
	maliyetKonvoy := konvoy.Cost(tur(konvoy.Convoy, lesson.Consumers), serbest)
	maliyetHat := konvoy.Cost(tur(konvoy.LineConvoy, lesson.Consumers), serbest)

	fmt.Printf("%5s%16s%17s%11s%15s\n", "KK1", "kisitli olay/s", "kisitsiz olay/s", "konvoy x", "hat konvoyu x")
	for _, kk1 := range []float64{4.0 / 7, 5.0 / 7} {
		kisitli, kisitsiz := konvoy.SplitRate(tepeYazma, kk1)
		fmt.Printf("%5.3f%16.2f%17.2f%11.3f%15.3f\n", kk1, kisitli, kisitsiz,
			konvoy.SelectiveMultiplier(kk1, maliyetKonvoy), konvoy.SelectiveMultiplier(kk1, maliyetHat))
	}
	fmt.Printf("\ntum akis konvoya sokulursa: konvoy x%.3f, hat konvoyu x%.3f\n", maliyetKonvoy, maliyetHat)
	fmt.Printf("serit yuku tavani (8 tuketici): konvoy %d tur, hat konvoyu %d tur, serbest %d tur\n",
		tur(konvoy.Convoy, 8).Rounds, tur(konvoy.LineConvoy, 8).Rounds, tur(konvoy.Free, 8).Rounds)
	// Output:
	//   KK1  kisitli olay/s  kisitsiz olay/s   konvoy x  hat konvoyu x
	// 0.571           55.55            41.67      1.357          1.786
	// 0.714           69.44            27.78      1.446          1.982
	//
	// tum akis konvoya sokulursa: konvoy x1.625, hat konvoyu x2.375
	// serit yuku tavani (8 tuketici): konvoy 9 tur, hat konvoyu 14 tur, serbest 5 tur
}

// A trace cut from a longer stream starts its keys mid-lifecycle: here at
// step 2. The lesson's resequencer waits for step 1 forever; first-seen
// takes each key's first step as its start, and a timeout gives up on a gap
// that never fills.
func ExampleWithResequencer() {
	events := []konvoy.Event{
		{Key: "K0", Step: 2, Duration: 1}, {Key: "K1", Step: 2, Duration: 1},
		{Key: "K0", Step: 3, Duration: 1}, {Key: "K1", Step: 4, Duration: 1},
	}
	for _, c := range []konvoy.ResequencerConfig{
		{},
		{Start: konvoy.StartFirstSeen},
		{Start: konvoy.StartFirstSeen, Timeout: 2},
	} {
		r, err := konvoy.Simulate(events, konvoy.Resequencer, 2, konvoy.WithResequencer(c))
		if err != nil {
			panic(err)
		}
		fmt.Printf("start %s, timeout %d: wrong %d, never applied %d, gaps skipped %d\n",
			c.Start, c.Timeout, r.WrongFinal, r.NeverApplied, r.GapsSkipped)
	}
	// Output:
	// start zero, timeout 0: wrong 2, never applied 4, gaps skipped 0
	// start first-seen, timeout 0: wrong 1, never applied 1, gaps skipped 0
	// start first-seen, timeout 2: wrong 0, never applied 0, gaps skipped 1
}

// A synthetic trace of 5,000 events arriving at 0.8 a round, with a few hot
// keys: the fewest consumers that keep the 99th percentile of the response
// within 20 rounds. Free consumption needs five, four-fifths busy; the
// convoy more than twice as many, mostly idle while the hottest key's lane
// queues; sixteen partitions never get there, as partition 14's own load,
// run back to back, already takes 29 rounds.
func ExamplePlanLatency() {
	cfg := synth.Default()
	cfg.Events, cfg.Keys, cfg.KeySkew, cfg.Lines = 5000, 200, 0.9, 10
	cfg.Duration, cfg.Rate = synth.Uniform(1, 9), 0.8
	layouts := []konvoy.Layout{konvoy.Free, konvoy.Convoy, konvoy.Partitioned(16)}
	slo := konvoy.SLO{Percentile: 99, Rounds: 20}
	plans, err := konvoy.PlanLatency(synth.Events(cfg), layouts, konvoy.LatencyConfig{SLO: slo, MaxConsumers: 64})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, p := range plans {
		if !p.Meets {
			fmt.Printf("%-14s none meets %s: at best %d rounds; lane %s alone reaches %d\n", p.Layout, p.SLO, p.Achieved, p.FloorLane, p.Floor)
			continue
		}
		fmt.Printf("%-14s %d consumers: p99 %d rounds, %.0f%% busy, worst lane %q\n", p.Layout, p.Consumers, p.Achieved, 100*p.Utilisation, p.WorstLane)
	}
	// Output:
	// free           5 consumers: p99 16 rounds, 79% busy, worst lane ""
	// convoy         11 consumers: p99 20 rounds, 36% busy, worst lane "K001"
	// partitioned:16 none meets p99=20 rounds of response: at best 29 rounds; lane 14 alone reaches 29
}
