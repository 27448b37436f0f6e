package kafka

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"hash/crc32"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// drawFinished draws a partition's finished offsets above a committable
// offset: empty, dense, sparse, alternating, near the metadata's limit, or
// with runs and gaps as long as int64 allows, some ending at the largest
// offset. The runs are built from gaps and lengths, never from listed
// offsets, so that a run of 2^62 costs nothing.
func drawFinished(t *rapid.T) Finished {
	mode := rapid.SampledFrom([]string{"empty", "dense", "sparse", "alternating", "near limit", "huge", "top"}).Draw(t, "mode")
	c := rapid.OneOf(rapid.Int64Range(0, 1000), rapid.Int64Range(0, math.MaxInt64), rapid.Int64Range(math.MaxInt64-100000, math.MaxInt64)).Draw(t, "committable")
	var count int
	var gap, length func(i int) uint64
	small := func(hi uint64) func(int) uint64 {
		return func(i int) uint64 { return rapid.Uint64Range(0, hi).Draw(t, "g") }
	}
	switch mode {
	case "empty":
	case "dense":
		count, gap, length = rapid.IntRange(1, 200).Draw(t, "runs"), small(2), small(60)
	case "sparse":
		count, gap, length = rapid.IntRange(1, 300).Draw(t, "runs"), small(100000), small(2)
	case "alternating":
		count, gap, length = rapid.IntRange(1, 3000).Draw(t, "runs"), small(0), small(0)
	case "near limit":
		count, gap, length = rapid.IntRange(900, 1500).Draw(t, "runs"), small(400), small(3)
	case "huge":
		count, gap, length = rapid.IntRange(1, 8).Draw(t, "runs"), small(1<<62), small(1<<62)
	case "top":
		c = rapid.Int64Range(math.MaxInt64-40, math.MaxInt64).Draw(t, "committable")
		count, gap, length = rapid.IntRange(1, 20).Draw(t, "runs"), small(3), small(3)
	}
	var runs []Run
	prev := c - 1 // the run before the first ends below c, which is not finished
	for i := 0; i < count && prev <= math.MaxInt64-2; i++ {
		g := min(gap(i), uint64(math.MaxInt64-2-prev))
		first := prev + 2 + int64(g)
		l := min(length(i), uint64(math.MaxInt64-first))
		runs = append(runs, Run{First: first, Last: first + int64(l)})
		prev = first + int64(l)
	}
	return Finished{committable: c, runs: runs, runBytes: runBytes(c-1, runs)}
}

// naiveDone is Done by a linear scan.
func naiveDone(f Finished, o int64) bool {
	if o < f.committable {
		return true
	}
	for _, r := range f.runs {
		if r.First <= o && o <= r.Last {
			return true
		}
	}
	return false
}

// probes returns offsets worth asking about: each run's ends and the
// offsets either side, the committable offset and its neighbours.
func probes(f Finished) []int64 {
	out := []int64{f.committable, f.committable - 1, f.committable + 1, 0, math.MaxInt64}
	for _, r := range f.runs {
		out = append(out, r.First, r.Last, r.First-1, r.First+(r.Last-r.First)/2)
		if r.Last < math.MaxInt64 {
			out = append(out, r.Last+1)
		}
	}
	return out
}

// TestMetadataRoundTrips: ParseMetadata gives back exactly the runs that
// Metadata encoded, for every set whose metadata fits, because each
// encoding names every finished offset relative to the committable one;
// and the same set gives the same string twice.
func TestMetadataRoundTrips(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		f := drawFinished(t)
		s, err := f.Metadata()
		if err != nil {
			if f.Bound() <= MaxMetadata {
				t.Fatalf("Metadata: %v, with Bound %d", err, f.Bound())
			}
			return
		}
		if again, _ := f.Metadata(); again != s {
			t.Fatalf("Metadata gave %q, then %q", s, again)
		}
		g, err := ParseMetadata(f.committable, s)
		if err != nil {
			t.Fatalf("ParseMetadata(%d, %q): %v", f.committable, s, err)
		}
		if !slices.Equal(g.Runs(), f.runs) || g.Committable() != f.committable || g.Bound() != f.Bound() {
			t.Fatalf("round trip of %d %v gave %d %v", f.committable, f.runs, g.Committable(), g.Runs())
		}
		for _, o := range probes(f) {
			if g.Done(o) != naiveDone(f, o) {
				t.Fatalf("Done(%d) = %v; want %v", o, g.Done(o), naiveDone(f, o))
			}
		}
	})
}

