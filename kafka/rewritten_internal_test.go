package kafka

import (
	"errors"
	"slices"
	"testing"

	"github.com/twmb/franz-go/pkg/kgo"
)

// A record at an offset the assignment's prior commit names finished,
// but of a leader epoch after that commit's (the epoch of the highest
// record it names), was written after the commit: the log was cut below
// it and grown again, by an unclean leader election, after the
// assignment's check and above the fetch position, where franz-go's own
// check finds nothing (suspected by a review). It runs, and so do the
// records the commit names above it; the commits that follow carry none
// of them on, and Commits counts a divergence once. Records of the
// commit's epoch, and any record when the commit carries no epoch, count
// finished as before.
func TestARecordWrittenAfterThePriorCommitRuns(t *testing.T) {
	prior, err := NewFinished(5, []int64{7, 8, 9, 12})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name       string
		priorEpoch int32
		grownFrom  int64 // the records from here are of epoch 4, those below of 3
		done       []int64
		kept       []Run
		diverged   int
	}{
		{"the same log", 3, 13, []int64{7, 8, 9, 12}, []Run{{7, 9}, {12, 12}}, 0},
		{"grown again from 8", 3, 8, []int64{7}, []Run{{7, 7}}, 1},
		{"grown again from 6", 3, 6, nil, nil, 1},
		{"a commit of no epoch", -1, 6, []int64{7, 8, 9, 12}, []Run{{7, 9}, {12, 12}}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := &Consumer{}
			p := newPart(0, topicPartition{"t", 0}, prior)
			p.priorEpoch = tc.priorEpoch
			var b []item
			for o := int64(6); o <= 13; o++ {
				epoch := int32(3)
				if o >= tc.grownFrom {
					epoch = 4
				}
				b = append(b, item{&kgo.Record{Offset: o, LeaderEpoch: epoch}, p, nil})
			}
			c.noteEpochs(p, b[:3]) // polled in two batches
			c.noteEpochs(p, b[3:])
			var done []int64
			for _, it := range b {
				if p.priorDone(it.r.Offset) {
					done = append(done, it.r.Offset)
				}
			}
			if !slices.Equal(done, tc.done) || !slices.Equal(p.priorKept().Runs(), tc.kept) {
				t.Errorf("finished without running: %v, kept for commits %v; want %v and %v", done, p.priorKept().Runs(), tc.done, tc.kept)
			}
			s := c.Commits()
			if s.Diverged != tc.diverged || errors.Is(s.LastMetadata, ErrDiverged) != (tc.diverged > 0) {
				t.Errorf("Commits: %d diverged, last %v; want %d", s.Diverged, s.LastMetadata, tc.diverged)
			}
		})
	}
}
