package konvoy

// lane is one serial queue: the time it becomes free, the work it carries,
// its name, and the order in which it was opened (-1: not yet).
type lane struct {
	name   string
	free   int
	load   int
	opened int
}

// laneOf returns the index of event e's lane, opening the lane when it is
// first used, or -1 when the event takes no lane. Key and partition lanes
// are found through the key's state, without a map lookup.
func (s *Simulator) laneOf(e Event, k int) int {
	l := &s.layout
	if l.orderedOnly && e.Step == 0 {
		return -1
	}
	switch l.lanes {
	case keyLanes:
		ks := &s.keys[k]
		if ks.lane < 0 {
			ks.lane = int32(s.newLane(e.Key))
		}
		return int(ks.lane)
	case partitionLanes:
		p := int(s.keys[k].lane)
		if s.lanes[p].opened < 0 {
			s.lanes[p].opened = s.lanesOpened
			s.lanesOpened++
		}
		return p
	case lineLanes:
		return s.namedLane(e.Line)
	case funcLanes:
		name, ok := l.laneFunc(e)
		if !ok {
			return -1
		}
		return s.namedLane(name)
	}
	return -1
}

// newLane opens a lane named name and returns its index.
func (s *Simulator) newLane(name string) int {
	s.lanes = append(s.lanes, lane{name: name, opened: s.lanesOpened})
	s.lanesOpened++
	return len(s.lanes) - 1
}

// namedLane returns the index of the lane named name, opening it when it is
// first seen.
func (s *Simulator) namedLane(name string) int {
	i, ok := s.laneIndex[name]
	if !ok {
		i = s.newLane(name)
		s.laneIndex[name] = i
	}
	return i
}

// addLaneLoad records that key index ki carried d more rounds in lane ln. A
// key's first lane is its home lane, kept in its state; the rare load it
// carries in other lanes goes to a map.
func (s *Simulator) addLaneLoad(ki, ln, d int) {
	k := &s.keys[ki]
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

// heaviest returns the heaviest lane (ties: the one opened first) and, in
// it, the key that carried the most (ties: the key seen first), or -1 and -1
// when no lane was used. It takes O(lanes + keys) time.
func (s *Simulator) heaviest() (ln, key, keyLoad int) {
	ln, key = -1, -1
	for i, l := range s.lanes {
		if l.opened < 0 {
			continue
		}
		if ln < 0 || l.load > s.lanes[ln].load || l.load == s.lanes[ln].load && l.opened < s.lanes[ln].opened {
			ln = i
		}
	}
	if ln < 0 {
		return -1, -1, 0
	}
	better := func(k, load int) {
		if key < 0 || load > keyLoad || load == keyLoad && k < key {
			key, keyLoad = k, load
		}
	}
	for i, k := range s.keys {
		if int(k.home) == ln {
			better(i, k.homeLoad)
		}
	}
	for lk, load := range s.awayLoad {
		if lk.lane == ln {
			better(lk.key, load)
		}
	}
	return ln, key, keyLoad
}
