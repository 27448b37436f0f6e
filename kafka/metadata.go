package kafka

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"
	"math/bits"
	"slices"
	"sort"
	"sync"
)

// MaxMetadata is the longest metadata string [Finished.Metadata] writes
// and [ParseMetadata] reads, in bytes: 4096, Kafka's default for the
// broker's offset.metadata.max.bytes (a longer one fails the commit).
const MaxMetadata = 4096

// The metadata format, version 1. A partition with nothing finished above
// its committable offset C has the empty string as metadata, as any plain
// consumer's commit does. Otherwise the metadata is
//
//	"k1" kind base64url(uvarint(C) crc32c(body) body')
//
// base64url without padding (RFC 4648 §5), kind one letter: 'r' the body
// is run-length, 'b' a bitset, 'R' and 'B' the same deflated (RFC 1951,
// body' = deflate(body)); otherwise body' = body. The checksum is the
// CRC-32C (Castagnoli) of the body before deflating, big-endian.
//
// Run-length: per run of consecutive finished offsets [First, Last], in
// increasing order, uvarint(First − prev − 2) then uvarint(Last − First),
// prev the previous run's Last, C − 1 for the first run (C itself is
// never finished: it is the first record not finished). So every byte
// string of whole varint pairs names a valid set, and a run of 2^62
// offsets takes ten bytes, never 2^62 of anything.
//
// Bitset: bit p (byte p/8, bit p%8 counting from the least significant)
// is set when offset C+1+p has finished; the last byte is not zero.
//
// No metadata is MaxMetadata (4096) bytes long: it is 3 bytes and an
// unpadded base64 string, whose length is never 1 more than a multiple of
// 4; the longest written is 4095 bytes.
const (
	version1   = "k1"
	kindRuns   = 'r'
	kindBits   = 'b'
	kindRunsZ  = 'R'
	kindBitsZ  = 'B'
	headLen    = len(version1) + 1 // the version and the kind
	crcLen     = 4
	minBodyLen = 1
)

// maxBody is the most bytes a body may take before deflating, in the
// encoder (which otherwise leaves that candidate out) and the decoder
// (which otherwise fails): it bounds what a hostile string, which
// inflates up to about a thousandfold, can make a decoder hold: 64 KiB of
// body and at most 2^18 runs (a bitset of alternating bits).
const maxBody = 1 << 16

var (
	castagnoli = crc32.MakeTable(crc32.Castagnoli)
	b64        = base64.RawURLEncoding
	deflaters  = sync.Pool{New: func() any {
		w, err := flate.NewWriter(io.Discard, flate.BestCompression)
		if err != nil {
			panic("konvoy: flate.NewWriter: " + err.Error()) // the level is valid
		}
		return w
	}}
)

// Run is a range of consecutive finished offsets, First to Last, both
// included.
type Run struct {
	First, Last int64
}

// Finished is what one partition may commit: its committable offset (the
// first offset whose record has not finished, the one a Kafka consumer
// commits) and the finished offsets above it, kept as runs, so that its
// memory grows with the runs and never with the offsets they span. The
// zero Finished is committable offset 0 with nothing finished above it.
type Finished struct {
	committable int64
	runs        []Run
	runBytes    int64 // the length of the run-length body
}

// NewFinished returns the finished offsets above committable, as
// [live.Completion] gives them for a partition: committable 0 or more,
// finished in increasing order, each above committable. It returns an
// error naming the first offset that is not. It takes time in proportion
// to the offsets and memory to the runs they form.
//
// [live.Completion]: https://pkg.go.dev/github.com/sirali-konvoy/konvoy/live#Completion
func NewFinished(committable int64, finished []int64) (Finished, error) {
	if committable < 0 {
		return Finished{}, fmt.Errorf("kafka: committable offset %d; want 0 or more", committable)
	}
	f := Finished{committable: committable}
	prev := committable
	for i, o := range finished {
		if o <= prev {
			if i == 0 {
				return Finished{}, fmt.Errorf("kafka: finished offset [0] is %d, not above the committable offset %d", o, committable)
			}
			return Finished{}, fmt.Errorf("kafka: finished offset [%d] is %d after %d; want increasing offsets", i, o, prev)
		}
		if n := len(f.runs); n > 0 && f.runs[n-1].Last == o-1 {
			f.runs[n-1].Last = o
		} else {
			f.runs = append(f.runs, Run{First: o, Last: o})
		}
		prev = o
	}
	f.runBytes = runBytes(committable-1, f.runs)
	return f, nil
}

