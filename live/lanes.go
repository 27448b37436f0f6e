package live

import "hash/maphash"

// laneTable finds the lanes with items held by name: an open-addressing
// hash table with linear probing, whose hashes Submit computes before it
// takes the executor's lock, and which finds or makes a lane with one
// probe sequence. It holds at most half as many lanes as it has places,
// and doubles when full; it never shrinks, so its memory is that of the
// most lanes held at once (each lane has an item held, so at most
// WithMaxHeld of them). Each place keeps the low 32 bits of its lane's
// hash, which are all that a table of at most 2³² places (WithMaxHeld
// is below 2³¹) reads for a home, so that probing, moving and growing
// read no lane but the one found.
type laneTable struct {
	seed  maphash.Seed
	place []tablePlace
	n     int // lanes in the table
}

// tablePlace is one place of a laneTable.
type tablePlace struct {
	ln uint32 // the lane's index in laneAt, plus 1; 0 for an empty place
	h  uint32 // the low bits of its hash
}

// newLaneTable returns an empty table.
func newLaneTable() laneTable {
	return laneTable{seed: maphash.MakeSeed(), place: make([]tablePlace, 64)}
}

// hash returns the hash of the lane named name.
func (t *laneTable) hash(name string) uint64 { return maphash.String(t.seed, name) }

// find returns the lane named name, of hash h, and true; or, when the
// table has no such lane, the place where it would go and false.
func (t *laneTable) find(lanes []lane, name string, h uint64) (int32, bool) {
	mask, low := uint64(len(t.place)-1), uint32(h)
	for j := uint64(low) & mask; ; j = (j + 1) & mask {
		v := t.place[j]
		if v.ln == 0 {
			return int32(j), false
		}
		if v.h == low && lanes[v.ln-1].name == name {
			return int32(v.ln - 1), true
		}
	}
}

// add puts lane ln at place j, which find gave, growing the table when it
// is then full.
func (t *laneTable) add(lanes []lane, j, ln int32) {
	t.place[j] = tablePlace{uint32(ln) + 1, uint32(lanes[ln].hash)}
	t.n++
	if 2*t.n > len(t.place) {
		t.grow(lanes)
	}
}

// grow doubles the table.
func (t *laneTable) grow(lanes []lane) {
	old := t.place
	t.place = make([]tablePlace, 2*len(old))
	mask := uint64(len(t.place) - 1)
	for _, v := range old {
		if v.ln == 0 {
			continue
		}
		j := uint64(v.h) & mask
		for t.place[j].ln != 0 {
			j = (j + 1) & mask
		}
		t.place[j] = v
	}
}

// remove takes lane ln, which the table holds, out of it, moving back the
// lanes after it in its probe sequence so that every lane stays reachable
// from its hash's place without crossing an empty one.
func (t *laneTable) remove(lanes []lane, ln int32) {
	mask, v := uint64(len(t.place)-1), uint32(ln)+1
	i := uint64(uint32(lanes[ln].hash)) & mask
	for t.place[i].ln != v {
		i = (i + 1) & mask
	}
	for j := (i + 1) & mask; t.place[j].ln != 0; j = (j + 1) & mask {
		home := uint64(t.place[j].h) & mask
		// The lane at j may move to i when its home is not in (i, j],
		// cyclically.
		if (j-home)&mask >= (j-i)&mask {
			t.place[i] = t.place[j]
			i = j
		}
	}
	t.place[i] = tablePlace{}
	t.n--
}
