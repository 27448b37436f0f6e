package live

import "hash/maphash"

// laneTable finds the lanes with items held by name: an open-addressing
// hash table with linear probing, whose hashes Submit computes before it
// takes the executor's lock, and which finds or makes a lane with one
// probe sequence. It holds at most half as many lanes as it has places,
// and doubles when full; it never shrinks, so its memory is that of the
// most lanes held at once (each lane has an item held, so at most
// WithMaxHeld of them).
type laneTable struct {
	seed  maphash.Seed
	place []int32 // a lane's index in laneAt, plus 1; 0 for an empty place
	n     int     // lanes in the table
}

// newLaneTable returns an empty table.
func newLaneTable() laneTable {
	return laneTable{seed: maphash.MakeSeed(), place: make([]int32, 64)}
}

// hash returns the hash of the lane named name.
func (t *laneTable) hash(name string) uint64 { return maphash.String(t.seed, name) }

// find returns the lane named name, of hash h, and true; or, when the
// table has no such lane, the place where it would go and false.
func (t *laneTable) find(lanes []lane, name string, h uint64) (int32, bool) {
	mask := uint64(len(t.place) - 1)
	for j := h & mask; ; j = (j + 1) & mask {
		v := t.place[j]
		if v == 0 {
			return int32(j), false
		}
		if l := &lanes[v-1]; l.hash == h && l.name == name {
			return v - 1, true
		}
	}
}

// add puts lane ln at place j, which find gave, growing the table when it
// is then full.
func (t *laneTable) add(lanes []lane, j, ln int32) {
	t.place[j] = ln + 1
	t.n++
	if 2*t.n > len(t.place) {
		t.grow(lanes)
	}
}

// grow doubles the table.
func (t *laneTable) grow(lanes []lane) {
	old := t.place
	t.place = make([]int32, 2*len(old))
	mask := uint64(len(t.place) - 1)
	for _, v := range old {
		if v == 0 {
			continue
		}
		j := lanes[v-1].hash & mask
		for t.place[j] != 0 {
			j = (j + 1) & mask
		}
		t.place[j] = v
	}
}

// remove takes lane ln, which the table holds, out of it, moving back the
// lanes after it in its probe sequence so that every lane stays reachable
// from its hash's place without crossing an empty one.
func (t *laneTable) remove(lanes []lane, ln int32) {
	mask := uint64(len(t.place) - 1)
	i := lanes[ln].hash & mask
	for t.place[i] != ln+1 {
		i = (i + 1) & mask
	}
	for j := (i + 1) & mask; t.place[j] != 0; j = (j + 1) & mask {
		home := lanes[t.place[j]-1].hash & mask
		// The lane at j may move to i when its home is not in (i, j],
		// cyclically.
		if (j-home)&mask >= (j-i)&mask {
			t.place[i] = t.place[j]
			i = j
		}
	}
	t.place[i] = 0
	t.n--
}