// Committable returns the committable offset: every record below it has
// finished, and the record at it has not.
func (f Finished) Committable() int64 { return f.committable }

// Runs returns the finished offsets above the committable offset as runs,
// in increasing order, separated by at least one unfinished offset (a
// copy: O(runs)).
func (f Finished) Runs() []Run { return slices.Clone(f.runs) }

// Done reports whether the record at offset has finished: below the
// committable offset, or in one of the runs. It takes O(log runs).
func (f Finished) Done(offset int64) bool {
	if offset < f.committable {
		return true
	}
	i := sort.Search(len(f.runs), func(i int) bool { return f.runs[i].Last >= offset })
	return i < len(f.runs) && f.runs[i].First <= offset
}

// Bound returns the length, in bytes, of the shorter of the two
// uncompressed encodings (run-length and bitset), 0 when nothing above
// the committable offset has finished. [Finished.Metadata] is never
// longer: it takes a deflated encoding only when that is shorter. It takes
// O(1).
func (f Finished) Bound() int {
	if len(f.runs) == 0 {
		return 0
	}
	return bound(f.committable, f.runBytes, f.runs[len(f.runs)-1].Last)
}

// Fits reports whether the metadata would still fit in [MaxMetadata] bytes
// with the record at offset x finished too: whether the Bound of that set
// is MaxMetadata or less. When it is, [Finished.Metadata] of that set
// succeeds; when it is not, Metadata might still succeed (deflate may
// shrink it enough), but only running deflate would tell. An offset
// below the committable one, or finished already, leaves the set as it
// is; the committable offset itself moves it up, past the run right above
// it if there is one. Fits speaks of this set and x only: records held
// below x that finish later may lengthen the set past MaxMetadata even
// where Fits said yes (a few long runs broken up), so a consumer deciding
// whether to take a record uses [Reach], the worst case over every set.
// It takes O(log runs).
func (f Finished) Fits(x int64) bool {
	if x == f.committable {
		return f.withCommittable().Bound() <= MaxMetadata
	}
	if x < f.committable || f.Done(x) {
		return f.Bound() <= MaxMetadata
	}
	last := x
	if n := len(f.runs); n > 0 {
		last = max(last, f.runs[n-1].Last)
	}
	return bound(f.committable, f.runBytes+f.runDelta(x), last) <= MaxMetadata
}

// Reach returns an offset up to which any set of finished offsets above
// committable fits in [MaxMetadata] bytes, the highest as its bound
// counts, which takes the committable offset's uvarint at its longest
// within the range (so a few offsets more may fit, 16 for a committable
// offset of 0, where that length grows a byte): for every set of
// offsets from committable+1 to Reach(committable), and every committable
// offset from committable up to below the set's lowest, [Finished.Metadata]
// succeeds. It is the worst case of what a partition's records held above
// its committable offset may leave finished, whichever of them finish:
// the bitset, which Metadata may always choose, is one bit per offset up
// to the highest finished, so its length bounds every set below Reach,
// however scattered (the run-length encoding of alternate offsets takes
// eight times as many bytes). It is not a bound for one set, as
// [Finished.Fits] is: it admits about 24,500 offsets whatever finishes,
// fewer than Fits admits for a set with few runs. A consumer that takes
// no record above Reach of its committable offset never has metadata to
// drop. The result is math.MaxInt64 when that offset passes the largest;
// a committable offset below 0 is taken as 0. It takes O(1).
func Reach(committable int64) int64 {
	committable = max(committable, 0)
	// The longest metadata is headLen + (4n+2)/3 for n decoded bytes: n =
	// uvarint(C') + crcLen + bitset, where C' ≤ the set's highest offset x.
	maxRaw := int64((MaxMetadata-headLen)*3) / 4 // (4n+2)/3 ≤ MaxMetadata−headLen
	for u := uvarintLen(uint64(committable)); ; u++ {
		bytes := maxRaw - int64(u) - crcLen // the bitset's most bytes
		if committable > math.MaxInt64-8*bytes {
			return math.MaxInt64
		}
		x := committable + 8*bytes // bitBytes(committable, x) == bytes
		if uvarintLen(uint64(x)) <= u {
			return x
		}
	}
}

