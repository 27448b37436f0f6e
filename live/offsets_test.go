package live

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/sirali-konvoy/konvoy"
	"pgregory.net/rapid"
)

// sourced is an item read from a partitioned source.
type sourced struct {
	seq       int
	key       string
	partition int
	offset    int64
	fails     int
}

// The committable offset never passes an unfinished item: whenever a
// handler asks, every item of a partition below its Committable has
// finished (the test marks an item finished before its handler or dead
// letter returns, so its marks are never behind the executor's), and
// every offset in Finished has. Once Close has returned, Committable is
// exactly the offset of the partition's first unfinished item, or its last
// offset plus 1, and Finished exactly the finished offsets above it. Items
// fail, are dead-lettered or stop the executor, and Close may give up. A
// partition's items run past several of the chunks the executor keeps
// them in (chunkLen), so that chunks are linked, left and reused. So too
// when each partition's items are submitted by a goroutine of its own.
func TestCommittableNeverPassesAnUnfinishedItem(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(0, 5*chunkLen).Draw(t, "items")
		next := make([]int64, 3)
		items := make([]sourced, n)
		for i := range items {
			p := rapid.IntRange(0, 2).Draw(t, "partition")
			next[p] += int64(rapid.IntRange(1, 3).Draw(t, "gap"))
			items[i] = sourced{seq: i, key: rapid.SampledFrom([]string{"a", "b", "c", "d"}).Draw(t, "key"),
				partition: p, offset: next[p], fails: rapid.SampledFrom([]int{0, 0, 0, 1, 3}).Draw(t, "fails")}
		}
		dead := rapid.Bool().Draw(t, "dead")
		giveUp := rapid.Bool().Draw(t, "giveUp")
		var mu sync.Mutex
		finished := map[int]bool{}
		attempts := map[int]int{}
		var faults []string
		var x *Executor[sourced]
		check := func() { // under mu
			for _, c := range x.Completion() {
				for _, it := range items {
					if it.partition != c.Partition {
						continue
					}
					if it.offset < c.Committable && !finished[it.seq] {
						faults = append(faults, fmt.Sprintf("partition %d committable %d past item %d at %d, unfinished", c.Partition, c.Committable, it.seq, it.offset))
					}
					if slices.Contains(c.Finished, it.offset) && (!finished[it.seq] || it.offset <= c.Committable) {
						faults = append(faults, fmt.Sprintf("partition %d lists %d finished above %d", c.Partition, it.offset, c.Committable))
					}
				}
			}
		}
		opts := []Option{WithMaxHeld(rapid.IntRange(1, 10).Draw(t, "maxHeld")), WithRetry(Retry{Attempts: 2}),
			WithPolicy(rapid.SampledFrom(konvoy.Policies()).Draw(t, "policy")),
			WithOffsets(func(s sourced) (int, int64) { return s.partition, s.offset })}
		if dead {
			opts = append(opts, WithDeadLetter(func(ctx context.Context, s sourced, err error) error {
				mu.Lock()
				defer mu.Unlock()
				finished[s.seq] = true
				return nil
			}))
		}
		x, err := New(konvoy.Convoy, rapid.IntRange(1, 4).Draw(t, "consumers"), func(s sourced) konvoy.Event { return konvoy.Event{Key: s.key} },
			func(ctx context.Context, s sourced) error {
				mu.Lock()
				defer mu.Unlock()
				check()
				attempts[s.seq]++
				if attempts[s.seq] <= s.fails {
					return errors.New("fails")
				}
				finished[s.seq] = true
				return nil
			}, opts...)
		if err != nil {
			t.Fatal(err)
		}
		// One goroutine submits every item, or, as a consumer of a source
		// that runs a goroutine per partition does, each partition's items
		// are submitted by a goroutine of its own, all at once.
		accepted := map[int]bool{}
		var refusals []error
		submit := func(partition int) {
			for _, it := range items {
				if partition >= 0 && it.partition != partition {
					continue
				}
				err := x.Submit(context.Background(), it)
				mu.Lock()
				if err == nil {
					accepted[it.seq] = true
				} else if !errors.Is(err, ErrStopped) {
					refusals = append(refusals, err)
				}
				mu.Unlock()
			}
		}
		if rapid.Bool().Draw(t, "goroutinePerPartition") {
			var submitting sync.WaitGroup
			for p := range len(next) {
				submitting.Go(func() { submit(p) })
			}
			submitting.Wait()
		} else {
			submit(-1)
		}
		if len(refusals) > 0 {
			t.Fatal(refusals[0])
		}
		ctx, cancel := context.WithTimeout(context.Background(), deadline)
		defer cancel()
		if giveUp {
			cancel()
		}
		_ = x.Close(ctx)
		mu.Lock()
		defer mu.Unlock()
		check()
		if len(faults) > 0 {
			t.Fatalf("%d faults, the first: %s", len(faults), faults[0])
		}
		var wants []Completion
		for p := range 3 {
			var offsets []int64
			var done []bool
			for _, it := range items { // in offset order within the partition
				if it.partition == p && accepted[it.seq] {
					offsets, done = append(offsets, it.offset), append(done, finished[it.seq])
				}
			}
			if len(offsets) > 0 {
				wants = append(wants, wantCompletion(p, offsets, done))
			}
		}
		got := x.Completion()
		if fmt.Sprint(got) != fmt.Sprint(wants) {
			t.Fatalf("Completion() = %v; want %v", got, wants)
		}
	})
}