// TestMetadataIsTheShortestCandidate: Metadata takes the shortest of the
// encodings it may write, and each of them reads back as the same set, so
// the choice is only ever a matter of length.
func TestMetadataIsTheShortestCandidate(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		f := drawFinished(t)
		if len(f.runs) == 0 {
			return
		}
		s, err := f.Metadata()
		cands := f.candidates()
		if len(cands) == 0 {
			t.Fatalf("no candidates for %v", f.runs)
		}
		shortest := slices.MinFunc(cands, func(a, b string) int { return len(a) - len(b) })
		if err != nil {
			if len(shortest) <= MaxMetadata {
				t.Fatalf("Metadata: %v, with a candidate of %d bytes", err, len(shortest))
			}
			return
		}
		if first := cands[slices.IndexFunc(cands, func(c string) bool { return len(c) == len(shortest) })]; s != first {
			t.Fatalf("Metadata %q; want the first of the shortest, %q", s[:3], first[:3])
		}
		for _, c := range cands {
			if len(s) > len(c) {
				t.Fatalf("Metadata of %d bytes (%q) beside a candidate of %d (%q)", len(s), s[:3], len(c), c[:3])
			}
			if len(c) > MaxMetadata {
				continue // ParseMetadata refuses it, as Kafka would
			}
			g, err := ParseMetadata(f.committable, c)
			if err != nil {
				t.Fatalf("candidate %q: %v", c[:3], err)
			}
			if !slices.Equal(g.Runs(), f.runs) {
				t.Fatalf("candidate %q reads back as %v; want %v", c[:3], g.Runs(), f.runs)
			}
		}
	})
}

// uncompressedLen returns the length of f's shorter uncompressed
// encoding: the real run-length string, and the real bitset string or,
// when that is too long to build, its length from the bitset's span and
// base64's rule.
func uncompressedLen(f Finished) int {
	best := math.MaxInt
	for _, c := range f.candidates() {
		if c[2] == kindRuns || c[2] == kindBits {
			best = min(best, len(c))
		}
	}
	span := uint64(f.runs[len(f.runs)-1].Last - f.committable)
	if bits := (span + 7) / 8; bits > maxBody && bits < math.MaxInt/2 { // a longer one, far past the others, cannot be the shortest
		head := len(binary.AppendUvarint(nil, uint64(f.committable))) + 4
		best = min(best, 3+b64.EncodedLen(head+int(bits)))
	}
	return best
}

// TestBoundIsTheShorterUncompressedEncoding: Bound, computed from lengths
// alone, is the length of the shorter uncompressed encoding as written,
// and Metadata is never longer.
func TestBoundIsTheShorterUncompressedEncoding(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		f := drawFinished(t)
		if len(f.runs) == 0 {
			if f.Bound() != 0 {
				t.Fatalf("Bound of nothing = %d", f.Bound())
			}
			return
		}
		if got, want := f.Bound(), uncompressedLen(f); got != want {
			t.Fatalf("Bound = %d; want %d", got, want)
		}
		if s, err := f.Metadata(); err == nil && len(s) > f.Bound() {
			t.Fatalf("Metadata of %d bytes above Bound %d", len(s), f.Bound())
		}
	})
}

// withOffset returns f with offset x finished too, built by sorting and
// merging runs, then moving the committable offset past the runs that
// start at it, rather than as Fits reckons.
func withOffset(f Finished, x int64) Finished {
	runs := slices.Clone(f.runs)
	if x >= f.committable {
		runs = append(runs, Run{First: x, Last: x})
	}
	slices.SortFunc(runs, func(a, b Run) int {
		if a.First < b.First {
			return -1
		}
		if a.First > b.First {
			return 1
		}
		return 0
	})
	var out []Run
	for _, r := range runs {
		if n := len(out); n > 0 && r.First-1 <= out[n-1].Last {
			out[n-1].Last = max(out[n-1].Last, r.Last)
		} else {
			out = append(out, r)
		}
	}
	c := f.committable
	for len(out) > 0 && out[0].First == c {
		if out[0].Last == math.MaxInt64 { // no offset after it: all finished
			c, out = math.MaxInt64, nil
			break
		}
		c, out = out[0].Last+1, out[1:]
	}
	return Finished{committable: c, runs: out, runBytes: runBytes(c-1, out)}
}