// below returns f with only the finished offsets below end, in time in
// proportion to the runs.
func (f Finished) below(end int64) Finished {
	i := sort.Search(len(f.runs), func(i int) bool { return f.runs[i].Last >= end })
	runs := slices.Clone(f.runs[:i])
	if i < len(f.runs) && f.runs[i].First < end {
		runs = append(runs, Run{First: f.runs[i].First, Last: end - 1})
	}
	return Finished{committable: f.committable, runs: runs, runBytes: runBytes(f.committable-1, runs)}
}

// withCommittable returns f with its committable offset finished: the
// committable offset moves up by one, and past the first run when that
// run starts there. Only the first run's gap from the committable offset
// changes, or the first run goes: it takes O(1).
func (f Finished) withCommittable() Finished {
	if f.committable == math.MaxInt64 {
		return f // no offset above it to move to, nor runs
	}
	c := f.committable + 1
	if len(f.runs) == 0 {
		return Finished{committable: c}
	}
	first := runBytes(f.committable-1, f.runs[:1])
	if r := f.runs[0]; r.First == c {
		if r.Last == math.MaxInt64 {
			return Finished{committable: math.MaxInt64} // every offset finished: nothing above to encode
		}
		// The next run's gap was from r.Last, which is the new committable
		// offset less one: its length stays.
		return Finished{committable: r.Last + 1, runs: f.runs[1:], runBytes: f.runBytes - first}
	}
	return Finished{committable: c, runs: f.runs, runBytes: f.runBytes - first + runBytes(c-1, f.runs[:1])}
}

// runDelta returns how much longer the run-length body grows with offset
// x, above the committable offset and not finished, finished too: only
// the runs either side of x change, and the gap of the run after them
// depends on the next one's Last, which x leaves as it is.
func (f Finished) runDelta(x int64) int64 {
	i := sort.Search(len(f.runs), func(i int) bool { return f.runs[i].First > x })
	lo, hi := max(i-1, 0), min(i+1, len(f.runs))
	prev := f.committable - 1
	if lo > 0 {
		prev = f.runs[lo-1].Last
	}
	old := f.runs[lo:hi]
	window := make([]Run, 0, 3)
	window = append(window, old[:i-lo]...)
	window = append(window, Run{First: x, Last: x})
	window = append(window, old[i-lo:]...)
	merged := make([]Run, 0, 3)
	for _, r := range window {
		if n := len(merged); n > 0 && merged[n-1].Last+1 == r.First {
			merged[n-1].Last = r.Last
		} else {
			merged = append(merged, r)
		}
	}
	return runBytes(prev, merged) - runBytes(prev, old)
}

// runBytes returns the length of the run-length encoding of runs after a
// run that ended at prev.
func runBytes(prev int64, runs []Run) int64 {
	var n int64
	for _, r := range runs {
		n += int64(uvarintLen(uint64(r.First-prev-2)) + uvarintLen(uint64(r.Last-r.First)))
		prev = r.Last
	}
	return n
}

// bitBytes returns the length of the bitset whose highest finished offset
// is last.
func bitBytes(committable, last int64) int64 { return (last-committable-1)/8 + 1 }

// bound returns the length of the shorter uncompressed encoding, given
// the run-length body's length and the highest finished offset, at most
// math.MaxInt.
func bound(committable, runBytes, last int64) int {
	body := min(runBytes, bitBytes(committable, last))
	n := int64(uvarintLen(uint64(committable))+crcLen) + body // below 2^61
	return int(min(int64(headLen)+(4*n+2)/3, math.MaxInt))
}

