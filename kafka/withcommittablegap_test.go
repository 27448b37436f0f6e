package kafka

import (
	"slices"
	"testing"
)

// withCommittable shortens the first run's gap by one, which shortens its
// varint where the gap was 128 (two bytes) and becomes 127 (one): the
// set's body length, and so Bound and Fits of the committable offset,
// must follow.
func TestWithCommittableShortensAGapOf128(t *testing.T) {
	for _, c := range []int64{0, 1000} {
		f, err := NewFinished(c, []int64{c + 129, c + 131}) // first gap 128
		if err != nil {
			t.Fatal(err)
		}
		want, err := NewFinished(c+1, []int64{c + 129, c + 131}) // first gap 127
		if err != nil {
			t.Fatal(err)
		}
		got := f.withCommittable()
		if got.committable != want.committable || !slices.Equal(got.runs, want.runs) || got.runBytes != want.runBytes || got.Bound() != want.Bound() {
			t.Errorf("withCommittable of %d: committable %d, body %d bytes, bound %d; want %d, %d bytes, bound %d",
				c, got.committable, got.runBytes, got.Bound(), want.committable, want.runBytes, want.Bound())
		}
	}
}

// Fits of the committable offset is whether the Bound of the set with it
// finished is MaxMetadata or less: here 4,095 bytes, with a first gap of
// 128 that becomes 127 once offset 0 finishes.
func TestFitsOfTheCommittableOffsetFollowsItsFirstGap(t *testing.T) {
	finished := []int64{129}
	for o := int64(129); len(finished) < 1532; {
		o += 101 // a gap of 100: two bytes a run, a bitset far longer
		finished = append(finished, o)
	}
	f, err := NewFinished(0, finished)
	if err != nil {
		t.Fatal(err)
	}
	after, err := NewFinished(1, finished)
	if err != nil {
		t.Fatal(err)
	}
	if b := after.Bound(); b != 4095 {
		t.Fatalf("the set with offset 0 finished is bounded by %d bytes; the test wants 4095", b)
	}
	if !f.Fits(0) {
		t.Errorf("Fits(0) = false; want true: with 0 finished the set's Bound is %d, within %d", after.Bound(), MaxMetadata)
	}
}
