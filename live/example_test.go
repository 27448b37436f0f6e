package live_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/live"
)

// update is an application's item: a shipment's new status.
type update struct {
	shipment string
	status   int
}

func (u update) event() konvoy.Event { return konvoy.Event{Key: u.shipment, Step: u.status} }

// A convoy keeps each shipment's updates in order while four consumers
// work on different shipments at once.
func Example() {
	var mu sync.Mutex
	applied := map[string][]int{}
	x, err := live.New(konvoy.Convoy, 4, update.event, func(ctx context.Context, u update) error {
		mu.Lock()
		defer mu.Unlock()
		applied[u.shipment] = append(applied[u.shipment], u.status)
		return nil
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	ctx := context.Background()
	for status := 1; status <= 4; status++ {
		for _, s := range []string{"TR-1", "TR-2", "TR-3"} {
			if err := x.Submit(ctx, update{s, status}); err != nil {
				fmt.Println(err)
			}
		}
	}
	if err := x.Close(ctx); err != nil {
		fmt.Println(err)
	}
	for _, s := range []string{"TR-1", "TR-2", "TR-3"} {
		fmt.Println(s, applied[s])
	}
	st := x.Stats()
	fmt.Println("done", st.Done, "of", st.Events, "held", st.Held)
	// Output:
	// TR-1 [1 2 3 4]
	// TR-2 [1 2 3 4]
	// TR-3 [1 2 3 4]
	// done 12 of 12 held 0
}

// A source read in batches hands each batch over at once: SubmitAll takes
// the items in order, as that many Submit calls would, stamping them with
// one submission time, and stops at the first it cannot take, here an
// order without a line under the line convoy.
func ExampleExecutor_SubmitAll() {
	var mu sync.Mutex
	var ran []string
	x, err := live.New(konvoy.LineConvoy, 2, func(e konvoy.Event) konvoy.Event { return e }, func(_ context.Context, e konvoy.Event) error {
		mu.Lock()
		defer mu.Unlock()
		ran = append(ran, e.Key)
		return nil
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	batch := []konvoy.Event{{Key: "o1", Line: "L1"}, {Key: "o2", Line: "L1"}, {Key: "o3"}, {Key: "o4", Line: "L2"}}
	n, err := x.SubmitAll(context.Background(), batch)
	fmt.Println("took", n, "of", len(batch))
	fmt.Println(err)
	if err := x.Close(context.Background()); err != nil {
		fmt.Println(err)
	}
	fmt.Println(ran) // one line's orders, in order
	// Output:
	// took 2 of 4
	// live: Submit: event 2 (key "o3"): Line is empty; want a line: layout line-convoy puts events in lanes by line
	// [o1 o2]
}

// An item that still fails after its last attempt goes to the dead letter,
// and its lane moves on.
func ExampleWithDeadLetter() {
	var mu sync.Mutex
	var log []string
	x, err := live.New(konvoy.Convoy, 2, update.event, func(ctx context.Context, u update) error {
		if u.status == 2 {
			return errors.New("carrier unreachable")
		}
		mu.Lock()
		defer mu.Unlock()
		log = append(log, fmt.Sprintf("%s applied %d", u.shipment, u.status))
		return nil
	},
		live.WithRetry(live.Retry{Attempts: 3, Base: time.Microsecond, Cap: time.Millisecond, Jitter: 0.2, Seed: 1}),
		live.WithDeadLetter(func(ctx context.Context, u update, err error) error {
			mu.Lock()
			defer mu.Unlock()
			log = append(log, fmt.Sprintf("%s dead letter %d: %v", u.shipment, u.status, err))
			return nil
		}))
	if err != nil {
		fmt.Println(err)
		return
	}
	for status := 1; status <= 3; status++ {
		if err := x.Submit(context.Background(), update{"TR-9", status}); err != nil {
			fmt.Println(err)
		}
	}
	if err := x.Close(context.Background()); err != nil {
		fmt.Println(err)
	}
	fmt.Println(strings.Join(log, "\n"))
	st := x.Stats()
	fmt.Println("done", st.Done, "dead letters", st.DeadLetters, "errors", st.Errors, "retries", st.Retries)
	// Output:
	// TR-9 applied 1
	// TR-9 dead letter 2: live: item 1 (key "TR-9", step 2, lane "TR-9"): 3 attempts: carrier unreachable
	// TR-9 applied 3
	// done 2 dead letters 1 errors 3 retries 2
}

// When Close's context ends before the executor has drained, the running
// handlers see their context cancelled and Close returns the items that
// did not run.
func ExampleExecutor_Close() {
	x, err := live.New(konvoy.Convoy, 1, update.event, func(ctx context.Context, u update) error {
		<-ctx.Done() // a handler that runs until it is told to stop
		return ctx.Err()
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	for status := 1; status <= 3; status++ {
		if err := x.Submit(context.Background(), update{"TR-5", status}); err != nil {
			fmt.Println(err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
	defer cancel()
	err = x.Close(ctx)
	var unrun *live.UnrunError[update]
	if errors.As(err, &unrun) {
		fmt.Println(unrun.Items, errors.Is(err, context.DeadlineExceeded))
	}
	// Output:
	// [{TR-5 1} {TR-5 2} {TR-5 3}] true
}

// Items read from a partitioned source finish out of order; Completion
// tells, per partition, the offset to commit and what finished above it.
func ExampleExecutor_Completion() {
	type record struct {
		key       string
		partition int
		offset    int64
	}
	release := make(chan struct{})
	x, err := live.New(konvoy.Convoy, 2, func(r record) konvoy.Event { return konvoy.Event{Key: r.key} },
		func(ctx context.Context, r record) error {
			if r.offset == 11 {
				<-release // a slow item holds its partition's commit back
			}
			return nil
		},
		live.WithOffsets(func(r record) (int, int64) { return r.partition, r.offset }))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range []record{{"a", 0, 10}, {"b", 0, 11}, {"a", 0, 12}, {"a", 0, 13}, {"c", 1, 7}} {
		if err := x.Submit(context.Background(), r); err != nil {
			fmt.Println(err)
		}
	}
	for { // wait until everything but the slow item has finished, and Completion counts it so
		if c := x.Completion(); len(c) == 2 && c[0].Committable == 11 && len(c[0].Finished) == 2 && c[1].Committable == 8 {
			fmt.Printf("%+v\n", c)
			break
		}
		time.Sleep(time.Millisecond)
	}
	close(release)
	if err := x.Close(context.Background()); err != nil {
		fmt.Println(err)
	}
	fmt.Printf("%+v\n", x.Completion())
	// Output:
	// [{Partition:0 Committable:11 Finished:[12 13]} {Partition:1 Committable:8 Finished:[]}]
	// [{Partition:0 Committable:14 Finished:[]} {Partition:1 Committable:8 Finished:[]}]
}

// The resequencer runs a shipment's updates in step order, as the
// simulator's does under the same configuration: with room to hold one
// update, status 3 waits for 2 until 4 comes and needs the room; 3 is
// then released with 2 skipped, 4 follows it, and 2, arriving late, is
// rejected rather than set the shipment back.
func ExampleWithResequencer() {
	var applied []int
	x, err := live.New(konvoy.Resequencer, 1, update.event, func(ctx context.Context, u update) error {
		applied = append(applied, u.status) // one consumer: no lock needed
		return nil
	}, live.WithResequencer(konvoy.ResequencerConfig{Capacity: 1, RejectOld: true}, 0))
	if err != nil {
		fmt.Println(err)
		return
	}
	ctx := context.Background()
	for _, status := range []int{1, 3, 4, 2} {
		if err := x.Submit(ctx, update{"TR-1", status}); err != nil {
			fmt.Println(err)
		}
	}
	if err := x.Close(ctx); err != nil {
		fmt.Println(err)
	}
	st := x.Stats()
	fmt.Println("applied", applied)
	fmt.Println("held", st.Buffered, "forced", st.Forced, "gaps skipped", st.GapsSkipped, "rejected", st.RejectedOld)
	// Output:
	// applied [1 3 4]
	// held 1 forced 1 gaps skipped 1 rejected 1
}

// Lanes shows where items wait now: two consumers run shipment TR-1's
// first update and TR-2's, both stuck, and TR-1's second update waits in
// its lane; the longest wait comes first.
func ExampleExecutor_Lanes() {
	gate := make(chan struct{})
	started := make(chan struct{}, 3)
	x, err := live.New(konvoy.Convoy, 2, update.event, func(ctx context.Context, u update) error {
		started <- struct{}{}
		<-gate // a slow downstream call
		return nil
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	ctx := context.Background()
	for _, u := range []update{{"TR-1", 1}, {"TR-2", 1}, {"TR-1", 2}} {
		if err := x.Submit(ctx, u); err != nil {
			fmt.Println(err)
		}
	}
	<-started
	<-started
	for _, l := range x.Lanes(10) {
		fmt.Println(l.Lane, "held", l.Held, "running", l.Running) // and l.Wait, how long TR-1 #2 has waited
	}
	close(gate)
	if err := x.Close(ctx); err != nil {
		fmt.Println(err)
	}
	fmt.Println("lanes after Close:", len(x.Lanes(10)))
	// Output:
	// TR-1 held 1 running true
	// TR-2 held 0 running true
	// lanes after Close: 0
}
