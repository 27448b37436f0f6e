package kafka

import (
	"math"
	"math/rand/v2"
	"testing"

	"pgregory.net/rapid"
)

// drawHeld draws what may finish of the records held above a committable
// offset c, all at most top: a random share of the offsets, alternate
// offsets, all of them, or a few scattered, the highest always among them.
func drawHeld(t *rapid.T, c, top int64) []int64 {
	mode := rapid.SampledFrom([]string{"random", "alternate", "all", "few"}).Draw(t, "mode")
	rng := rand.New(rand.NewPCG(rapid.Uint64().Draw(t, "seed"), 3))
	var out []int64
	for o := c + 1; o < top; o++ {
		switch mode {
		case "random":
			if rng.IntN(2) == 0 {
				out = append(out, o)
			}
		case "alternate":
			if (top-o)%2 == 0 {
				out = append(out, o)
			}
		case "all":
			out = append(out, o)
		case "few":
			if rng.IntN(1000) == 0 {
				out = append(out, o)
			}
		}
	}
	return append(out, top)
}

// TestReachBoundsEverySetHeld: whatever finishes of the offsets up to
// Reach(c), committed at c or at any offset above it below the lowest
// finished one, Metadata succeeds within MaxMetadata and reads back,
// because the bitset, one bit per offset up to the highest, is at most
// the length Reach allows, and the committable offset's varint is no
// longer than that of the highest offset. And Reach is the highest such
// offset when the varints agree: random offsets up to one more have
// uncompressed encodings too long.
func TestReachBoundsEverySetHeld(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := rapid.OneOf(rapid.Int64Range(0, 1000), rapid.Int64Range(16_376, 16_383), rapid.Int64Range(2_097_144, 2_097_151),
			rapid.Int64Range(0, math.MaxInt64-30_000), rapid.Int64Range(math.MaxInt64-30_000, math.MaxInt64)).Draw(t, "committable")
		if c == math.MaxInt64 {
			return // no offset is above it
		}
		reach := Reach(c)
		if reach <= c {
			t.Fatalf("Reach(%d) = %d, not above it", c, reach)
		}
		top := reach
		if reach == math.MaxInt64 {
			top = rapid.Int64Range(c+1, reach).Draw(t, "top")
		}
		// The committable offset moves up when records finish, a little
		// (its varint may grow a byte) or a lot.
		at := c + rapid.OneOf(rapid.Int64Range(0, 8), rapid.Int64Range(0, top-c-1)).Draw(t, "moved")
		at = min(at, top-1)
		held := drawHeld(t, at, top)
		f, err := NewFinished(at, held)
		if err != nil {
			t.Fatal(err)
		}
		s, err := f.Metadata()
		if err != nil || len(s) > MaxMetadata {
			t.Fatalf("Reach(%d) = %d: %d offsets committed at %d: %d bytes, %v", c, reach, len(held), at, len(s), err)
		}
		if g, err := ParseMetadata(at, s); err != nil || g.Bound() != f.Bound() {
			t.Fatalf("the metadata reads back as %v, %v", g.Runs(), err)
		}
		if reach == math.MaxInt64 || uvarintLen(uint64(c)) != uvarintLen(uint64(reach+1)) {
			return
		}
		rng := rand.New(rand.NewPCG(uint64(c), 4))
		var over []int64
		for o := c + 1; o <= reach; o++ {
			if rng.IntN(2) == 0 {
				over = append(over, o)
			}
		}
		g, err := NewFinished(c, append(over, reach+1))
		if err != nil {
			t.Fatal(err)
		}
		if n := uncompressedLen(g); n <= MaxMetadata {
			t.Fatalf("Reach(%d) = %d, but random offsets up to %d take %d bytes", c, reach, reach+1, n)
		}
	})
}
