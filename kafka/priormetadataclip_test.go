package kafka

import "testing"

// priorMetadata moves the offset past the prior commit's runs from the
// committable offset on, the run the offset falls in (clipped to it) and
// a run ending at it included, and names the rest above as finished.
func TestPriorMetadataPassesTheRunAtTheCommittableOffset(t *testing.T) {
	for _, tc := range []struct {
		name   string
		at     int64
		fin    []int64 // finished above at, as the executor says
		prior  []int64 // finished above the prior commit at 3
		wantAt int64
		rest   []int64
	}{
		{"the last run ends at it", 5, nil, []int64{5}, 6, nil},
		{"a run from below ends at it", 5, nil, []int64{4, 5, 8, 9}, 6, []int64{8, 9}},
		{"a run from below passes it", 5, nil, []int64{4, 5, 6, 8}, 7, []int64{8}},
		{"runs that touch are one", 5, []int64{7}, span(8, 1000), 5, span(7, 1000)},
	} {
		prior, err := NewFinished(3, tc.prior)
		if err != nil {
			t.Fatal(err)
		}
		want, err := NewFinished(tc.wantAt, tc.rest)
		if err != nil {
			t.Fatal(err)
		}
		wantMeta, _ := want.Metadata()
		at, m, err := priorMetadata(finishedOf(t, tc.at, tc.fin), prior)
		if at != tc.wantAt || m != wantMeta || err != nil {
			t.Errorf("%s: priorMetadata(%d, none, %v) = %d, %q, %v; want %d, %q", tc.name, tc.at, prior.Runs(), at, m, err, tc.wantAt, wantMeta)
		}
	}
}

// span returns the offsets from first to last.
func span(first, last int64) []int64 {
	var out []int64
	for o := first; o <= last; o++ {
		out = append(out, o)
	}
	return out
}