// uvarintLen returns the length of v's uvarint.
func uvarintLen(v uint64) int { return (bits.Len64(v|1) + 6) / 7 }

// Metadata returns the finished offsets above the committable offset as a
// commit's metadata: the shortest of the run-length and bitset encodings,
// each also deflated (the first of them, in that order, among equals),
// the empty string when nothing above the committable offset has
// finished. It returns an error when even the shortest is longer than
// [MaxMetadata] (see [Finished.Fits]), or when both bodies are longer
// than 64 KiB, too long to deflate. The same set gives the same string
// byte for byte. It takes time and memory in proportion to the runs and
// to the bitset's length when that is at most 64 KiB.
func (f Finished) Metadata() (string, error) {
	if len(f.runs) == 0 {
		return "", nil
	}
	cands := f.candidates()
	if len(cands) == 0 {
		return "", fmt.Errorf("kafka: the %d finished runs above offset %d (highest %d) take over %d bytes as runs and as a bitset; Kafka takes %d",
			len(f.runs), f.committable, f.runs[len(f.runs)-1].Last, maxBody, MaxMetadata)
	}
	best := cands[0]
	for _, c := range cands[1:] {
		if len(c) < len(best) {
			best = c
		}
	}
	if len(best) > MaxMetadata {
		return "", fmt.Errorf("kafka: the metadata of %d finished runs above offset %d (highest %d) takes %d bytes; Kafka takes %d",
			len(f.runs), f.committable, f.runs[len(f.runs)-1].Last, len(best), MaxMetadata)
	}
	return best, nil
}

// candidates returns every encoding Metadata chooses among, in the order
// it prefers them among equals: run-length, bitset, each deflated; it
// leaves out a body longer than maxBody, which no decoder takes.
func (f Finished) candidates() []string {
	var bodies [][]byte
	var kinds []byte
	if f.runBytes <= maxBody {
		bodies, kinds = append(bodies, f.runBody()), append(kinds, kindRuns)
	}
	if bitBytes(f.committable, f.runs[len(f.runs)-1].Last) <= maxBody {
		bodies, kinds = append(bodies, f.bitBody()), append(kinds, kindBits)
	}
	var out []string
	for i, b := range bodies {
		out = append(out, encode(kinds[i], f.committable, b, b))
	}
	for i, b := range bodies {
		out = append(out, encode(kinds[i]-'a'+'A', f.committable, b, deflate(b)))
	}
	return out
}

// encode returns the metadata of kind for body, stored as stored.
func encode(kind byte, committable int64, body, stored []byte) string {
	raw := binary.AppendUvarint(nil, uint64(committable))
	raw = binary.BigEndian.AppendUint32(raw, crc32.Checksum(body, castagnoli))
	raw = append(raw, stored...)
	return version1 + string(kind) + b64.EncodeToString(raw)
}

// runBody returns the run-length body.
func (f Finished) runBody() []byte {
	out := make([]byte, 0, f.runBytes)
	prev := f.committable - 1
	for _, r := range f.runs {
		out = binary.AppendUvarint(out, uint64(r.First-prev-2))
		out = binary.AppendUvarint(out, uint64(r.Last-r.First))
		prev = r.Last
	}
	return out
}

// bitBody returns the bitset body, which bitBytes says is at most maxBody
// bytes long.
func (f Finished) bitBody() []byte {
	out := make([]byte, bitBytes(f.committable, f.runs[len(f.runs)-1].Last))
	for _, r := range f.runs {
		for o := r.First; o <= r.Last; o++ {
			p := o - f.committable - 1
			out[p>>3] |= 1 << (p & 7)
			if o == math.MaxInt64 {
				break
			}
		}
	}
	return out
}

// deflate returns body deflated at the best compression.
func deflate(body []byte) []byte {
	var buf bytes.Buffer
	w := deflaters.Get().(*flate.Writer)
	w.Reset(&buf)
	_, werr := w.Write(body) // a bytes.Buffer takes every write
	cerr := w.Close()
	deflaters.Put(w)
	if werr != nil || cerr != nil {
		panic(fmt.Sprintf("konvoy: deflate into memory: %v, %v", werr, cerr))
	}
	return buf.Bytes()
}

