package kafka

import (
	"bytes"
	"hash/crc32"
	"runtime"
	"testing"
)

// TestParseMetadataMemoryIsBounded: the costliest string there is, a
// deflated bitset of alternating bits as long as a body may be (2^18 runs
// from a string of under 4 KiB), reads back whole, allocating a bounded
// amount (6 MiB) however many times larger than the string it is.
func TestParseMetadataMemoryIsBounded(t *testing.T) {
	body := bytes.Repeat([]byte{0x55}, maxBody)
	s := forge(kindBitsZ, 7, crc32.Checksum(body, castagnoli), deflated(body))
	if len(s) > MaxMetadata {
		t.Fatalf("the string takes %d bytes", len(s))
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f, err := ParseMetadata(7, s)
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(f.runs); n != 4*maxBody {
		t.Fatalf("%d runs; want %d", n, 4*maxBody)
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > 6<<20 {
		t.Errorf("ParseMetadata of %d bytes allocated %d bytes", len(s), got)
	}
	t.Logf("%d bytes of metadata: %d runs, %d bytes allocated", len(s), len(f.runs), after.TotalAlloc-before.TotalAlloc)
}
