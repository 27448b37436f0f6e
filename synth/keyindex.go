package synth

// keyIndex maps the keys in flight to their slots. It is a hash table with
// open addressing and linear probing, made at least twice as large as the
// window, so that it is never more than half full and never grows; removing
// a key moves the keys after it back rather than leaving a tombstone, so
// that no sequence of insertions and removals slows it down or makes it
// allocate. Its memory is 16 to 32 bytes per lifecycle in the window, however
// many keys there are.
type keyIndex struct {
	cells []keyCell
	mask  uint64 // len(cells) − 1
	shift uint   // 64 − log2(len(cells))
}

// keyCell is a cell of a keyIndex: key is the key id + 1, 0 in an empty cell.
type keyCell struct {
	key, slot int32
}

// newKeyIndex returns an empty index for up to window keys at once.
func newKeyIndex(window int) keyIndex {
	k := 1
	for 1<<k < 2*window {
		k++
	}
	return keyIndex{cells: make([]keyCell, 1<<k), mask: 1<<k - 1, shift: uint(64 - k)}
}

// home returns the cell where probing for key (an id + 1) starts: Fibonacci
// hashing, which spreads runs of consecutive ids.
func (x *keyIndex) home(key int32) uint64 {
	return uint64(key) * golden >> x.shift
}

// find returns the cell of key id and true when id is in the index, or the
// empty cell where it would go and false.
func (x *keyIndex) find(id int32) (cell uint64, found bool) {
	key := id + 1
	for i := x.home(key); ; i = (i + 1) & x.mask {
		switch x.cells[i].key {
		case key:
			return i, true
		case 0:
			return i, false
		}
	}
}

// slot returns the slot of the key in cell, found by find.
func (x *keyIndex) slot(cell uint64) int32 {
	return x.cells[cell].slot
}

// put puts key id, in flight in slot, into cell, the empty cell find
// returned for it.
func (x *keyIndex) put(cell uint64, id, slot int32) {
	x.cells[cell] = keyCell{key: id + 1, slot: slot}
}

// remove takes the key of cell i out of the index, moving back the keys
// after it that would otherwise no longer be found.
func (x *keyIndex) remove(i uint64) {
	for j := (i + 1) & x.mask; x.cells[j].key != 0; j = (j + 1) & x.mask {
		// The key in j may fill the hole in i when i lies on its probe
		// path, from its home to j.
		if (j-x.home(x.cells[j].key))&x.mask >= (j-i)&x.mask {
			x.cells[i] = x.cells[j]
			i = j
		}
	}
	x.cells[i] = keyCell{}
}