// TestFitsAgreesWithTheEncoding: Fits(x) says yes exactly when the set
// with x finished has an uncompressed encoding, as written, of
// MaxMetadata bytes or less, and then Metadata of that set succeeds.
func TestFitsAgreesWithTheEncoding(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		f := drawFinished(t)
		xs := probes(f)
		if n := len(f.runs); n > 0 && f.runs[n-1].Last < math.MaxInt64 {
			last := f.runs[n-1].Last
			xs = append(xs, last+1+rapid.Int64Range(0, min(math.MaxInt64-last-1, 1<<20)).Draw(t, "beyond"))
		}
		x := rapid.SampledFrom(xs).Draw(t, "x")
		g := withOffset(f, x)
		want := len(g.runs) == 0 || uncompressedLen(g) <= MaxMetadata
		if got := f.Fits(x); got != want {
			t.Fatalf("Fits(%d) = %v; want %v (encodings of %d bytes)", x, got, want, uncompressedLen(g))
		}
		if want {
			if _, err := g.Metadata(); err != nil {
				t.Fatalf("Fits(%d), then Metadata: %v", x, err)
			}
		}
	})
}

// TestFitsStopsScatteredOffsetsAtTheLimit: adding scattered offsets while
// Fits says yes ends with a set whose metadata fits, and the offset Fits
// refused would have made both uncompressed encodings too long.
func TestFitsStopsScatteredOffsetsAtTheLimit(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var offsets []int64
	c, next := int64(1000), int64(1001)
	f, _ := NewFinished(c, nil)
	for {
		x := next + rng.Int64N(300)
		if !f.Fits(x) {
			g, err := NewFinished(c, append(slices.Clone(offsets), x))
			if err != nil {
				t.Fatal(err)
			}
			if n := uncompressedLen(g); n <= MaxMetadata {
				t.Fatalf("Fits(%d) = false after %d offsets, with an encoding of %d bytes", x, len(offsets), n)
			}
			break
		}
		offsets = append(offsets, x)
		next = x + 2
		var err error
		if f, err = NewFinished(c, offsets); err != nil {
			t.Fatal(err)
		}
		if f.Bound() > MaxMetadata-100 {
			checkFitsNear(t, f, rng)
		}
		// The committable offset, one below and one finished leave the set
		// as it is, which fits.
		if !f.Fits(c) || !f.Fits(c-1) || !f.Fits(x) {
			t.Fatalf("with %d offsets of Bound %d: Fits(%d), Fits(%d), Fits(%d) = %v, %v, %v; want true",
				len(offsets), f.Bound(), c, c-1, x, f.Fits(c), f.Fits(c-1), f.Fits(x))
		}
		if len(offsets) > 100000 {
			t.Fatal("Fits never said no")
		}
	}
	if s, err := f.Metadata(); err != nil || len(s) > MaxMetadata || uncompressedLen(f) > MaxMetadata {
		t.Fatalf("the last set that fit: %d bytes, %v", len(s), err)
	}
	if len(offsets) < 1000 {
		t.Fatalf("only %d scattered offsets fit", len(offsets))
	}
}

// TestNewFinishedRefusesBadOffsets: NewFinished names the offset that is
// not above the committable one or not increasing.
func TestNewFinishedRefusesBadOffsets(t *testing.T) {
	for _, tc := range []struct {
		c    int64
		fin  []int64
		want string
	}{
		{-1, nil, "committable offset -1"},
		{5, []int64{5}, "[0] is 5, not above the committable offset 5"},
		{5, []int64{4}, "[0] is 4"},
		{5, []int64{7, 9, 9}, "[2] is 9 after 9"},
		{5, []int64{7, 9, 8}, "[2] is 8 after 9"},
	} {
		if _, err := NewFinished(tc.c, tc.fin); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("NewFinished(%d, %v): %v; want an error with %q", tc.c, tc.fin, err, tc.want)
		}
	}
	f, err := NewFinished(5, []int64{6, 7, 9, math.MaxInt64})
	if err != nil {
		t.Fatal(err)
	}
	if want := []Run{{6, 7}, {9, 9}, {math.MaxInt64, math.MaxInt64}}; !slices.Equal(f.Runs(), want) {
		t.Errorf("runs %v; want %v", f.Runs(), want)
	}
	if f.Bound() != uncompressedLen(f) {
		t.Errorf("Bound %d; the encodings take %d", f.Bound(), uncompressedLen(f))
	}
}

