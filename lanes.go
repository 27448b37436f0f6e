package konvoy

import (
	"math/bits"
	"strconv"
)

// laneTable is what a layout's lanes are over one stream, whatever
// dispatches them: each event's lane, the lanes numbered in the order they
// are opened (first used), each lane's load and events, and the load each
// key carries in its lanes. All of it depends on the stream and the layout
// alone, so a [Sweep] keeps one table for each layout, however many runs
// take it, and the runs keep only their lanes' free times and waits (see
// laneRun).
//
// A lane's index says what it is (see name): under key lanes, the key
// whose lane it is; under partition lanes, the partition; under line lanes,
// the line; under a LaneFunc, the name it gave. Lanes are opened in input
// order, so the table's lane indices are the order in which lanes opened,
// which the [Static] policy assigns lanes by.
type laneTable struct {
	layout  Layout
	byIndex paged[int32]     // by key (selective key lanes, partition lanes) or line index: its lane; -1: none yet
	lanes   paged[laneInput] // by lane, in the order opened
	parts   map[int]int      // partition lanes by partition
	names   map[string]int   // LaneFunc lanes by name
	homes   paged[keyHome]   // by key, except under key lanes
	away    map[laneKey]int  // load keys carry outside their home lane
	named   []string         // LaneFunc lanes' names, by their laneInput.of
	// nameBytes is the bytes of the LaneFunc lanes' names.
	nameBytes int

	heaviestDone     bool
	heavyLane        int // the heaviest, once asked for: see heaviest
	heavyKey, heavyN int
}

// laneInput is one lane of a laneTable: what it is (a key, partition or
// line index, or a LaneFunc name's), the work its events carry and how
// many they are.
type laneInput struct {
	of     int
	load   int
	events int
}

// keyHome is the lane a key first ran in, its home lane, with the load it
// carried there; -1 before it ran in one.
type keyHome struct {
	lane int32
	load int
}

// newLaneTable returns the empty table of layout l, which has lanes.
func newLaneTable(l Layout) *laneTable {
	t := &laneTable{layout: l}
	switch l.lanes {
	case partitionLanes, recordedLanes:
		t.parts = make(map[int]int)
	case funcLanes:
		t.names = make(map[string]int)
	}
	return t
}

// lane returns the lane of event e, interned as ie, opening it when it is
// first used, and counts the event's work in it; -1 when the event takes no
// lane. A key new to the stream (added) gets its home and, under partition
// lanes, its partition's lane, made then; a key lane and a line lane are
// found by index, without a lookup, a recorded partition's lane by its
// number, and a LaneFunc lane by its name.
func (t *laneTable) lane(e *Event, ie *internedEvent, added bool) int {
	if ie.key < 0 {
		return -1
	}
	l := &t.layout
	if added {
		t.addKey(e.Key)
	}
	if l.orderedOnly && ie.step == 0 {
		return -1
	}
	var ln int
	switch l.lanes {
	case keyLanes:
		if !l.orderedOnly {
			// Every event takes its key's lane, so lanes open in the order
			// keys first appear: a key's lane has the key's index.
			if ln = ie.key; ln == t.lanes.len() {
				t.lanes.add(laneInput{of: ln})
			}
			break
		}
		ln = t.open(ie.key)
	case partitionLanes:
		ln = int(*t.byIndex.at(ie.key))
	case recordedLanes:
		ln = t.partition(e.Partition)
	case lineLanes:
		if ie.line < 0 {
			return -1
		}
		ln = t.open(ie.line)
	default:
		name, ok := l.laneFunc(*e)
		if !ok {
			return -1
		}
		ln = t.nameLane(name)
	}
	lane := t.lanes.at(ln)
	lane.load += ie.duration
	lane.events++
	if l.lanes != keyLanes {
		t.addKeyLoad(ie.key, ln, ie.duration)
	}
	return ln
}

