package synth

import (
	"math/bits"
	"strconv"
	"strings"
)

// names holds the names prefix+"1" … prefix+"n", each padded with zeros to
// the width of n ("K0000001" … "K1500000"), in one string, so that a name is
// a substring: taking it does not allocate.
type names struct {
	all   string
	width int // bytes per name, the prefix included
}

// newNames builds the first used of n names in O(used) time and
// used·width bytes.
func newNames(prefix byte, n, used int) names {
	digits := len(strconv.Itoa(n))
	num := []byte(strings.Repeat("0", digits)) // a decimal counter
	var b strings.Builder
	b.Grow(used * (1 + digits))
	for range used {
		for i := digits - 1; ; i-- { // add 1; n has enough digits not to overflow
			if num[i] < '9' {
				num[i]++
				break
			}
			num[i] = '0'
		}
		b.WriteByte(prefix)
		b.Write(num)
	}
	return names{all: b.String(), width: 1 + digits}
}

// name returns the name of id, 0 for the first.
func (n names) name(id int32) string {
	i := int(id) * n.width
	return n.all[i : i+n.width]
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
// O(n) time and memory with skew, O(1) without.
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