// forge returns metadata of kind for a committable offset, a checksum and
// a stored body, however wrong.
func forge(kind byte, c uint64, sum uint32, stored []byte) string {
	raw := binary.AppendUvarint(nil, c)
	raw = binary.BigEndian.AppendUint32(raw, sum)
	return "k1" + string(kind) + b64.EncodeToString(append(raw, stored...))
}

// sound returns metadata of kind for body with its right checksum.
func sound(kind byte, c uint64, body []byte) string {
	return forge(kind, c, crc32.Checksum(body, castagnoli), body)
}

// deflated returns b deflated, and with extra bytes after it.
func deflated(b []byte, extra ...byte) []byte {
	var buf bytes.Buffer
	w, _ := flate.NewWriter(&buf, flate.BestCompression)
	_, _ = w.Write(b)
	_ = w.Close()
	return append(buf.Bytes(), extra...)
}

// hostile is metadata that ParseMetadata must refuse for committable 7,
// with a part of the error it must give.
var hostile = []struct {
	name, s, want string
}{
	{"too long", "k1r" + strings.Repeat("A", MaxMetadata), "metadata of 4099 bytes"},
	{"foreign", "hello", `"hello" is not konvoy's`},
	{"foreign, 32 bytes", strings.Repeat("x", 32), `"` + strings.Repeat("x", 32) + `" is not konvoy's`},
	{"foreign, 33 bytes", strings.Repeat("x", 33), `"` + strings.Repeat("x", 32) + `…" is not konvoy's`},
	{"4096 bytes, as no base64 is", "k1r" + strings.Repeat("A", MaxMetadata-3), "metadata byte 4095: not unpadded base64url"},
	{"short", "k1", "is not konvoy's"},
	{"next version", "k2rAAAA", "is not konvoy's"},
	{"kind", "k1xAAAA", "byte 2 (the kind) is 'x'"},
	{"base64", "k1rAA*A", "byte 5: not unpadded base64url"},
	{"padded", "k1rAAA=", "byte 6: not unpadded base64url"},
	{"no committable", "k1r", "decoded byte 0 (the committable offset): cut short"},
	{"committable beyond 64 bits", forge('r', 0, 0, nil)[:3] + b64.EncodeToString(bytes.Repeat([]byte{0xff}, 11)), "beyond 64 bits"},
	{"another committable", sound('r', 8, []byte{0, 0}), "written for committable offset 8, read for 7"},
	{"no checksum", "k1r" + b64.EncodeToString([]byte{7, 1, 2}), "decoded byte 1 (the checksum and body): 2 bytes; want 5 or more"},
	{"no body", forge('r', 7, 0, nil), "decoded byte 1 (the checksum and body): 4 bytes"},
	{"checksum", forge('r', 7, 12345, []byte{0, 0}), "decoded byte 1 (the checksum): 00003039"},
	{"cut length", sound('r', 7, []byte{0}), "body byte 1 (run 0's length): cut short"},
	{"cut gap", sound('r', 7, []byte{0, 0, 0x80}), "body byte 2 (run 1's gap): cut short"},
	{"gap beyond 64 bits", sound('r', 7, bytes.Repeat([]byte{0xff}, 11)), "body byte 0 (run 0's gap): a varint beyond 64 bits"},
	{"gap past the largest offset", sound('r', 7, binary.AppendUvarint(nil, math.MaxInt64-7)), "run 0's gap): 9223372036854775800 after offset 6 passes"},
	{"length past the largest offset", sound('r', 7, binary.AppendUvarint([]byte{0}, math.MaxInt64-7)), "run 0's length): 9223372036854775800 from offset 8 passes"},
	{"run after the largest offset", sound('r', 7, append(binary.AppendUvarint([]byte{0}, math.MaxInt64-8), 0, 0)), "body byte 10 (run 1's gap): 0 after offset 9223372036854775807 passes"},
	{"zero last byte", sound('b', 7, []byte{1, 0}), "body byte 1 (the bitset's last byte) is 0"},
	{"inflates too far", forge('B', 7, 0, deflated(bytes.Repeat([]byte{1}, maxBody+1))), "inflates past 65536 bytes"},
	{"bytes after the deflated body", forge('R', 7, crc32.Checksum([]byte{0, 0}, castagnoli), deflated([]byte{0, 0}, 9, 9)), "decoded byte 13: 2 bytes after the deflated body"},
	{"not deflate", forge('R', 7, 0, []byte{0xff, 0xff}), "decoded byte 5 on (the deflated body): flate"},
	{"deflates to nothing", forge('R', 7, 0, deflated(nil)), "(the deflated body): empty"},
}