// addKey makes room for a new key, and under partition lanes finds or makes
// the lane of its partition: a topic costs memory only for the partitions
// its keys use.
func (t *laneTable) addKey(key string) {
	switch t.layout.lanes {
	case keyLanes:
		if t.layout.orderedOnly {
			t.byIndex.add(-1)
		}
		return
	case partitionLanes:
		t.byIndex.add(int32(t.partition(KafkaPartition(key, t.layout.partitions))))
	}
	t.homes.add(keyHome{lane: -1})
}

// partition returns the lane of partition p, opening it when it is first
// used: by the first key hashed there, or under [Recorded] the first event
// recorded there.
func (t *laneTable) partition(p int) int {
	ln, ok := t.parts[p]
	if !ok {
		ln = t.lanes.add(laneInput{of: p})
		t.parts[p] = ln
	}
	return ln
}

// open returns the lane of the key or line with index i, opening it when
// it is first used.
func (t *laneTable) open(i int) int {
	for t.byIndex.len() <= i { // lines are not added with keys
		t.byIndex.add(-1)
	}
	p := t.byIndex.at(i)
	if *p < 0 {
		*p = int32(t.lanes.add(laneInput{of: i}))
	}
	return int(*p)
}

// nameLane returns the LaneFunc lane named name, opening it when it is
// first seen.
func (t *laneTable) nameLane(name string) int {
	ln, ok := t.names[name]
	if !ok {
		ln = t.lanes.add(laneInput{of: len(t.named)})
		t.names[name] = ln
		t.named = append(t.named, name)
		t.nameBytes += len(name)
	}
	return ln
}

// addKeyLoad records that key index ki carried d more rounds in lane ln. A
// key's first lane is its home lane; the rare load it carries in other
// lanes goes to a map. Key lanes need none of it (see heaviest).
func (t *laneTable) addKeyLoad(ki, ln, d int) {
	h := t.homes.at(ki)
	switch {
	case h.lane < 0:
		h.lane, h.load = int32(ln), d
	case int(h.lane) == ln:
		h.load += d
	default:
		if t.away == nil {
			t.away = make(map[laneKey]int)
		}
		t.away[laneKey{ln, ki}] += d
	}
}

// laneKey names one key's share of one lane.
type laneKey struct{ lane, key int }

// len returns the number of lanes opened.
func (t *laneTable) len() int { return t.lanes.len() }

// name returns the name of lane ln: its key's, its partition's number, its
// line's, or the name its LaneFunc gave.
func (t *laneTable) name(in *inputs, ln int) string {
	l := t.lanes.at(ln)
	switch t.layout.lanes {
	case keyLanes:
		return in.keyName(l.of)
	case partitionLanes, recordedLanes:
		return strconv.Itoa(l.of)
	case lineLanes:
		return in.lineNames[l.of]
	}
	return t.named[l.of]
}

// bytes returns what the table takes, by a sweep's plan of its memory,
// for keys keys and lanes lanes: a lane's laneInput, 24 bytes, and under
// layouts that do not give each key a lane of its own, each key's home lane
// (keyHome, 16 bytes) and under partitions its partition's lane (4); under
// the selective convoy, a key's lane (4); a LaneFunc lane's name besides.
func (t *laneTable) bytes(keys, lanes int) int { return tableBytes(t.layout, keys, lanes) }

// tableBytes returns what the lane table of layout l takes, by a sweep's
// plan of its memory, for keys keys and lanes lanes: see laneTable.bytes.
func tableBytes(l Layout, keys, lanes int) int {
	n := lanes * 24
	switch {
	case l.lanes == keyLanes && l.orderedOnly:
		n += keys * 4
	case l.lanes == partitionLanes:
		n += keys * 20
	case l.lanes == lineLanes:
		n += keys * 16
	case l.lanes == funcLanes:
		n += keys*16 + lanes*64
	}
	return n
}

