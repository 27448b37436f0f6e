package konvoy

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"testing"

	"pgregory.net/rapid"
)

// However many partitions a topic has, spreading keys over them gives what
// adding each key's load to its partition's, one by one, gives: dense room
// by partition for topics up to twice the keys, and up to 256 times them
// within 2^16, room by the order keys land in beyond, reused from one
// count to the next as PartitionsFor does. A spread with a bound is cut
// short exactly when a partition's load passes it, and leaves the room
// empty for the next all the same.
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
			most := rapid.SampledFrom([]int{math.MaxInt, rapid.IntRange(0, 60).Draw(t, "most")}).Draw(t, "bound")
			got, whole := pl.spread(keys, loads, hashes, n, most)
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
			if whole != (want.HeaviestLoad <= most) {
				t.Fatalf("%d partitions, bound %d: whole %v, the heaviest carrying %d", n, most, whole, want.HeaviestLoad)
			}
			if !whole {
				if got.Partitions != n || got.HeaviestLoad <= most || got.HeaviestLoad > want.HeaviestLoad || got.Used > want.Used {
					t.Fatalf("%d partitions, bound %d, cut short: %+v; whole %+v", n, most, got, want)
				}
				continue
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

// PartitionsFor tries counts one above another, and its room by partition
// grows by doubling, so that a search up to n partitions makes room
// O(log n) times, not once a count (a search of 20,000 keys to 65,536
// partitions allocated some 20 GB so, and took 14 s where it now takes
// under 1).
func TestPartitionsForMakesRoomByDoubling(t *testing.T) {
	events := make([]Event, 500)
	for i := range events {
		events[i] = Event{Key: fmt.Sprint("k", i), Duration: 1}
	}
	allocs := testing.AllocsPerRun(3, func() {
		if _, found, err := PartitionsFor(Values(events), 0, 4096); err != nil || found {
			t.Fatal(found, err)
		}
	})
	if allocs > 400 {
		t.Errorf("a search of 500 keys to 4,096 partitions made %v allocations; want fewer than 400, room made O(log n) times", allocs)
	}
}

// mostToFit's bound is the heaviest key's load over 1 − maxShare, a hair
// above so that a partition at the bound, which may fit, is never cut
// short; past an int, or for a share near 1, it is no bound. (Where int has
// 32 bits, a bound past 2^31 converted to int made a wrong one.)
func TestMostToFit(t *testing.T) {
	cases := []struct {
		heaviest int
		share    float64
		want     int
	}{
		{0, 0, 0}, {10, 0, 10}, {2, 1.0 / 3, 3}, {3, 0.5, 6}, {7, 0.9, 70}, {1, 1, math.MaxInt},
		{5, 1 - 1.0/(1<<21), math.MaxInt}, {math.MaxInt, 0, math.MaxInt}, {math.MaxInt / 2, 0.75, math.MaxInt},
		{1 << 20, 0, 1<<20 + 1}, // a part in 2^20 above
	}
	if strconv.IntSize == 64 { // bounds that round to 2^63 as a float64, past every int
		var h63, h62 int64 = 9223363240770142208, 4611681620385071104 // variables: no int of 32 bits holds them
		cases = append(cases, struct {
			heaviest int
			share    float64
			want     int
		}{int(h63), 0, math.MaxInt}, struct {
			heaviest int
			share    float64
			want     int
		}{int(h62), 0.5, math.MaxInt})
	}
	for _, c := range cases {
		if got := mostToFit(c.heaviest, c.share); got != c.want {
			t.Errorf("mostToFit(%d, %v) = %d; want %d", c.heaviest, c.share, got, c.want)
		}
	}
}

// heaviestFirst sorts keys, loads and hashes together, heaviest first,
// equal loads in the order they came: as a stable sort of the triples.
func TestHeaviestFirstSortsTogether(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(0, 30).Draw(t, "keys")
		keys, loads, hashes := make([]string, n), make([]int, n), make([]int, n)
		type triple struct {
			key        string
			load, hash int
		}
		want := make([]triple, n)
		for i := range n {
			keys[i], loads[i], hashes[i] = fmt.Sprint("K", i), rapid.IntRange(0, 4).Draw(t, "load"), i*7
			want[i] = triple{keys[i], loads[i], hashes[i]}
		}
		slices.SortStableFunc(want, func(a, b triple) int { return b.load - a.load })
		heaviestFirst(keys, loads, hashes)
		for i, w := range want {
			if got := (triple{keys[i], loads[i], hashes[i]}); got != w {
				t.Fatalf("place %d: %+v; want %+v", i, got, w)
			}
		}
	})
}
