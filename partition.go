package konvoy

import (
	"cmp"
	"fmt"
	"iter"
	"math"
	"slices"
)

// murmur2 returns the 32-bit MurmurHash2 of data with Kafka's seed
// 0x9747b28c, bit for bit as Kafka's org.apache.kafka.common.utils.Utils.murmur2
// computes it: the hash Kafka's default partitioner applies to a record's key
// bytes. It takes O(len(data)) time and does not allocate.
func murmur2(data []byte) int32 {
	const (
		seed = 0x9747b28c
		m    = 0x5bd1e995
		r    = 24
	)
	n := len(data)
	h := uint32(seed) ^ uint32(n)
	for i := 0; i+4 <= n; i += 4 {
		k := uint32(data[i]) | uint32(data[i+1])<<8 | uint32(data[i+2])<<16 | uint32(data[i+3])<<24
		k *= m
		k ^= k >> r
		k *= m
		h *= m
		h ^= k
	}
	tail := data[n&^3:]
	switch len(tail) {
	case 3:
		h ^= uint32(tail[2]) << 16
		fallthrough
	case 2:
		h ^= uint32(tail[1]) << 8
		fallthrough
	case 1:
		h ^= uint32(tail[0])
		h *= m
	}
	h ^= h >> 13
	h *= m
	h ^= h >> 15
	return int32(h)
}

// KafkaPartition returns the partition, in [0, n), that Kafka's default
// partitioner chooses for a record whose key is the UTF-8 bytes of key:
// toPositive(murmur2(key)) % n, where toPositive clears the sign bit. It lets
// a user predict which of their real keys share a partition.
//
// KafkaPartition panics, with a "konvoy:" prefix, when n < 1.
func KafkaPartition(key string, n int) int {
	if n < 1 {
		panic(fmt.Sprintf("konvoy: KafkaPartition with %d partitions: want at least 1", n))
	}
	return int(murmur2([]byte(key))&0x7fffffff) % n
}

// PartitionLoad describes how a topic of Partitions partitions spreads a
// trace's work, from the lane loads alone: Used partitions receive events,
// partition HeaviestPartition carries the most work (HeaviestLoad), and
// HeaviestKey is the key that carries the most of it (HeaviestKeyLoad; among
// equals the key seen first). Among equally heavy partitions it is the one
// whose heaviest key carries the most, as in [Result], then the lowest
// number.
type PartitionLoad struct {
	Partitions        int
	Used              int
	HeaviestPartition int
	HeaviestLoad      int
	HeaviestKey       string
	HeaviestKeyLoad   int
}

// Collision returns the heaviest partition's load that other keys put there:
// HeaviestLoad − HeaviestKeyLoad, the rounds hash collisions add to that
// partition beside its heaviest key (see [Result.Collision]).
func (p PartitionLoad) Collision() int { return p.HeaviestLoad - p.HeaviestKeyLoad }

// CollisionShare returns Collision as a fraction of the heaviest partition's
// load, 0 when it carries no work.
func (p PartitionLoad) CollisionShare() float64 {
	if p.HeaviestLoad == 0 {
		return 0
	}
	return float64(p.Collision()) / float64(p.HeaviestLoad)
}

// PartitionsFor answers "how many partitions until collisions stop costing
// more than maxShare of the heaviest partition" for a trace: it returns the
// load of the smallest partition count n in [1, limit] whose
// [PartitionLoad.CollisionShare] is at most maxShare, and true; or the load
// at limit and false when no count up to limit gets there. Collisions are not
// monotone in n (a larger topic can collide where a smaller one did not), so
// every count is tried in turn.
//
// events is read once, so a trace too large to hold can be streamed
// ([Values] turns a slice into a stream). PartitionsFor returns the stream's
// first error; an [EventError] for an event with an empty Key, a negative
// Duration or a total work that overflows int; and an error for maxShare
// outside [0, 1] or limit not 1 to [MaxPartitions]. It takes O(n + k·log k
// + k·limit) time for n events and k distinct keys, and O(k) memory;
// spreading the keys heaviest first, it leaves a count as soon as one
// partition carries more than a count that fits can (see mostToFit), most
// often within its first few keys. It panics, with a "konvoy:" prefix,
// when events is nil.
func PartitionsFor(events iter.Seq2[Event, error], maxShare float64, limit int) (PartitionLoad, bool, error) {
	if events == nil {
		panic("konvoy: PartitionsFor: events is nil")
	}
	if !(maxShare >= 0 && maxShare <= 1) {
		return PartitionLoad{}, false, fmt.Errorf("konvoy: collision share %v: want a fraction in [0, 1]", maxShare)
	}
	if limit < 1 || limit > MaxPartitions {
		return PartitionLoad{}, false, fmt.Errorf("konvoy: partition limit %d: want 1 to %d", limit, MaxPartitions)
	}
	keys, loads, hashes, err := keyLoads(events)
	if err != nil {
		return PartitionLoad{}, false, err
	}
	heaviestFirst(keys, loads, hashes)
	most := math.MaxInt
	if len(loads) > 0 {
		most = mostToFit(loads[0], maxShare)
	}
	var p PartitionLoad
	var pl partitionLoads
	for n := 1; n <= limit; n++ {
		bound := most // a count cut short by it cannot fit
		if n == limit {
			bound = math.MaxInt // the load at limit is returned when none fits
		}
		var whole bool
		if p, whole = pl.spread(keys, loads, hashes, n, bound); whole && p.CollisionShare() <= maxShare {
			return p, true, nil
		}
	}
	return p, false, nil
}