// heaviest returns the heaviest lane and, in it, the key that carried the
// most, with that key's load; -1 and -1 when no lane was opened. Among
// equally heavy lanes it takes the one whose heaviest key carries the most,
// so that the collision it reports is one that really raises the ceiling,
// then the one opened first; among equal keys, the key seen first. It takes
// O(lanes + keys) time the first time, and none after: every run of the
// layout over the stream asks the same.
func (t *laneTable) heaviest() (ln, key, keyLoad int) {
	if !t.heaviestDone {
		t.heaviestDone = true
		t.heavyLane, t.heavyKey, t.heavyN = t.findHeaviest()
	}
	return t.heavyLane, t.heavyKey, t.heavyN
}

// findHeaviest is heaviest, worked out.
func (t *laneTable) findHeaviest() (ln, key, keyLoad int) {
	top := -1
	for i := range t.lanes.len() {
		top = max(top, t.lanes.at(i).load)
	}
	if top < 0 {
		return -1, -1, 0
	}
	if t.layout.lanes == keyLanes {
		// A key lane carries its one key's whole load: the heaviest lane
		// opened first wins, with its key.
		for i := range t.lanes.len() {
			if t.lanes.at(i).load == top {
				return i, t.lanes.at(i).of, top
			}
		}
	}
	ln, key = -1, -1
	for lane, k := range t.heaviestKeys(top) {
		load := t.keyLoadIn(k, lane)
		if ln < 0 || load > keyLoad || load == keyLoad && lane < ln {
			ln, key, keyLoad = lane, k, load
		}
	}
	return ln, key, keyLoad
}

// heaviestKeys returns, for each lane whose load is top, the key that
// carried the most in it, the key seen first among equals; it is heaviest's
// part for lanes that keep a load per key (all but key lanes). It takes
// O(keys + away loads) time.
func (t *laneTable) heaviestKeys(top int) map[int]int {
	bestKey := make(map[int]int) // heaviest lanes → their heaviest key
	consider := func(k, lane, load int) {
		if t.lanes.at(lane).load != top {
			return
		}
		if b, ok := bestKey[lane]; !ok || load > t.keyLoadIn(b, lane) || load == t.keyLoadIn(b, lane) && k < b {
			bestKey[lane] = k
		}
	}
	for i := range t.homes.len() {
		if h := t.homes.at(i); h.lane >= 0 {
			consider(i, int(h.lane), h.load)
		}
	}
	for lk, load := range t.away {
		consider(lk.key, lk.lane, load)
	}
	return bestKey
}

// keyLoadIn returns the load key k carried in lane ln.
func (t *laneTable) keyLoadIn(k, ln int) int {
	if h := t.homes.at(k); int(h.lane) == ln {
		return h.load
	}
	return t.away[laneKey{ln, k}]
}

// laneRun is one lane as one run sees it: the time it becomes free and
// what its events waited from arrival to start, the longest and the total.
// The total is exact in 128 bits: its low 64 here, and its high ones, which
// only a total of more than 2⁶⁴ rounds carries into, in the run's
// laneCarry, by lane. Its index is the lane's in the layout's laneTable. It
// holds no pointer, so that millions of key lanes cost the garbage
// collector nothing, and takes 24 bytes.
type laneRun struct {
	free    int
	maxWait int
	waitLo  uint64 // the total wait, modulo 2⁶⁴
}

// addWait counts one more event that waited w rounds in lane ln, l.
func (s *Simulator) addWait(ln int, l *laneRun, w int) {
	l.maxWait = max(l.maxWait, w)
	var carry uint64
	if l.waitLo, carry = bits.Add64(l.waitLo, uint64(w), 0); carry != 0 {
		if s.laneCarry == nil {
			s.laneCarry = make(map[int]uint64)
		}
		s.laneCarry[ln]++
	}
}

// lane returns the run's own state of lane ln, making it, and the lanes
// before it, when the run meets it first: lanes are opened in input order.
func (s *Simulator) lane(ln int) *laneRun {
	for s.lanes.len() <= ln {
		s.lanes.add(laneRun{})
	}
	return s.lanes.at(ln)
}