// Submit refuses an offset that does not rise within its partition, or
// is negative, and takes the item of another partition.
func TestSubmitRefusesFallingOffsets(t *testing.T) {
	x, err := New(konvoy.Convoy, 1, func(s sourced) konvoy.Event { return konvoy.Event{Key: s.key} },
		func(context.Context, sourced) error { return nil },
		WithOffsets(func(s sourced) (int, int64) { return s.partition, s.offset }))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		s  sourced
		ok bool
	}{{sourced{key: "a", offset: 5}, true}, {sourced{key: "a", offset: 5}, false}, {sourced{key: "a", offset: 4}, false},
		{sourced{key: "a", partition: 1, offset: 4}, true}, {sourced{key: "a", offset: -1, partition: 2}, false}, {sourced{key: "a", offset: 6}, true}} {
		if err := x.Submit(context.Background(), c.s); (err == nil) != c.ok {
			t.Errorf("Submit(%+v) = %v; want ok %v", c.s, err, c.ok)
		}
	}
	// An error names the item by the submission number it would have had:
	// two were taken.
	if err := x.Submit(context.Background(), sourced{key: "a", offset: 3}); err == nil || !strings.Contains(err.Error(), "live: Submit: item 3: partition 0 offset 3 after offset 6") {
		t.Errorf("Submit of a falling offset: %v; want an error naming item 3", err)
	}
	if err := mustClose(t, x); err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(x.Completion()); got != "[{0 7 []} {1 5 []}]" {
		t.Errorf("Completion() = %s", got)
	}
	if _, err := New(konvoy.Convoy, 1, ev, func(context.Context, konvoy.Event) error { return nil },
		WithOffsets(func(s sourced) (int, int64) { return 0, 0 })); err == nil {
		t.Error("New took WithOffsets of another item type")
	}
}

// wantCompletion works out what partition p, whose items have offsets
// offsets, of which those marked in done have finished, may commit.
func wantCompletion(p int, offsets []int64, done []bool) Completion {
	c := Completion{Partition: p, Committable: offsets[len(offsets)-1] + 1}
	first := slices.Index(done, false)
	if first < 0 {
		return c
	}
	c.Committable = offsets[first]
	for j := first + 1; j < len(offsets); j++ {
		if done[j] {
			c.Finished = append(c.Finished, offsets[j])
		}
	}
	return c
}

