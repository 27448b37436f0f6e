package live_test

import (
	"math/rand/v2"
	"testing"

	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/live"
)

// BenchmarkNoOpKafkaLike runs b.N items as kafka's BenchmarkPollLoopExecutor
// submits a topic's records, without Kafka: keys drawn at random (fixed
// seed) from kafkaKeys, each item's partition its key's of 8 and its offset
// its number, under the convoy and lane-aware, with and without
// WithOffsets, so that the executor's share of that benchmark's time can
// be told from the client's:
//
//	./live.test -test.run '^$' -test.bench 'NoOpKafkaLike' -test.benchtime 1000000x
func BenchmarkNoOpKafkaLike(b *testing.B) {
	b.Run("keys", func(b *testing.B) { benchKafkaLike(b, false) })
	b.Run("offsets", func(b *testing.B) { benchKafkaLike(b, true) })
}

const (
	kafkaKeys  = 10_000
	kafkaDraws = 1 << 16 // the draws repeat after so many items
)

var kafkaLike = func() (t struct {
	key  [kafkaDraws]int32
	part [kafkaKeys]int
}) {
	rng := rand.New(rand.NewPCG(25, 8))
	for i := range t.key {
		t.key[i] = int32(rng.IntN(kafkaKeys))
	}
	for k := range t.part {
		t.part[k] = konvoy.KafkaPartition(keys[k], 8)
	}
	return t
}()

func kafkaEvent(i int32) konvoy.Event {
	return konvoy.Event{Key: keys[kafkaLike.key[i&(kafkaDraws-1)]]}
}

func kafkaOffset(i int32) (int, int64) {
	return kafkaLike.part[kafkaLike.key[i&(kafkaDraws-1)]], int64(i)
}

func benchKafkaLike(b *testing.B, offsets bool) {
	b.ReportAllocs()
	opts := []live.Option{live.WithPolicy(konvoy.LaneAware)}
	if offsets {
		opts = append(opts, live.WithOffsets(kafkaOffset))
	}
	x, err := live.New(konvoy.Convoy, benchConsumers, kafkaEvent, noop, opts...)
	if err != nil {
		b.Fatal(err)
	}
	ctx := b.Context()
	b.ResetTimer()
	for i := range b.N {
		if err := x.Submit(ctx, int32(i)); err != nil {
			b.Fatal(err)
		}
	}
	if err := x.Close(ctx); err != nil {
		b.Fatal(err)
	}
	b.StopTimer()
	report(b)
}