// mostToFit returns the most load a partition may carry in a count whose
// CollisionShare is at most maxShare, for keys whose heaviest carries
// heaviest, or more (math.MaxInt for no bound): a count fits only if its
// heaviest partition's load H has H − HKL ≤ maxShare·H for the load HKL of
// its heaviest key, at most heaviest, so H ≤ heaviest / (1 − maxShare). It
// is that bound raised by a part in 2^20, so that float64's rounding, here
// and in CollisionShare, never makes a count that fits look as if it did
// not; for a maxShare within 2^-20 of 1, it is no bound.
func mostToFit(heaviest int, maxShare float64) int {
	if maxShare >= 1-1.0/(1<<20) {
		return math.MaxInt
	}
	b := float64(heaviest) / (1 - maxShare) * (1 + 1.0/(1<<20))
	if b >= math.MaxInt { // as a float64: 2^63, or 2^31 − 1 where int has 32 bits
		return math.MaxInt
	}
	return int(b) // rounded down: a load above it is above the bound
}

// heaviestFirst sorts the keys, their loads and their hashes together by
// load, heaviest first, keeping the order of first appearance among equal
// loads, which spread's ties follow: a count that cannot fit shows it in
// its first few keys, as the heaviest key's partition passes mostToFit. It
// moves them in place, cycle by cycle, with one int of room a key.
func heaviestFirst(keys []string, loads, hashes []int) {
	from := make([]int, len(keys)) // the place each place's key comes from
	for i := range from {
		from[i] = i
	}
	slices.SortStableFunc(from, func(a, b int) int { return cmp.Compare(loads[b], loads[a]) })
	for i := range from {
		if from[i] < 0 {
			continue // moved
		}
		k, l, h := keys[i], loads[i], hashes[i]
		j := i
		for from[j] != i {
			f := from[j]
			keys[j], loads[j], hashes[j] = keys[f], loads[f], hashes[f]
			from[j], j = -1, f
		}
		keys[j], loads[j], hashes[j] = k, l, h
		from[j] = -1
	}
}

// keyLoads returns the distinct keys in order of first appearance, each
// key's total duration and its positive murmur2 hash.
func keyLoads(events iter.Seq2[Event, error]) (keys []string, loads []int, hashes []int, err error) {
	index := make(map[string]int)
	i, work := -1, 0
	for e, err := range events {
		i++
		switch {
		case err != nil:
			return nil, nil, nil, err
		case e.Key == "":
			return nil, nil, nil, eventError(i, "", "Key", 0, "the key whose state the event overwrites", nil)
		case e.Duration < 0:
			return nil, nil, nil, eventError(i, e.Key, "Duration", e.Duration, "0 or more rounds", nil)
		case e.Duration > math.MaxInt-work:
			return nil, nil, nil, eventError(i, e.Key, "Duration", e.Duration, fmt.Sprintf("at most %d, or the total work overflows int", math.MaxInt-work), nil)
		}
		work += e.Duration
		k, ok := index[e.Key]
		if !ok {
			k = len(keys)
			index[e.Key] = k
			keys = append(keys, e.Key)
			loads = append(loads, 0)
			hashes = append(hashes, int(murmur2([]byte(e.Key))&0x7fffffff))
		}
		loads[k] += e.Duration
	}
	return keys, loads, hashes, nil
}

// partitionLoads is the room spread works in: the load of each partition
// that keys land in, by partition while partitions are few enough (see
// dense), by the keys' order of landing beyond, so that it never takes
// more than O(keys) memory, and 576 KiB, however many partitions a topic
// has.
type partitionLoads struct {
	load   []int       // by partition, or by slot beyond
	usedBy []bool      // by partition
	slots  map[int]int // beyond: partition → slot in load
	parts  []int       // each key's partition, as spread found it
}

