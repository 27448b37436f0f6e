package synth

import (
	"math/bits"
	"strings"
)

// nameBlock is how many names a [names] makes at one time: the names of a
// block it keeps, or the room of the buffer it writes names to otherwise.
const nameBlock = 4096

// The most key and line names a [names] keeps, 2^21 keys of at most 8 bytes
// and 2^16 lines of at most 6: with more, it makes each name again every time
// it is asked for. Keys without skew first enter the window in the order of
// their ranks, so their blocks fill up before the next is made, while lines
// are asked for in no order and each line asked for may take a block of its
// own; hence the smaller limit. They are variables only so that tests can
// lower them.
var (
	maxKeptKeyNames  = 1 << 21
	maxKeptLineNames = 1 << 16
)

// names makes the names prefix+"1" … prefix+"n", each padded with zeros to
// the width of n ("K0000001" … "K1500000"), when they are first asked for, so
// that a name costs memory only once it is used.
//
// When it keeps them, it does so in blocks of nameBlock names of consecutive
// ranks: the first time a name is asked for, it makes the names of its
// block, in one string of which each name is a substring, and then returns
// the same substring without allocating. It so holds at most n names, and
// only those of blocks in use, plus a string header per block.
//
// When it does not, it writes each name asked for at the end of a buffer
// with room for nameBlock names and returns that part of it, and when the
// buffer is full it starts another, allocating once for nameBlock names. A
// name it returned stays valid, as bytes once written are never written
// again, and its memory stays one buffer however many names it makes.
type names struct {
	prefix byte
	digits int // of n
	n      int
	blocks []string        // when kept: per block, its names, "" until first asked for
	buf    strings.Builder // when not kept: the buffer names are written to
}

// newNames returns the names of ranks 1 to n, 1 ≤ n ≤ MaxCount, none of them
// made yet, which it keeps when n ≤ keep. It takes O(1) time and, when it
// keeps names, 16 bytes per block.
func newNames(prefix byte, n, keep int) *names {
	digits := 1
	for m := n; m >= 10; m /= 10 {
		digits++
	}
	ns := &names{prefix: prefix, digits: digits, n: n}
	if n <= keep {
		ns.blocks = make([]string, (n+nameBlock-1)/nameBlock)
	}
	return ns
}

// width returns the bytes of a name.
func (ns *names) width() int { return 1 + ns.digits }

// name returns the name of rank, 1 to n: in O(1) time without allocating
// when the name is kept and its block made; in O(nameBlock) time, allocating
// the block, the first time a name of a block is asked for; and in O(1) time,
// allocating once per nameBlock names, when names are not kept.
func (ns *names) name(rank int) string {
	width := ns.width()
	if ns.blocks == nil {
		if ns.buf.Cap()-ns.buf.Len() < width {
			ns.buf.Reset()
			ns.buf.Grow(nameBlock * width)
		}
		ns.write(&ns.buf, rank)
		all := ns.buf.String()
		return all[len(all)-width:]
	}
	b, i := (rank-1)/nameBlock, (rank-1)%nameBlock
	if ns.blocks[b] == "" {
		ns.blocks[b] = ns.block(b)
	}
	return ns.blocks[b][i*width : (i+1)*width]
}

// write appends the name of rank to sb.
func (ns *names) write(sb *strings.Builder, rank int) {
	var d [11]byte // the widest name, with MaxCount's 10 digits
	sb.Write(ns.fill(d[:ns.width()], rank))
}

// fill writes the name of rank into name, which has its width, and returns
// name.
func (ns *names) fill(name []byte, rank int) []byte {
	name[0] = ns.prefix
	for i := ns.digits; i > 0; i-- {
		name[i] = byte('0' + rank%10)
		rank /= 10
	}
	return name
}

// block returns the names of block b, ranks b·nameBlock + 1 to (b+1)·nameBlock
// or n, in one string.
func (ns *names) block(b int) string {
	first, last := b*nameBlock+1, min((b+1)*nameBlock, ns.n)
	width := ns.width()
	var sb strings.Builder
	sb.Grow((last - first + 1) * width)
	var d [11]byte
	name := ns.fill(d[:width], first)
	for r := first; ; r++ {
		sb.Write(name)
		if r == last {
			return sb.String()
		}
		for i := width - 1; ; i-- { // add 1; r < n, so r+1 has no more digits than n
			if name[i] < '9' {
				name[i]++
				break
			}
			name[i] = '0'
		}
	}
}

// golden is 2^64 divided by the golden ratio, rounded to odd: the step of the
// additive sequence that places keys on lines.
const golden = 0x9e3779b97f4a7c15

// lines places keys on lines: key id goes to the line whose cumulative Zipf
// share first exceeds the point (id·golden + offset) mod 2^64, read as a
// fraction of 2^64. The points of consecutive keys are spread as evenly as
// points can be, so each line gets its share of any run of keys up to a
// small error, and a key's line depends on nothing but the key and the seed.
type lines struct {
	n          uint64   // lines
	thresholds []uint64 // with skew: see zipfThresholds; nil without
	offset     uint64
}

// newLines returns the placement of keys on n lines with skew s; it takes
// O(n) time and 8 bytes per line with skew (n is then at most
// MaxSkewedLines), O(1) without.
func newLines(n int, s float64, offset uint64) lines {
	l := lines{n: uint64(n), offset: offset}
	if s > 0 {
		l.thresholds = zipfThresholds(n, s)
	}
	return l
}

// of returns the line id (rank − 1) of key id: the first r with x <
// thresholds[r], or the last line; without skew, ⌊x·n/2^64⌋.
func (l lines) of(id int32) int32 {
	x := uint64(id)*golden + l.offset // mod 2^64
	if l.thresholds == nil {
		r, _ := bits.Mul64(x, l.n)
		return int32(r)
	}
	x >>= 1 // 63 bits, as the thresholds
	lo, hi := 0, len(l.thresholds)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if x < l.thresholds[m] {
			hi = m
		} else {
			lo = m + 1
		}
	}
	return int32(lo)
}
