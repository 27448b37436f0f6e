package kafka

import (
	"bytes"
	"hash/crc32"
	"testing"

	"github.com/sirali-konvoy/konvoy/internal/memtest"
	"pgregory.net/rapid"
)

// TestBelowKeepsExactlyTheOffsetsBelowEnd: below(end) is the set with
// every finished offset at or past end taken out and nothing else
// changed, whatever end, including the last offset of a run and the
// first past it (a run ending at end must lose end: the record at end is
// not named finished below it); its length, read back through its own
// metadata, is that of the set it names.
func TestBelowKeepsExactlyTheOffsetsBelowEnd(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		f := drawFinished(t)
		end := rapid.SampledFrom(probes(f)).Draw(t, "end")
		g := f.below(end)
		if g.Committable() != f.Committable() {
			t.Fatalf("below(%d) moved the committable offset from %d to %d", end, f.Committable(), g.Committable())
		}
		for _, o := range append(probes(f), end-1, end, end+1) {
			want := o < f.Committable() || (o < end && naiveDone(f, o))
			if got := g.Done(o); got != want {
				t.Fatalf("%d %v below(%d): Done(%d) = %v; want %v", f.Committable(), f.Runs(), end, o, got, want)
			}
		}
		s, err := g.Metadata()
		if err != nil {
			return // too long to read back; Done above said what it names
		}
		back, err := ParseMetadata(g.Committable(), s)
		if err != nil {
			t.Fatal(err)
		}
		if back.Bound() != g.Bound() {
			t.Fatalf("below(%d) has Bound %d; its metadata read back, %d", end, g.Bound(), back.Bound())
		}
	})
}

// TestParseMetadataMemoryIsBoundedForEveryBitset: the bound of about
// 5 MiB holds whatever the bitset's shape, not only for alternating bits:
// one run as long as a body may be (all bits set) holds one run, and a
// bitset mixing runs across and within bytes as many as it has. The
// budget is TestParseMetadataMemoryIsBounded's. The test runs alone
// (memtest.Alone): what it measures counts every goroutine's allocations.
func TestParseMetadataMemoryIsBoundedForEveryBitset(t *testing.T) {
	if !memtest.Alone(t) {
		return
	}
	for _, tc := range []struct {
		name    string
		pattern []byte
	}{
		{"every bit set", []byte{0xff}},
		{"runs across and within bytes", []byte{0x55, 0x95, 0xaa}},
		{"runs across bytes", []byte{0x01, 0x81, 0x80}},
	} {
		body := bytes.Repeat(tc.pattern, maxBody/len(tc.pattern)+1)[:maxBody]
		body[maxBody-1] |= 0x80 // the last byte is not zero
		s := forge(kindBitsZ, 7, crc32.Checksum(body, castagnoli), deflated(body))
		if len(s) > MaxMetadata {
			t.Fatalf("%s: the string takes %d bytes", tc.name, len(s))
		}
		var f Finished
		var err error
		got := memtest.Allocated(func() { f, err = ParseMetadata(7, s) })
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if got > 6<<20 {
			t.Errorf("%s: ParseMetadata of %d bytes (%d runs) allocated %d bytes", tc.name, len(s), len(f.Runs()), got)
		}
	}
}