// ParseMetadata reads the metadata committed with offset committable,
// written by [Finished.Metadata], back into the finished offsets above it.
// The empty string is nothing finished. The metadata is untrusted input:
// ParseMetadata returns an error naming the byte and the field at fault
// for a string that no Metadata could have meant for this committable
// offset (another tool's metadata, a corrupted commit, metadata written
// for another offset), and never panics. It takes forms Metadata does not
// write but that say one set of offsets all the same, as a number written
// in more bytes than it needs, and reads them as that set. It takes time and memory in
// proportion to the string's length, at most about 5 MiB whatever the
// string (a deflated body inflates to 64 KiB at most, and a bitset of
// 64 KiB holds 2^18 runs at most).
func ParseMetadata(committable int64, metadata string) (Finished, error) {
	f := Finished{committable: committable}
	if committable < 0 {
		return Finished{}, fmt.Errorf("kafka: committable offset %d; want 0 or more", committable)
	}
	if metadata == "" {
		return f, nil
	}
	kind, raw, err := unwrap(metadata)
	if err != nil {
		return Finished{}, err
	}
	c, n := binary.Uvarint(raw)
	if n <= 0 {
		return Finished{}, fmt.Errorf("kafka: metadata: decoded byte 0 (the committable offset): %s", varintProblem(n))
	}
	if c != uint64(committable) {
		return Finished{}, fmt.Errorf("kafka: metadata written for committable offset %d, read for %d", c, committable)
	}
	if len(raw) < n+crcLen+minBodyLen {
		return Finished{}, fmt.Errorf("kafka: metadata: decoded byte %d (the checksum and body): %d bytes; want %d or more", n, len(raw)-n, crcLen+minBodyLen)
	}
	sum := binary.BigEndian.Uint32(raw[n:])
	body := raw[n+crcLen:]
	if kind == kindRunsZ || kind == kindBitsZ {
		if body, err = inflate(body, n+crcLen); err != nil {
			return Finished{}, err
		}
	}
	if kind == kindRuns || kind == kindRunsZ {
		f.runs, err = parseRuns(committable, body)
	} else {
		f.runs, err = parseBits(committable, body)
	}
	if err != nil {
		return Finished{}, err
	}
	if got := crc32.Checksum(body, castagnoli); got != sum {
		return Finished{}, fmt.Errorf("kafka: metadata: decoded byte %d (the checksum): %08x, but the body's is %08x (a corrupted commit)", n, sum, got)
	}
	f.runBytes = runBytes(committable-1, f.runs)
	return f, nil
}

// unwrap checks the metadata's length, version and kind, and returns the
// kind and the decoded bytes.
func unwrap(metadata string) (byte, []byte, error) {
	if len(metadata) > MaxMetadata {
		return 0, nil, fmt.Errorf("kafka: metadata of %d bytes; konvoy writes %d at most", len(metadata), MaxMetadata)
	}
	if len(metadata) < headLen || metadata[:len(version1)] != version1 {
		return 0, nil, fmt.Errorf("kafka: metadata %q is not konvoy's: want it to begin with %q and a kind", clip(metadata), version1)
	}
	kind := metadata[len(version1)]
	if kind != kindRuns && kind != kindBits && kind != kindRunsZ && kind != kindBitsZ {
		return 0, nil, fmt.Errorf("kafka: metadata byte %d (the kind) is %q; want 'r', 'b', 'R' or 'B'", len(version1), kind)
	}
	raw, err := b64.DecodeString(metadata[headLen:])
	if err != nil {
		var at base64.CorruptInputError
		if errors.As(err, &at) {
			return 0, nil, fmt.Errorf("kafka: metadata byte %d: not unpadded base64url", headLen+int(at))
		}
		return 0, nil, fmt.Errorf("kafka: metadata: %v", err)
	}
	return kind, raw, nil
}

// clip returns s cut to 32 bytes, for an error.
func clip(s string) string {
	if len(s) > 32 {
		return s[:32] + "…"
	}
	return s
}

