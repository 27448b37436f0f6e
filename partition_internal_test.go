package konvoy

import (
	"fmt"
	"testing"

	"pgregory.net/rapid"
)

// However many partitions a topic has, spreading keys over them gives what
// adding each key's load to its partition's, one by one, gives: dense room
// by partition for topics up to twice the keys, and up to 256 times them
// within 2^16, room by the order keys land in beyond, reused from one
// count to the next as PartitionsFor does.
func TestPartitionLoadsAgreeWithAPlainSum(t *testing.T) {
	t.Parallel()
	rapid.Check(t, func(t *rapid.T) {
		k := rapid.IntRange(0, 40).Draw(t, "keys")
		keys, loads, hashes := make([]string, k), make([]int, k), make([]int, k)
		for i := range k {
			keys[i] = fmt.Sprint("K", i)
			loads[i] = rapid.IntRange(0, 9).Draw(t, "load")
			hashes[i] = rapid.IntRange(0, 1<<31-1).Draw(t, "hash")
		}
		var pl partitionLoads
		for range 5 {
			n := rapid.OneOf(rapid.IntRange(1, 2*k+3), rapid.IntRange(1, 256*k+3), rapid.IntRange(1, 1<<31-1)).Draw(t, "partitions")
			got := pl.spread(keys, loads, hashes, n)
			want := PartitionLoad{Partitions: n}
			load := map[int]int{}
			for i := range keys {
				load[hashes[i]%n] += loads[i]
			}
			want.Used = len(load)
			for _, l := range load {
				want.HeaviestLoad = max(want.HeaviestLoad, l)
			}
			best := -1
			for i := range keys { // the heaviest key of a heaviest partition; ties: the lower partition, then the key seen first
				p := hashes[i] % n
				if load[p] == want.HeaviestLoad && (best < 0 || loads[i] > loads[best] || loads[i] == loads[best] && p < hashes[best]%n) {
					best = i
				}
			}
			if best >= 0 {
				want.HeaviestPartition, want.HeaviestKey, want.HeaviestKeyLoad = hashes[best]%n, keys[best], loads[best]
			}
			if got != want {
				t.Fatalf("%d partitions: %+v; want %+v", n, got, want)
			}
		}
	})
}

// Kafka's own test vectors for murmur2 (UtilsTest.testMurmur2 in
// apache/kafka's clients module), and librdkafka's compatible hash.
func TestMurmur2MatchesKafka(t *testing.T) {
	for in, want := range map[string]int32{
		"21":                         -973932308,
		"foobar":                     -790332482,
		"a-little-bit-long-string":   -985981536,
		"a-little-bit-longer-string": -1486304829,
		"lkjh234lh9fiuh90y23oiuhsafujhadof229phr9h19h89h8": -58897971,
		"abc": 479470107,
	} {
		if got := murmur2([]byte(in)); got != want {
			t.Errorf("murmur2(%q) = %d; want %d", in, got, want)
		}
	}
}
