package konvoy

import (
	"testing"

	"pgregory.net/rapid"
)

// The static policy's queues must give back, each time, the queued event
// first in apply order (by finish time, then input index) across all
// consumers, given that each consumer's own events come in that order, as a
// consumer runs its events one after another. (That a queue lets go of
// what it gave back is TestFifoIsAQueueThatLetsGoOfItsPages.)
func TestOwnedQueuesGiveBackInApplyOrder(t *testing.T) {
	t.Parallel()
	rapid.Check(t, func(t *rapid.T) {
		c := rapid.IntRange(1, 5).Draw(t, "consumers")
		var o ownedQueues
		last := make([]int, c) // each consumer's last finish
		var queued []finished  // the reference: every event pushed, not yet given back
		pop := func() {
			f, ok := o.next()
			if ok != (len(queued) > 0) {
				t.Fatalf("next says %v with %d events queued", ok, len(queued))
			}
			if !ok {
				return
			}
			first := 0
			for i, g := range queued {
				if g.finish < queued[first].finish || g.finish == queued[first].finish && g.index < queued[first].index {
					first = i
				}
			}
			if f != queued[first] {
				t.Fatalf("gave back %+v; want %+v, first in apply order of %v", f, queued[first], queued)
			}
			o.pop()
			queued = append(queued[:first], queued[first+1:]...)
		}
		for i := range rapid.IntRange(0, 300).Draw(t, "steps") {
			if rapid.Bool().Draw(t, "pop") {
				pop()
				continue
			}
			id := rapid.IntRange(0, c-1).Draw(t, "consumer")
			last[id] += rapid.IntRange(0, 3).Draw(t, "duration")
			f := finished{finish: last[id], index: i}
			o.push(id, f)
			queued = append(queued, f)
		}
		for len(queued) > 0 {
			pop()
		}
		pop() // and none once empty
	})
}
