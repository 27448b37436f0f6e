package kafka

import (
	"math"
	"slices"
	"testing"
)

// These tests pin, one case each, the commit arithmetic the chaos tests
// found wrong: what a revoked partition's skipped records, a handler's
// result the executor has not taken yet, and the commit an assignment
// started from do to the offset and metadata committed. Each checks the
// set of records the commit calls finished against the records that did
// finish, listed by hand.

// committedSet returns the records a commit of offset at with finished
// above it calls finished, among offsets 0 to top.
func committedSet(at int64, finished []int64, top int64) []int64 {
	var out []int64
	for o := int64(0); o <= top; o++ {
		if o < at || slices.Contains(finished, o) {
			out = append(out, o)
		}
	}
	return out
}

// TestUnskippedNamesNoSkippedRecord: records 10 and 12 were handled, 11
// and 13 skipped on revocation (the executor counts them finished, and
// its committable offset passed 11), 14 handled; 9 still runs. The commit
// calls finished exactly the handled records: offset 9, then 10, 12, 14.
// With the skipped record lowest below the executor's committable offset,
// the offset stops at it and the handled records above it are kept.
func TestUnskippedNamesNoSkippedRecord(t *testing.T) {
	at, fin := unskipped(9, []int64{10, 11, 12, 13, 14}, 11, []int64{13, 11})
	if got, want := committedSet(at, fin, 20), []int64{0, 1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 14}; !slices.Equal(got, want) {
		t.Errorf("unskipped, committable 9: offset %d, finished %v: records %v; want %v", at, fin, got, want)
	}
	// The executor's committable offset 15 passed the skipped 11 and 13.
	at, fin = unskipped(15, []int64{17}, 11, []int64{11, 13})
	if got, want := committedSet(at, fin, 20), []int64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 14, 17}; !slices.Equal(got, want) || at != 11 {
		t.Errorf("unskipped, committable 15: offset %d, finished %v: records %v; want offset 11, records %v", at, fin, got, want)
	}
}

// TestWithLateCountsResultsNotTakenYet: the executor says 5 is its
// committable offset and 8 finished; the handlers of 5, 6 and 9 returned
// (7 has not), so the commit is offset 7 with 8 and 9 finished.
func TestWithLateCountsResultsNotTakenYet(t *testing.T) {
	at, fin := withLate(5, []int64{8}, []int64{9, 3, 6, 5})
	if at != 7 || !slices.Equal(fin, []int64{8, 9}) {
		t.Errorf("withLate = %d, %v; want 7, [8 9]", at, fin)
	}
}

// TestPriorMetadataKeepsThePriorFinished: the assignment started from a
// commit of offset 20 naming 22 to 24 and 30 to 1,000,000 finished; this
// member finished 20 and 21 (its executor's committable offset is 22) and
// 26. The commit is offset 25 (22 to 24 are finished too) with 26 and 30
// to 1,000,000 finished, written as runs, not as a million offsets. A
// prior run from the offset to the largest one (only hostile metadata
// says so) cannot move the offset past it: the commit leaves it out, and
// those records run again, never skipped.
func TestPriorMetadataKeepsThePriorFinished(t *testing.T) {
	prior, err := NewFinished(20, []int64{22, 23, 24})
	if err != nil {
		t.Fatal(err)
	}
	prior.runs = append(prior.runs, Run{30, 1_000_000})
	prior.runBytes = runBytes(19, prior.runs)
	at, m, err := priorMetadata(22, []int64{26}, prior)
	if err != nil {
		t.Fatal(err)
	}
	f, err := ParseMetadata(at, m)
	if err != nil {
		t.Fatalf("priorMetadata wrote %q: %v", m, err)
	}
	if want := []Run{{26, 26}, {30, 1_000_000}}; at != 25 || !slices.Equal(f.Runs(), want) {
		t.Errorf("priorMetadata = %d, %v; want 25, %v", at, f.Runs(), want)
	}
	// Nothing prior above the offset: the commit is this member's alone.
	if at, m, err := priorMetadata(1_000_001, nil, prior); err != nil || at != 1_000_001 || m != "" {
		t.Errorf("priorMetadata past the prior runs = %d, %q, %v; want 1000001, \"\"", at, m, err)
	}
	top := Finished{committable: 5, runs: []Run{{6, math.MaxInt64}}}
	top.runBytes = runBytes(4, top.runs)
	if at, m, err := priorMetadata(6, nil, top); err != nil || at != 6 || m != "" {
		t.Errorf("priorMetadata of a prior run from the offset to the largest = %d, %q, %v; want 6, \"\" (its records run again)", at, m, err)
	}
}
