package konvoy

import (
	"hash/maphash"
	"math/bits"
)

// keyTable holds the keys' names and highest steps, numbered in order of
// first appearance, and finds a key's by its name: an open-addressing hash table with linear
// probing whose slots hold the top 32 bits of the key's hash and the index,
// 8 bytes each and free of pointers. It does the one lookup per event that
// the simulator cannot avoid, and does it faster than a map[string]int on
// millions of keys because a probe touches one small slot and compares names
// only when the hash bits match; the name compared sits beside the state the
// event then updates. A key's home slot is given by the top bits of its hash,
// which the slot keeps, so growing the table moves slots without hashing a
// name again, in nearly sequential order.
//
// Most events belong to a key seen a moment ago, but with millions of keys
// their slots lie scattered over megabytes, nearly each on its own memory
// page, and a probe waits for the page's translation as well as the line.
// So a small direct-mapped cache of recently found keys, indexed by the low
// bits of the hash and holding slots' values, is asked first: at most 128 KB,
// it stays in the processor's caches. A stale or overwritten entry only
// sends the lookup on to the table.
//
// Its layout depends on a random seed, but nothing iterates over it, so
// results do not. A slot keeps 32 bits of hash, enough to place a key among
// at most 2³² slots, so the table holds at most keyTableMaxKeys keys, three
// quarters of that.
type keyTable struct {
	seed   maphash.Seed
	slots  []uint64       // 0: empty; else top32(hash)<<32 | (index+1)
	shift  uint           // 64 − log₂ len(slots): the hash's top bits pick the home slot
	recent []uint64       // slots' values by the hash's low bits; 0: none
	keys   paged[keyName] // by index
}

const (
	keyTableMinSlots = 1 << 10
	keyTableRecent   = 1 << 14 // the most entries of the recent-key cache
	keyTableMaxKeys  = 3 << 30 // the most keys: three quarters of 2³² slots
)

// index returns the index of key, adding it with the next index when it
// is new, and whether it was new; -1
// when key is new and the table already holds keyTableMaxKeys keys. It
// takes O(1) expected time; growing the table, at three quarters full,
// moves every slot once.
func (t *keyTable) index(key string) (i int, added bool) {
	if t.slots == nil {
		t.seed = maphash.MakeSeed()
		t.slots = make([]uint64, keyTableMinSlots)
		t.shift = 64 - uint(bits.TrailingZeros(keyTableMinSlots))
		t.recent = make([]uint64, keyTableMinSlots)
	}
	h := maphash.String(t.seed, key)
	top := h >> 32 << 32
	cached := &t.recent[h&uint64(len(t.recent)-1)]
	if c := *cached; c>>32<<32 == top && c != 0 && t.keys.at(int(uint32(c))-1).name == key {
		return int(uint32(c)) - 1, false
	}
	mask := uint64(len(t.slots) - 1)
	for p := h >> t.shift; ; p = (p + 1) & mask {
		s := t.slots[p]
		if s == 0 {
			if uint64(t.keys.len()) >= keyTableMaxKeys {
				return -1, false
			}
			i = t.keys.add(keyName{name: key})
			t.slots[p] = top | uint64(i+1)
			*cached = t.slots[p]
			if 4*t.keys.len() > 3*len(t.slots) {
				t.grow()
			}
			return i, true
		}
		if s>>32<<32 == top && t.keys.at(int(uint32(s))-1).name == key {
			*cached = s
			return int(uint32(s)) - 1, false
		}
	}
}

// at returns the name and highest step of the key with index i, valid
// until the next key is added.
func (t *keyTable) at(i int) *keyName { return t.keys.at(i) }

// len returns the number of keys.
func (t *keyTable) len() int { return t.keys.len() }

// grow doubles the slots and moves every slot to its home in the new table.
// The recent-key cache grows with the table up to its size, and starts
// empty when it does.
func (t *keyTable) grow() {
	old := t.slots
	t.slots = make([]uint64, 2*len(old))
	t.shift--
	mask := uint64(len(t.slots) - 1)
	for _, s := range old {
		if s == 0 {
			continue
		}
		p := s >> t.shift
		for t.slots[p] != 0 {
			p = (p + 1) & mask
		}
		t.slots[p] = s
	}
	if len(t.recent) < keyTableRecent {
		t.recent = make([]uint64, 2*len(t.recent))
	}
}

// keyName is what a stream's key table keeps of one key: its name and the
// highest step among its events so far. The name's header lies beside the
// step, so finding a key and raising its step touch the same few bytes.
type keyName struct {
	name    string
	highest int
}