// spread spreads the keys' loads over n partitions, in the keys' order, and
// returns how it does and true; or, once a partition's load passes most,
// it stops there and returns false, with only Partitions, Used and
// HeaviestLoad of the keys spread so far. It takes O(j) time for the j
// keys it spread, and leaves the room it works in empty for the next.
func (pl *partitionLoads) spread(keys []string, loads, hashes []int, n, most int) (PartitionLoad, bool) {
	pl.parts = grown(pl.parts, len(keys), len(keys))
	byPart := dense(n, len(keys))
	var p PartitionLoad
	var done int // the keys spread
	if byPart {
		room := max(2*len(keys), min(denseMost, 256*len(keys))) // the most partitions dense keeps room for
		pl.load, pl.usedBy = grown(pl.load, n, room), grown(pl.usedBy, n, room)
		p, done = pl.byPartition(loads, hashes, n, most)
	} else {
		p, done = pl.byLanding(loads, hashes, n, most)
	}
	defer pl.empty(byPart, done)
	if p.HeaviestLoad > most {
		return p, false
	}
	best := -1 // the heaviest key of a heaviest partition
	for k, part := range pl.parts {
		if pl.loadOf(byPart, part) != p.HeaviestLoad {
			continue
		}
		if best < 0 || loads[k] > loads[best] || loads[k] == loads[best] && part < p.HeaviestPartition {
			best, p.HeaviestPartition = k, part
		}
	}
	if best >= 0 {
		p.HeaviestKey, p.HeaviestKeyLoad = keys[best], loads[best]
	}
	return p, true
}

// byPartition is spread's loop in the room by partition, the common case,
// with no call a key. It returns the partitions used and the heaviest
// load, and how many keys it spread: all, or up to the first whose
// partition's load passed most.
func (pl *partitionLoads) byPartition(loads, hashes []int, n, most int) (PartitionLoad, int) {
	p := PartitionLoad{Partitions: n}
	for k, h := range hashes {
		part := int(uint32(h) % uint32(n)) // both below 2^31: 32-bit division is the faster
		pl.parts[k] = part
		l := pl.load[part] + loads[k] // keyLoads bounds the sum
		pl.load[part] = l
		if !pl.usedBy[part] {
			pl.usedBy[part] = true
			p.Used++
		}
		if l > p.HeaviestLoad { // loads only grow
			if p.HeaviestLoad = l; l > most {
				return p, k + 1
			}
		}
	}
	return p, len(hashes)
}

// byLanding is byPartition in the room by the order partitions are landed
// in.
func (pl *partitionLoads) byLanding(loads, hashes []int, n, most int) (PartitionLoad, int) {
	p := PartitionLoad{Partitions: n}
	pl.load = pl.load[:0]
	if pl.slots == nil {
		pl.slots = make(map[int]int)
	}
	for k, h := range hashes {
		pl.parts[k] = h % n
		l := pl.landed(pl.parts[k])
		*l += loads[k]
		p.Used = len(pl.load)
		if *l > p.HeaviestLoad {
			if p.HeaviestLoad = *l; *l > most {
				return p, k + 1
			}
		}
	}
	return p, len(hashes)
}

// landed returns the load of partition part in the room by landing order,
// giving it a slot when it has none.
func (pl *partitionLoads) landed(part int) *int {
	s, ok := pl.slots[part]
	if !ok {
		s = len(pl.load)
		pl.slots[part] = s
		pl.load = append(pl.load, 0)
	}
	return &pl.load[s]
}

// empty empties the room of the partitions the first done keys landed in,
// in O(done) time: its loads are then all 0, by partition or by slot.
func (pl *partitionLoads) empty(byPart bool, done int) {
	if !byPart {
		clear(pl.load) // one slot for each partition a key landed in
	}
	for _, part := range pl.parts[:done] {
		if byPart {
			pl.load[part], pl.usedBy[part] = 0, false
		} else {
			delete(pl.slots, part)
		}
	}
}

// dense tells whether spreading k keys over n partitions keeps a load per
// partition: for up to twice the keys, and for up to denseMost partitions
// while clearing a load per partition, some 20 ps each, costs less than a
// map's slot for each key, some 40 ns.
func dense(n, k int) bool { return n <= 2*k || n <= denseMost && n <= 256*k }

// denseMost is the most partitions, beyond twice the keys, that spread
// keeps a load for each of: 2^16, 576 KiB of room.
const denseMost = 1 << 16

// loadOf returns the load of partition part, one that keys landed in,
// from the room by partition when byPart, else by landing order.
func (pl *partitionLoads) loadOf(byPart bool, part int) int {
	if byPart {
		return pl.load[part]
	}
	return pl.load[pl.slots[part]]
}

// grown returns s with length n, reusing its room: what was beyond its
// length is as it was left, which spread leaves zero. Room it makes is
// twice what s had, when n is not beyond that and most, so that counts
// one above another, as PartitionsFor tries them, make room O(log n)
// times, not n times.
func grown[T any](s []T, n, most int) []T {
	if cap(s) < n {
		return make([]T, n, max(n, min(2*cap(s), most)))
	}
	return s[:n]
}
