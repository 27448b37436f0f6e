package konvoy

import (
	"fmt"
	"testing"

	"pgregory.net/rapid"
)

// However many partitions a topic has, spreading keys over them gives what
// adding each key's load to its partition's, one by one, gives: dense room
// by partition for topics up to twice the keys, room by the order keys land
// in beyond, reused from one count to the next as PartitionsForSeq does.
func TestPartitionLoadsAgreeWithAPlainSum(t *testing.T) {
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
			n := rapid.OneOf(rapid.IntRange(1, 2*k+3), rapid.IntRange(1, 1<<31-1)).Draw(t, "partitions")
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
