package live_test

import (
	"context"
	"strconv"
	"sync"
	"testing"

	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/live"
)

// The benchmarks run b.N items with a no-op handler over benchKeys keys,
// round-robin, on 8 consumers, and report items/s and allocations per
// item: the executor under the convoy and lane-aware, and under
// partitioned:8 and static, beside the two designs a team writes by hand
// for the same guarantees: a keyed pool (a mutex-guarded map of the keys in
// flight, each with the items that came while it ran, and a shared
// channel) and a goroutine per hash bucket. -count runs each of them that
// many times in a row; on a shared machine alternate them instead, a
// process each, and compare medians:
//
//	go test -c -o live.test ./live
//	for i in $(seq 10); do for b in convoy keyed partitioned8 bucket; do
//		./live.test -test.run '^$' -test.bench "NoOp$/$b" -test.benchtime 1000000x
//	done; done
//
// BenchmarkNoOpFewKeys runs the same over fewer keys: -test.bench
// "NoOpFewKeys/$b" for b in convoy and keyed.

const (
	benchKeys      = 100_000
	benchConsumers = 8
)

var keys = func() []string {
	k := make([]string, benchKeys)
	for i := range k {
		k[i] = "key-" + strconv.Itoa(i)
	}
	return k
}()

func keyEvent(i int32) konvoy.Event { return konvoy.Event{Key: keys[i]} }

func noop(context.Context, int32) error { return nil }

func report(b *testing.B) {
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "items/s")
}

func benchExecutor(b *testing.B, layout konvoy.Layout, p konvoy.Policy, nkeys int) {
	b.ReportAllocs()
	x, err := live.New(layout, benchConsumers, keyEvent, noop, live.WithPolicy(p))
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	b.ResetTimer()
	for i := range b.N {
		if err := x.Submit(ctx, int32(i%nkeys)); err != nil {
			b.Fatal(err)
		}
	}
	if err := x.Close(ctx); err != nil {
		b.Fatal(err)
	}
	b.StopTimer()
	report(b)
}

func BenchmarkNoOp(b *testing.B) {
	b.Run("convoy-lane-aware", func(b *testing.B) { benchExecutor(b, konvoy.Convoy, konvoy.LaneAware, benchKeys) })
	b.Run("keyed-pool", func(b *testing.B) { benchKeyedPool(b, benchKeys) })
	b.Run("partitioned8-static", func(b *testing.B) { benchExecutor(b, konvoy.Partitioned(8), konvoy.Static, benchKeys) })
	b.Run("bucket-goroutines", benchBuckets)
}

// BenchmarkNoOpFewKeys is BenchmarkNoOp's convoy and keyed pool over
// fewKeys keys: with DefaultMaxHeld items held, about 4 of each key's, so
// that nearly every item waits in its lane behind another, as a Kafka
// poll's records of one key do, where BenchmarkNoOp's seldom do.
func BenchmarkNoOpFewKeys(b *testing.B) {
	b.Run("convoy-lane-aware", func(b *testing.B) { benchExecutor(b, konvoy.Convoy, konvoy.LaneAware, fewKeys) })
	b.Run("keyed-pool", func(b *testing.B) { benchKeyedPool(b, fewKeys) })
}

// fewKeys is BenchmarkNoOpFewKeys's keys.
const fewKeys = 1000

// keyedPool is the hand-written keyed pool, keyed as the executor is, by
// the item's Event.Key: the submitter, under a mutex, leaves an item whose
// key is in flight with the key's entry in the map, and sends any other on
// the shared channel, marking its key in flight; the worker that runs a
// key runs the items left with it after, in order, and then forgets the
// key. The check is the submitter's, not the worker's: were a worker to
// check the key after taking the item from the channel, two workers could
// take two items of one key and lock in the wrong order.
type keyedPool struct {
	mu     sync.Mutex
	flight map[string][]int32
	ch     chan int32
	wg     sync.WaitGroup
}

func (p *keyedPool) submit(it int32) {
	k := keyEvent(it).Key
	p.mu.Lock()
	if q, ok := p.flight[k]; ok {
		p.flight[k] = append(q, it)
		p.mu.Unlock()
		return
	}
	p.flight[k] = nil
	p.mu.Unlock()
	p.ch <- it
}

func (p *keyedPool) work(handle func(context.Context, int32) error) {
	defer p.wg.Done()
	ctx := context.Background()
	for it := range p.ch {
		for {
			_ = handle(ctx, it)
			k := keyEvent(it).Key
			p.mu.Lock()
			q := p.flight[k]
			if len(q) == 0 {
				delete(p.flight, k)
				p.mu.Unlock()
				break
			}
			it, p.flight[k] = q[0], q[1:]
			p.mu.Unlock()
		}
	}
}

func benchKeyedPool(b *testing.B, nkeys int) {
	b.ReportAllocs()
	p := &keyedPool{flight: make(map[string][]int32), ch: make(chan int32, live.DefaultMaxHeld)}
	p.wg.Add(benchConsumers)
	for range benchConsumers {
		go p.work(noop)
	}
	b.ResetTimer()
	for i := range b.N {
		p.submit(int32(i % nkeys))
	}
	close(p.ch)
	p.wg.Wait()
	b.StopTimer()
	report(b)
}

// benchBuckets is a goroutine per hash bucket: each key goes to the
// channel of its Kafka partition, of 8, whose goroutine runs its items in
// order.
func benchBuckets(b *testing.B) {
	b.ReportAllocs()
	var wg sync.WaitGroup
	chans := make([]chan int32, benchConsumers)
	wg.Add(benchConsumers)
	for c := range chans {
		chans[c] = make(chan int32, live.DefaultMaxHeld/benchConsumers)
		go func() {
			defer wg.Done()
			for it := range chans[c] {
				_ = noop(context.Background(), it)
			}
		}()
	}
	b.ResetTimer()
	for i := range b.N {
		k := int32(i % benchKeys)
		chans[konvoy.KafkaPartition(keys[k], benchConsumers)] <- k
	}
	for _, ch := range chans {
		close(ch)
	}
	wg.Wait()
	b.StopTimer()
	report(b)
}
