package konvoy

import (
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
// HeaviestLoad − HeaviestKeyLoad, the rounds hash collisions add to the
// lane-load ceiling.
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
// outside [0, 1] or limit not 1 to [MaxPartitions]. It takes O(n + k·limit)
// time for n events and k distinct keys, and O(k) memory. It panics, with a
// "konvoy:" prefix, when events is nil.
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
	var p PartitionLoad
	var pl partitionLoads
	for n := 1; n <= limit; n++ {
		p = pl.spread(keys, loads, hashes, n)
		if p.CollisionShare() <= maxShare {
			return p, true, nil
		}
	}
	return p, false, nil
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

// spread spreads the keys' loads over n partitions, in O(k) time for k
// keys, plus a clearing of O(n) words when the room is by partition.
func (pl *partitionLoads) spread(keys []string, loads, hashes []int, n int) PartitionLoad {
	p := PartitionLoad{Partitions: n}
	pl.parts = resized(pl.parts, len(keys))
	byPart := dense(n, len(keys))
	if byPart { // the common case, in a loop of its own: no call a key
		pl.load, pl.usedBy = resized(pl.load, n), resized(pl.usedBy, n)
		for k, h := range hashes {
			part := int(uint32(h) % uint32(n)) // both below 2^31: 32-bit division is the faster
			pl.parts[k] = part
			pl.load[part] += loads[k]
			if !pl.usedBy[part] {
				pl.usedBy[part] = true
				p.Used++
			}
			p.HeaviestLoad = max(p.HeaviestLoad, pl.load[part]) // loads only grow
		}
	} else {
		at := pl.room(len(keys))
		for k, h := range hashes {
			pl.parts[k] = h % n
			*at(pl.parts[k]) += loads[k]
		}
		p.Used = len(pl.load)
		if len(pl.load) > 0 {
			p.HeaviestLoad = slices.Max(pl.load)
		}
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
	return p
}

// dense tells whether spreading k keys over n partitions keeps a load per
// partition: for up to twice the keys, and for up to denseMost partitions
// while clearing a load per partition, some 20 ps each, costs less than a
// map's slot for each key, some 40 ns.
func dense(n, k int) bool { return n <= 2*k || n <= denseMost && n <= 256*k }

// denseMost is the most partitions, beyond twice the keys, that spread
// keeps a load for each of: 2^16, 576 KiB of room.
const denseMost = 1 << 16

// room empties the room for spreading k keys over n > 2k partitions, by
// the order keys land in, and returns the load of a partition.
func (pl *partitionLoads) room(k int) (at func(part int) *int) {
	pl.load = pl.load[:0]
	if pl.slots == nil {
		pl.slots = make(map[int]int, k)
	}
	clear(pl.slots)
	return func(part int) *int {
		s, ok := pl.slots[part]
		if !ok {
			s = len(pl.load)
			pl.slots[part] = s
			pl.load = append(pl.load, 0)
		}
		return &pl.load[s]
	}
}

// loadOf returns the load of partition part, one that keys landed in,
// from the room by partition when byPart, else by landing order.
func (pl *partitionLoads) loadOf(byPart bool, part int) int {
	if byPart {
		return pl.load[part]
	}
	return pl.load[pl.slots[part]]
}

// resized returns s with length n, all zero, reusing its room.
func resized[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	s = s[:n]
	clear(s)
	return s
}
