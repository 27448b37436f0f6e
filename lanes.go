package konvoy

import (
	"math/bits"
	"strconv"
)

// lane is one serial queue: the time it becomes free, the work it carries,
// the order in which it was opened (-1: not yet) and what its events waited
// from arrival to start, the total in 128 bits, which no run overflows; its
// index says where its name is (see laneName). It holds no pointer, so that
// millions of key lanes cost the garbage collector nothing.
type lane struct {
	free           int
	load           int
	opened         int
	events         int
	maxWait        int
	waitHi, waitLo uint64 // the total wait
}

// addWait counts one more event that waited w rounds.
func (l *lane) addWait(w int) {
	l.events++
	l.maxWait = max(l.maxWait, w)
	var carry uint64
	l.waitLo, carry = bits.Add64(l.waitLo, uint64(w), 0)
	l.waitHi += carry
}

// laneOf returns the index of event e's lane, of key index k, opening the
// lane when it is first used, or -1 when the event takes no lane. A key
// lane has its key's index, made with the key; a partition lane is made
// when the first of its keys is and kept in their states: both are found
// without a lookup and opened on first use. A recorded partition's lane is
// found by its number.
func (s *Simulator) laneOf(e *Event, k int) int {
	l := &s.layout
	if l.orderedOnly && e.Step == 0 {
		return -1
	}
	var ln int
	switch l.lanes {
	case keyLanes:
		ln = k
	case partitionLanes:
		ln = int(s.keys.at(k).partLane)
	case recordedLanes:
		ln = s.partitionLane(e.Partition)
	case lineLanes:
		return s.namedLane(e.Line)
	case funcLanes:
		name, ok := l.laneFunc(*e)
		if !ok {
			return -1
		}
		return s.namedLane(name)
	default:
		return -1
	}
	if lane := s.lanes.at(ln); lane.opened < 0 {
		lane.opened = s.lanesOpened
		s.lanesOpened++
	}
	return ln
}

// laneName returns the name of lane ln. A lane's index says where its name
// is: key lanes share their key's index, partition lanes, made in the order
// keys (or, recorded, events) first land in them, share their partition's
// index in partitionOf,
// and line and LaneFunc lanes, opened in the order their names are first
// seen, share their name's index in laneNames.
func (s *Simulator) laneName(ln int) string {
	switch s.layout.lanes {
	case keyLanes:
		return s.keys.at(ln).name
	case partitionLanes, recordedLanes:
		return strconv.Itoa(s.partitionOf[ln])
	}
	return s.laneNames[ln]
}

// partitionLane returns the index of partition p's lane, making it, not yet
// opened, when no key has landed in p before: a topic costs memory only
// for the partitions its keys use.
func (s *Simulator) partitionLane(p int) int {
	ln, ok := s.partitions[p]
	if !ok {
		if s.partitions == nil {
			s.partitions = make(map[int]int)
		}
		ln = s.lanes.add(lane{opened: -1})
		s.partitions[p] = ln
		s.partitionOf = append(s.partitionOf, p)
	}
	return ln
}

// namedLane returns the index of the lane named name, opening it when it is
// first seen.
func (s *Simulator) namedLane(name string) int {
	i, ok := s.laneIndex[name]
	if !ok {
		i = s.lanes.add(lane{opened: s.lanesOpened})
		s.lanesOpened++
		s.laneNames = append(s.laneNames, name)
		s.laneIndex[name] = i
	}
	return i
}

// addLaneLoad records that key index ki carried d more rounds in lane ln. A
// key's first lane is its home lane, kept in its state; the rare load it
// carries in other lanes goes to a map. Key lanes need none of it (see
// heaviestKeyLane).
func (s *Simulator) addLaneLoad(ki, ln, d int) {
	k := s.keys.at(ki)
	switch {
	case k.home < 0:
		k.home, k.homeLoad = int32(ln), d
	case int(k.home) == ln:
		k.homeLoad += d
	default:
		if s.awayLoad == nil {
			s.awayLoad = make(map[laneKey]int)
		}
		s.awayLoad[laneKey{ln, ki}] += d
	}
}

// laneKey names one key's share of one lane.
type laneKey struct{ lane, key int }

// heaviest returns the heaviest lane and, in it, the key that carried the
// most, with that key's load; -1 and -1 when no lane was used. Among equally
// heavy lanes it takes the one whose heaviest key carries the most, so that
// the collision it reports is one that really raises the ceiling, then the
// one opened first; among equal keys, the key seen first. It takes
// O(lanes + keys) time.
func (s *Simulator) heaviest() (ln, key, keyLoad int) {
	top := s.topLoad()
	if top < 0 {
		return -1, -1, 0
	}
	if s.layout.lanes == keyLanes {
		return s.heaviestKeyLane(top)
	}
	ln, key = -1, -1
	for lane, k := range s.heaviestKeys(top) {
		load := s.keyLoadIn(k, lane)
		if ln < 0 || load > keyLoad || load == keyLoad && s.lanes.at(lane).opened < s.lanes.at(ln).opened {
			ln, key, keyLoad = lane, k, load
		}
	}
	return ln, key, keyLoad
}

// topLoad returns the largest load of an opened lane, or -1 when no lane
// was opened. It takes O(lanes) time.
func (s *Simulator) topLoad() int {
	top := -1
	for i := range s.lanes.len() {
		l := s.lanes.at(i)
		if l.opened >= 0 {
			top = max(top, l.load)
		}
	}
	return top
}

// heaviestKeys returns, for each opened lane whose load is top, the key
// that carried the most in it, the key seen first among equals; it is
// heaviest's part for lanes that keep a load per key (all but key lanes).
// It takes O(keys + away loads) time.
func (s *Simulator) heaviestKeys(top int) map[int]int {
	bestKey := make(map[int]int) // heaviest lanes → their heaviest key
	consider := func(k, lane, load int) {
		if s.lanes.at(lane).opened < 0 || s.lanes.at(lane).load != top {
			return
		}
		if b, ok := bestKey[lane]; !ok || load > s.keyLoadIn(b, lane) || load == s.keyLoadIn(b, lane) && k < b {
			bestKey[lane] = k
		}
	}
	for i := range s.keys.len() {
		k := s.keys.at(i)
		if k.home >= 0 {
			consider(i, int(k.home), k.homeLoad)
		}
	}
	for lk, load := range s.awayLoad {
		consider(lk.key, lk.lane, load)
	}
	return bestKey
}

// heaviestKeyLane is heaviest under key lanes, where a lane carries its one
// key's whole load, so the heaviest lane opened first wins, with its key:
// key lanes keep no load per key apart from the lane's.
func (s *Simulator) heaviestKeyLane(top int) (ln, key, keyLoad int) {
	ln = -1
	for i := range s.lanes.len() {
		l := s.lanes.at(i)
		if l.opened >= 0 && l.load == top && (ln < 0 || l.opened < s.lanes.at(ln).opened) {
			ln = i
		}
	}
	return ln, ln, top
}

// keyLoadIn returns the load key k carried in lane ln.
func (s *Simulator) keyLoadIn(k, ln int) int {
	if int(s.keys.at(k).home) == ln {
		return s.keys.at(k).homeLoad
	}
	return s.awayLoad[laneKey{ln, k}]
}
