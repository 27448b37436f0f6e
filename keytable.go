package konvoy

import "hash/maphash"

// keyTable maps key names to their index in order of first appearance: an
// open-addressing hash table with linear probing whose slots hold a hash
// fingerprint and the index, 8 bytes each and free of pointers. It does the
// one lookup per event that the simulator cannot avoid, and does it faster
// than a map[string]int on millions of keys because a probe touches one small
// slot and compares names only when fingerprints match. Its layout depends on
// a random seed, but nothing iterates over it, so results do not.
type keyTable struct {
	seed  maphash.Seed
	slots []uint64 // 0: empty; else fingerprint<<32 | (index+1)
	names []string // names[i] is the key with index i
}

const keyTableMinSlots = 1 << 10

// index returns the index of key, adding it with the next index when it is
// new, and whether it was new. It takes O(1) expected time; growing the
// table, at half full, rehashes every key once.
func (t *keyTable) index(key string) (i int, added bool) {
	if t.slots == nil {
		t.seed = maphash.MakeSeed()
		t.slots = make([]uint64, keyTableMinSlots)
	}
	h := maphash.String(t.seed, key)
	mask := uint64(len(t.slots) - 1)
	fp := h >> 32
	for p := h & mask; ; p = (p + 1) & mask {
		s := t.slots[p]
		if s == 0 {
			i = len(t.names)
			t.slots[p] = fp<<32 | uint64(i+1)
			t.names = append(t.names, key)
			if 2*len(t.names) > len(t.slots) {
				t.grow()
			}
			return i, true
		}
		if s>>32 == fp && t.names[uint32(s)-1] == key {
			return int(uint32(s)) - 1, false
		}
	}
}

// grow doubles the slots and places every key again.
func (t *keyTable) grow() {
	t.slots = make([]uint64, 2*len(t.slots))
	mask := uint64(len(t.slots) - 1)
	for i, key := range t.names {
		h := maphash.String(t.seed, key)
		p := h & mask
		for t.slots[p] != 0 {
			p = (p + 1) & mask
		}
		t.slots[p] = h>>32<<32 | uint64(i+1)
	}
}
