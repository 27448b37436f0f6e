package live

import "testing"

// The queue of held items drops its stale entries once they outnumber
// twice the held ones and 64, and its passed entries once they are more
// than half of it, and not before: sooner, every item would pay for a
// scan of what is held (quadratic time, with results unchanged); later
// or never, a queue that never empties grows with the items.
func TestTheHeldQueueCompactsWhenItsDeadEntriesPayForIt(t *testing.T) {
	for _, tc := range []struct {
		n, head, held int
		want          bool
	}{
		{1000, 0, 1000, false},   // all held: nothing to drop
		{1000, 0, 468, false},    // 1000 ≤ 2·468 + 64
		{1000, 0, 467, true},     // 1000 > 2·467 + 64
		{1000, 500, 1000, false}, // half passed
		{1000, 501, 1000, true},  // more than half passed
		{1000, 400, 400, false},  // 600 after head, ≤ 2·400 + 64: the passed ones are not counted there
		{1000, 100, 300, true},   // 900 after head > 2·300 + 64
		{64, 0, 0, false},        // a small queue waits for 64 stale entries
		{65, 0, 0, true},
		{3, 2, 1, true}, // a queue never empty, one held: its passed entries go
	} {
		if got := dueForCompaction(tc.n, tc.head, tc.held); got != tc.want {
			t.Errorf("dueForCompaction(%d, %d, %d) = %v; want %v", tc.n, tc.head, tc.held, got, tc.want)
		}
	}
}
