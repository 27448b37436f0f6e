package report

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/lesson"
)

// compareTable compares layouts on the same events, one row per layout:
// what each costs (rounds, parallelism, lanes, the heaviest lane) and what
// each breaks or pays instead (backward writes, wrong final states, steps
// skipped, events the resequencer buffered).
func compareTable(layouts []konvoy.Layout, results []konvoy.Result) *table {
	t := &table{}
	t.add("", "", "", "backward", "wrong", "", "", "", "heaviest")
	t.add("layout", "rounds", "parallelism", "writes", "final", "skipped", "buffered", "lanes", "lane")
	for i, l := range layouts {
		r := results[i]
		t.add(l.String(), strconv.Itoa(r.Rounds), formatAmount(r.Parallelism()),
			strconv.Itoa(r.BackwardWrites), strconv.Itoa(r.WrongFinal), strconv.Itoa(r.Skipped),
			strconv.Itoa(r.Buffered), strconv.Itoa(r.Lanes), strconv.Itoa(r.HeaviestLane))
	}
	return t
}

// compareNotes explains the comparison's layouts beyond the lesson's four,
// one line each: what a topic's hash collisions add to its heaviest
// partition and, when static dispatch runs (static is not ""), the assignor
// that deals its partitions; what the resequencer held; and why a selective
// convoy runs as a convoy when no event is history-only (allOrdered).
func compareNotes(layouts []konvoy.Layout, results []konvoy.Result, allOrdered bool, static string) string {
	var b strings.Builder
	for i, l := range layouts {
		r := results[i]
		switch {
		case l.Equal(konvoy.SelectiveConvoy) && allOrdered:
			fmt.Fprintf(&b, "%s runs as convoy here: every event is an ordered step, none history-only\n", l)
		case l.Partitions() > 0 && r.Lanes > 0:
			verb, other := "keys hash to", "other keys that hash there"
			if l.Equal(konvoy.Recorded(l.Partitions())) {
				verb, other = "events were recorded in", "other keys recorded there"
			}
			fmt.Fprintf(&b, "%s: %s %d of %s; the heaviest, %s, carries %s:\n",
				l, verb, r.Lanes, plural(l.Partitions(), "partition", "partitions"), laneName(l, r.HeaviestLaneName), plural(r.HeaviestLane, "round", "rounds"))
			if c := r.Collision(); c > 0 {
				fmt.Fprintf(&b, "  %d from %s, its heaviest key, and %d from collisions: %s\n", r.HeaviestKeyLoad, keyName(r.HeaviestKey), c, other)
			} else {
				fmt.Fprintf(&b, "  all of them %s's: no collision\n", keyName(r.HeaviestKey))
			}
			if static != "" {
				fmt.Fprintf(&b, "  under static dispatch, the %s assignor deals the partitions to consumers\n", static)
			}
		case l.Equal(konvoy.Resequencer):
			b.WriteString(resequencerNote(l, r))
		}
	}
	return b.String()
}

// staticAssignor is the name of the assignor by which static dispatch deals
// partitions to consumers when policies hold Static, a the one given (0 for
// the default, range); "" when they do not.
func staticAssignor(policies []konvoy.Policy, a konvoy.Assignor) string {
	switch {
	case !slices.Contains(policies, konvoy.Static):
		return ""
	case a == 0:
		return konvoy.RangeAssignor.String()
	}
	return a.String()
}

// hasBeyondLesson tells whether layouts names a layout other than the
// lesson's four.
func hasBeyondLesson(layouts []konvoy.Layout) bool {
	return slices.ContainsFunc(layouts, func(l konvoy.Layout) bool { return !slices.ContainsFunc(lesson.Layouts(), l.Equal) })
}

// resequencerNote is the resequencer's sentence: what it held, and what
// became of it, and the old steps it wrote backward.
func resequencerNote(l konvoy.Layout, r konvoy.Result) string {
	switch {
	case r.NeverApplied > 0 || r.Forced > 0 || r.RejectedOld > 0:
		return resequencerGaveUp(l, r) + backwardNote(r)
	case r.Buffered == 0 && r.Duplicates == 0 && r.BackwardWrites == 0:
		return fmt.Sprintf("%s held no event: every key's steps finished in step order, and none came twice\n", l)
	case r.Buffered == 0 && r.Duplicates == 0:
		return fmt.Sprintf("%s held no event and discarded none\n", l) + backwardNote(r)
	}
	gaps := "their gaps"
	if r.Buffered == 1 {
		gaps = "its gap"
	}
	return fmt.Sprintf("%s: held %s until %s filled, %s in all, at most %d at once\n", l, plural(r.Buffered, "event", "events"), gaps, plural(r.HeldRounds, "round", "rounds"), r.MaxBuffered) +
		fmt.Sprintf("  (%d of one key); %d never applied (a gap that never filled), %s discarded\n", r.MaxKeyBuffered, r.NeverApplied, plural(r.Duplicates, "duplicate", "duplicates")) +
		backwardNote(r)
}

// backwardNote says how many old steps, steps at or below their key's
// state that it never applied, the resequencer wrote backward, setting
// their keys back; "" for none.
func backwardNote(r konvoy.Result) string {
	if r.BackwardWrites == 0 {
		return ""
	}
	return fmt.Sprintf("  %s written backward, setting a key back (-reject-old discards old steps)\n",
		plural(r.BackwardWrites, "old step", "old steps"))
}

// resequencerGaveUp is the resequencer's sentence for a run in which some
// gaps did not fill: how many held events were released by a gap filling,
// how many the timeout or the capacity applied anyway (and the steps they
// skipped), how many old steps were rejected, and how many events were
// still held at the end.
func resequencerGaveUp(l konvoy.Layout, r konvoy.Result) string {
	filled := r.Buffered - r.Forced - r.NeverApplied
	var b strings.Builder
	fmt.Fprintf(&b, "%s: held %s, %s in all, at most %d at once (%d of one key):\n",
		l, plural(r.Buffered, "event", "events"), plural(r.HeldRounds, "round", "rounds"), r.MaxBuffered, r.MaxKeyBuffered)
	fmt.Fprintf(&b, "  %d released when their gaps filled, %d applied by timeout or capacity (%s skipped), %d still held at the end;\n",
		filled, r.Forced, plural(r.GapsSkipped, "missing step", "missing steps"), r.NeverApplied)
	fmt.Fprintf(&b, "  %s discarded, %s rejected\n",
		plural(r.Duplicates, "duplicate", "duplicates"), plural(r.RejectedOld, "old step", "old steps"))
	return b.String()
}