// TestParseMetadataRefusesHostileInput: each way metadata can be wrong
// gets an error naming where, and no panic.
func TestParseMetadataRefusesHostileInput(t *testing.T) {
	for _, tc := range hostile {
		f, err := ParseMetadata(7, tc.s)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: ParseMetadata(7, %q) = %v, %v; want an error with %q", tc.name, clip(tc.s), f.Runs(), err, tc.want)
		}
	}
	if _, err := ParseMetadata(-1, ""); err == nil || !strings.Contains(err.Error(), "committable offset -1") {
		t.Errorf("ParseMetadata(-1, \"\"): %v", err)
	}
}

// TestParseMetadataKeepsHugeRunsAsRanges: a run of 2^62 offsets, a gap of
// 2^61 and a run up to the largest offset read back as two runs,
// without memory in proportion to them.
func TestParseMetadataKeepsHugeRunsAsRanges(t *testing.T) {
	body := binary.AppendUvarint(nil, 0)
	body = binary.AppendUvarint(body, 1<<62)
	body = binary.AppendUvarint(body, 1<<61)
	top := int64(8+1<<62) + 2 + 1<<61
	body = binary.AppendUvarint(body, uint64(math.MaxInt64-top))
	s := sound('r', 7, body)
	var f Finished
	allocs := testing.AllocsPerRun(10, func() {
		var err error
		if f, err = ParseMetadata(7, s); err != nil {
			t.Fatal(err)
		}
	})
	want := []Run{{8, 8 + 1<<62}, {top, math.MaxInt64}}
	if !slices.Equal(f.Runs(), want) {
		t.Fatalf("runs %v; want %v", f.Runs(), want)
	}
	if allocs > 10 {
		t.Errorf("%v allocations to read two runs", allocs)
	}
	if !f.Done(math.MaxInt64) || f.Done(top-1) || !f.Done(1<<62) {
		t.Errorf("Done is wrong about the huge runs")
	}
}

// TestParseMetadataReadsEmptyAsNothingFinished: a plain consumer's commit,
// with no metadata, finished nothing above its offset.
func TestParseMetadataReadsEmptyAsNothingFinished(t *testing.T) {
	f, err := ParseMetadata(42, "")
	if err != nil || len(f.Runs()) != 0 || f.Committable() != 42 || !f.Done(41) || f.Done(42) || f.Done(43) {
		t.Fatalf("ParseMetadata(42, \"\") = %v %v, %v", f.Committable(), f.Runs(), err)
	}
	if s, err := f.Metadata(); s != "" || err != nil {
		t.Fatalf("Metadata of nothing = %q, %v", s, err)
	}
}

// FuzzParseMetadata: whatever the string, ParseMetadata returns a set or
// an error and no panic; a set it returns is well formed (runs above the
// committable offset, increasing, apart), and encodes again to metadata
// that reads back as the same set.
func FuzzParseMetadata(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, c int64, s string) {
		g, err := ParseMetadata(c, s)
		if err != nil {
			return
		}
		prev := c - 1
		for _, r := range g.Runs() {
			if r.First < prev+2 || r.Last < r.First {
				t.Fatalf("ParseMetadata(%d, %q) gave runs %v", c, s, g.Runs())
			}
			prev = r.Last
		}
		again, err := g.Metadata()
		if err != nil {
			if strings.Contains(err.Error(), "Kafka takes") {
				return // a better deflater than ours wrote it
			}
			t.Fatalf("Metadata of a parsed set: %v", err)
		}
		h, err := ParseMetadata(c, again)
		if err != nil || !slices.Equal(h.Runs(), g.Runs()) {
			t.Fatalf("re-encoded %q reads back as %v, %v; want %v", again, h.Runs(), err, g.Runs())
		}
	})
}