// varintProblem names what binary.Uvarint's n ≤ 0 means.
func varintProblem(n int) string {
	if n == 0 {
		return "cut short in a varint"
	}
	return "a varint beyond 64 bits"
}

// inflate returns the deflated body stored from decoded byte at on,
// refusing one that inflates past maxBody or has bytes after its end.
func inflate(stored []byte, at int) ([]byte, error) {
	r := bytes.NewReader(stored)
	body, err := io.ReadAll(io.LimitReader(flate.NewReader(r), maxBody+1))
	if err != nil {
		return nil, fmt.Errorf("kafka: metadata: decoded byte %d on (the deflated body): %v", at, err)
	}
	if len(body) > maxBody {
		return nil, fmt.Errorf("kafka: metadata: decoded byte %d on (the deflated body) inflates past %d bytes", at, maxBody)
	}
	if r.Len() > 0 {
		return nil, fmt.Errorf("kafka: metadata: decoded byte %d: %d bytes after the deflated body", at+len(stored)-r.Len(), r.Len())
	}
	if len(body) < minBodyLen {
		return nil, fmt.Errorf("kafka: metadata: decoded byte %d on (the deflated body): empty", at)
	}
	return body, nil
}

// parseRuns reads a run-length body (positions in errors are the body's).
func parseRuns(committable int64, body []byte) ([]Run, error) {
	runs := make([]Run, 0, len(body)/2) // a run takes two bytes or more
	prev := committable - 1
	for pos := 0; pos < len(body); {
		gap, n := binary.Uvarint(body[pos:])
		if n <= 0 {
			return nil, fmt.Errorf("kafka: metadata: body byte %d (run %d's gap): %s", pos, len(runs), varintProblem(n))
		}
		if prev > math.MaxInt64-2 || gap > uint64(math.MaxInt64-2-prev) {
			return nil, fmt.Errorf("kafka: metadata: body byte %d (run %d's gap): %d after offset %d passes the largest offset", pos, len(runs), gap, prev)
		}
		pos += n
		first := prev + 2 + int64(gap)
		length, n := binary.Uvarint(body[pos:])
		if n <= 0 {
			return nil, fmt.Errorf("kafka: metadata: body byte %d (run %d's length): %s", pos, len(runs), varintProblem(n))
		}
		if length > uint64(math.MaxInt64-first) {
			return nil, fmt.Errorf("kafka: metadata: body byte %d (run %d's length): %d from offset %d passes the largest offset", pos, len(runs), length, first)
		}
		pos += n
		runs = append(runs, Run{First: first, Last: first + int64(length)})
		prev = first + int64(length)
	}
	return runs, nil
}

// parseBits reads a bitset body (positions in errors are the body's).
func parseBits(committable int64, body []byte) ([]Run, error) {
	end := len(body) - 1
	if body[end] == 0 {
		return nil, fmt.Errorf("kafka: metadata: body byte %d (the bitset's last byte) is 0; want the highest finished offset in it", end)
	}
	top := int64(end)*8 + int64(bits.Len8(body[end])) - 1
	if top > math.MaxInt64-committable-1 {
		return nil, fmt.Errorf("kafka: metadata: body byte %d (the bitset's last byte): offset %d+1+%d passes the largest offset", end, committable, top)
	}
	runs := make([]Run, 0, bitRuns(body))
	for p := int64(0); p <= top; p++ {
		if body[p>>3]&(1<<(p&7)) == 0 {
			continue
		}
		o := committable + 1 + p
		if n := len(runs); n > 0 && runs[n-1].Last == o-1 {
			runs[n-1].Last = o
		} else {
			runs = append(runs, Run{First: o, Last: o})
		}
	}
	return runs, nil
}

// bitRuns returns how many runs of set bits a bitset holds: the set bits
// whose previous bit is not set.
func bitRuns(body []byte) int {
	n, carry := 0, byte(0)
	for _, b := range body {
		n += bits.OnesCount8(b &^ (b<<1 | carry))
		carry = b >> 7
	}
	return n
}