// Forget drops a partition only once every item of it has finished:
// before, it refuses and the partition is still reported; after,
// Completion and Committable no longer know it, and an item of it starts
// it afresh, at an offset below its old ones. A partition never seen is
// forgotten already.
func TestForgetDropsAPartitionOnceItsItemsFinished(t *testing.T) {
	gate := make(chan struct{})
	x := gatedAtOffset5(t, gate)
	submitAll(t, x, sourced{key: "a", partition: 1, offset: 5}, sourced{key: "b", partition: 1, offset: 6}, sourced{key: "c", partition: 2, offset: 0})
	if x.Forget(1) {
		t.Fatal("Forget(1) with offset 5 running: true")
	}
	if at, ok := x.Committable(1); !ok || at != 5 {
		t.Fatalf("Committable(1) after a refused Forget: %d, %v; want 5, true", at, ok)
	}
	close(gate)
	spinUntil(t, func() bool { at, _ := x.Committable(1); return at == 7 }, "partition 1 committable to 7")
	for _, p := range []int{1, 1, 9} { // finished, then forgotten; never seen
		if !x.Forget(p) {
			t.Fatalf("Forget(%d) of a finished, forgotten or unknown partition: false", p)
		}
	}
	if _, ok := x.Committable(1); ok {
		t.Error("Committable(1) after Forget: found")
	}
	if got := x.Completion(); len(got) != 1 || got[0].Partition != 2 {
		t.Errorf("Completion after Forget(1): %+v; want partition 2 alone", got)
	}
	submitAll(t, x, sourced{key: "a", partition: 1, offset: 0}) // below its old offsets
	if err := mustClose(t, x); err != nil {
		t.Fatal(err)
	}
	if at, ok := x.Committable(1); !ok || at != 1 {
		t.Errorf("Committable(1) started afresh: %d, %v; want 1, true", at, ok)
	}
}

// gatedAtOffset5 returns an executor of sourced items under the convoy,
// with WithOffsets, whose handler holds the item at offset 5 until gate
// is closed.
func gatedAtOffset5(t *testing.T, gate chan struct{}) *Executor[sourced] {
	t.Helper()
	handle := func(_ context.Context, it sourced) error {
		if it.offset == 5 {
			<-gate
		}
		return nil
	}
	x, err := New(konvoy.Convoy, 2, func(it sourced) konvoy.Event { return konvoy.Event{Key: it.key} }, handle,
		WithOffsets(func(it sourced) (int, int64) { return it.partition, it.offset }))
	if err != nil {
		t.Fatal(err)
	}
	return x
}

// submitAll submits items to x in turn, failing t at the first error.
func submitAll(t *testing.T, x *Executor[sourced], items ...sourced) {
	t.Helper()
	for _, it := range items {
		if err := x.Submit(context.Background(), it); err != nil {
			t.Fatalf("Submit(%+v): %v", it, err)
		}
	}
}

// A finished item never holds Submit back once the items before it in its
// partition have finished: whichever consumer finishes the item at the
// front, and whatever holds the partition's lock meanwhile, the
// committable offset moves past it, so that with room for one item each
// item's Submit finds room once the one before has finished. Consumers
// finish items of one partition at once while Completion and Committable
// take the partition's lock, across many chunks; a lost move would leave
// Submit waiting, and the test ends it with an error after the deadline.
func TestFinishedItemsNeverHoldSubmitBack(t *testing.T) {
	for _, maxHeld := range []int{1, 2, 7} {
		t.Run(fmt.Sprint("maxHeld=", maxHeld), func(t *testing.T) {
			const n = 20 * chunkLen
			x, err := New(konvoy.Convoy, 4, func(s sourced) konvoy.Event { return konvoy.Event{Key: s.key} },
				func(context.Context, sourced) error { return nil }, WithMaxHeld(maxHeld),
				WithOffsets(func(s sourced) (int, int64) { return s.partition, s.offset }))
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), deadline)
			defer cancel()
			stop := make(chan struct{})
			var readers sync.WaitGroup
			readers.Add(1)
			go func() { // takes the partition's lock as a committer would
				defer readers.Done()
				for {
					select {
					case <-stop:
						return
					default:
						x.Completion()
						x.Committable(0)
					}
				}
			}()
			for i := range n {
				if err := x.Submit(ctx, sourced{seq: i, key: fmt.Sprint(i % 5), offset: int64(i)}); err != nil {
					t.Errorf("Submit of item %d: %v", i, err)
					break
				}
			}
			close(stop)
			readers.Wait()
			if err := x.Close(ctx); err != nil {
				t.Fatal(err)
			}
			if got, want := x.Completion(), []Completion{{Partition: 0, Committable: n}}; fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("Completion() = %v; want %v", got, want)
			}
		})
	}
}