// addSeeds gives the fuzzer every encoding of a few sets, at offset 0, in
// the middle and at the top of the offsets, and the hostile strings.
func addSeeds(f *testing.F) {
	for _, c := range []int64{0, 7, math.MaxInt64 - 3} {
		for _, fin := range [][]int64{{c + 1}, {c + 2, c + 3, c + 9}, {c + 2, c + 3}} {
			g, err := NewFinished(c, fin)
			if err != nil {
				continue // past the largest offset
			}
			for _, s := range g.candidates() {
				f.Add(c, s)
			}
		}
	}
	alt := make([]int64, 0, 500)
	for o := int64(8); len(alt) < 500; o += 2 {
		alt = append(alt, o)
	}
	g, _ := NewFinished(7, alt)
	for _, s := range g.candidates() {
		f.Add(int64(7), s)
	}
	for _, tc := range hostile {
		f.Add(int64(7), tc.s)
	}
}

// plainLen returns the length of f's shorter uncompressed encoding, as
// written (run-length) and as base64 makes it (bitset), without deflating.
func plainLen(f Finished) int {
	if len(f.runs) == 0 {
		return 0
	}
	body := f.runBody()
	runs := len(encode(kindRuns, f.committable, body, body))
	span := uint64(f.runs[len(f.runs)-1].Last - f.committable)
	head := len(binary.AppendUvarint(nil, uint64(f.committable))) + 4
	return min(runs, 3+b64.EncodedLen(head+int((span+7)/8)))
}

// checkFitsNear checks Fits, for a set near the limit, at offsets next to
// its first and last runs and at random ones between them, against the
// encodings of the set with each offset finished too.
func checkFitsNear(t *testing.T, f Finished, rng *rand.Rand) {
	t.Helper()
	c, first, last := f.committable, f.runs[0], f.runs[len(f.runs)-1]
	xs := []int64{c, c + 1, first.First - 1, first.Last + 1, last.Last + 1, last.Last + 2, last.Last + 1000, last.First - 1}
	for range 30 {
		xs = append(xs, c+1+rng.Int64N(last.Last-c))
	}
	for _, x := range xs {
		want := plainLen(withOffset(f, x)) <= MaxMetadata
		if got := f.Fits(x); got != want {
			t.Fatalf("Fits(%d) = %v, with Bound %d; want %v", x, got, f.Bound(), want)
		}
	}
}

// TestMetadataTakesBodiesOf64KiB: a body of 64 KiB before deflating, run-
// length or bitset, is deflated and read back; with both longer, Metadata
// fails rather than leave the finished offsets out.
func TestMetadataTakesBodiesOf64KiB(t *testing.T) {
	const c = 5
	var alternate []int64 // a bitset of 64 KiB, 2^19 offsets
	for o := int64(c + 2); o <= c+maxBody*8; o += 2 {
		alternate = append(alternate, o)
	}
	var sparse []int64 // 4 bytes a run: a 3-byte gap and a length of 0
	for o := int64(c + 1 + 1<<14); len(sparse) < maxBody/4; o += 2 + 1<<14 {
		sparse = append(sparse, o)
	}
	for _, tc := range []struct {
		name     string
		finished []int64
		kind     byte
	}{
		{"bitset", alternate, kindBitsZ},
		{"run-length", sparse, kindRunsZ},
	} {
		f, err := NewFinished(c, tc.finished)
		if err != nil {
			t.Fatal(err)
		}
		s, err := f.Metadata()
		if err != nil || s[2] != tc.kind {
			t.Fatalf("%s: %.3q, %v; want kind %c", tc.name, s, err, tc.kind)
		}
		if g, err := ParseMetadata(c, s); err != nil || !slices.Equal(g.Runs(), f.Runs()) {
			t.Fatalf("%s: read back as %d runs, %v", tc.name, len(g.Runs()), err)
		}
		f, _ = NewFinished(c, append(tc.finished, tc.finished[len(tc.finished)-1]+1<<14+2))
		if s, err := f.Metadata(); err == nil || !strings.Contains(err.Error(), "take over 65536 bytes") {
			t.Fatalf("%s, one run more: %.3q, %v; want an error", tc.name, s, err)
		}
	}
}

