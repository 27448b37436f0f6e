package kafka

import (
	"math"
	"testing"
)

// A bitset whose highest bit names the offset one past math.MaxInt64 is
// refused: committable MaxInt64−7 and bit 7 set name offset
// committable+1+7, which overflows.
func TestParseMetadataRefusesABitsetPastTheLargestOffset(t *testing.T) {
	const c = math.MaxInt64 - 7
	m := encode(kindBits, c, []byte{0x80}, []byte{0x80})
	if f, err := ParseMetadata(c, m); err == nil {
		t.Errorf("ParseMetadata(%d, bit 7): %v, nil; want an error (offset past the largest)", int64(c), f.Runs())
	}
	// One offset lower is the largest offset, and reads back.
	m = encode(kindBits, c, []byte{0x40}, []byte{0x40})
	f, err := ParseMetadata(c, m)
	if err != nil || len(f.runs) != 1 || f.runs[0] != (Run{math.MaxInt64, math.MaxInt64}) {
		t.Errorf("ParseMetadata(%d, bit 6): %v, %v; want the run [MaxInt64, MaxInt64]", int64(c), f.Runs(), err)
	}
}