// TestFitsMovesTheCommittableOffset: finishing the committable offset
// moves it up, past the run right above it, and Fits speaks of that set,
// as its doc says. Here offset 0 is committable, 1 and the odd offsets
// from 3 finished: the set is just too long (Bound 4097), and with 0
// finished the committable offset is 2, and the set fits (4095). Fits
// once took the committable offset as leaving the set as it is.
func TestFitsMovesTheCommittableOffset(t *testing.T) {
	fin := []int64{1}
	for o := int64(3); o <= 24_513; o += 2 {
		fin = append(fin, o)
	}
	f, err := NewFinished(0, fin)
	if err != nil {
		t.Fatal(err)
	}
	g, err := NewFinished(2, fin[1:])
	if err != nil {
		t.Fatal(err)
	}
	if f.Bound() <= MaxMetadata || g.Bound() > MaxMetadata {
		t.Fatalf("Bound %d, and %d with offset 0 finished; want one above %d, one not: the case is lost", f.Bound(), g.Bound(), MaxMetadata)
	}
	if !f.Fits(0) {
		t.Errorf("Fits(0) = false; want true: with 0 finished the committable offset is 2 and the set's Bound %d", g.Bound())
	}
	if h := withOffset(f, 0); h.committable != 2 || h.Bound() != g.Bound() {
		t.Errorf("withOffset(f, 0): committable %d, Bound %d; want 2 and %d", h.committable, h.Bound(), g.Bound())
	}
	// Without a run right above it, the committable offset moves by one.
	h, _ := NewFinished(0, fin[1:])
	if want := withOffset(h, 0); h.Fits(0) != (want.Bound() <= MaxMetadata) || want.committable != 1 {
		t.Errorf("Fits(0) = %v with committable %d after; want %v and 1", h.Fits(0), want.committable, want.Bound() <= MaxMetadata)
	}
}

// TestFitsOfTheCommittableOffsetAtTheLastOffset: finishing the committable
// offset never wraps it past math.MaxInt64, the last offset there is,
// whether it is that offset or a run up to it starts right after it:
// nothing is left above it to encode, so the set fits.
func TestFitsOfTheCommittableOffsetAtTheLastOffset(t *testing.T) {
	if m := (Finished{committable: math.MaxInt64}); !m.Fits(math.MaxInt64) {
		t.Errorf("Fits(MaxInt64) of committable MaxInt64: false; want true, with nothing finished above it")
	}
	if m, err := NewFinished(math.MaxInt64-2, []int64{math.MaxInt64 - 1, math.MaxInt64}); err != nil || !m.Fits(math.MaxInt64-2) {
		t.Errorf("Fits of the committable offset below a run to MaxInt64: false (NewFinished: %v); want true", err)
	} else if g := m.withCommittable(); g.committable < 0 || len(g.runs) != 0 {
		t.Errorf("with the committable offset below a run to MaxInt64 finished: committable %d, %d runs; want no runs and no wrap", g.committable, len(g.runs))
	}
}

// TestWithCommittableIsTheSetWithItFinished: withCommittable, which Fits
// asks of the committable offset, gives the set that finishing it leaves,
// its run-length body's length kept in O(1), the same as the reference
// builds by merging and recounting: so Fits reckons that set's Bound, not
// only where a set near the limit would show a wrong length.
func TestWithCommittableIsTheSetWithItFinished(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		f := drawFinished(t)
		got, want := f.withCommittable(), withOffset(f, f.committable)
		if got.committable != want.committable || !slices.Equal(got.runs, want.runs) || got.runBytes != want.runBytes {
			t.Fatalf("withCommittable of committable %d: committable %d, %d runs, body %d bytes; want %d, %d runs, %d bytes",
				f.committable, got.committable, len(got.runs), got.runBytes, want.committable, len(want.runs), want.runBytes)
		}
	})
}
