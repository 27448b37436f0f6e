package live

import (
	"errors"

	"github.com/sirali-konvoy/konvoy"
)

// ErrNeverApplied is the reason [Executor.Close] gives, in its
// [UnrunError], for items the resequencer still held when nothing else was
// left to run: the steps before them never came.
var ErrNeverApplied = errors.New("live: held by the resequencer for steps that never came")

// The resequencer (see the package's doc) releases an item when it is
// submitted; the key's lane then runs the released items one at a time,
// in release order, which is the order in which the model's resequencer
// applies them.

// reseqKey is one key's resequencer: the last step released and the items
// held for steps ahead, by step.
type reseqKey struct {
	state int
	held  map[int]int32
}

// reseqLane returns the lane an item runs in under the resequencer: its
// key's, for a step above 0 and a key.
func reseqLane(e konvoy.Event) (string, bool) {
	return e.Key, e.Step > 0 && e.Key != ""
}

// resequence takes slot i, of event e that has a lane under the
// resequencer: it releases it into its key's lane with the items held
// after it, holds it, or discards it as a duplicate.
func (x *Executor[T]) resequence(i int32, e konvoy.Event, h uint64) {
	k := x.reseq[e.Key]
	if k == nil {
		k = &reseqKey{}
		x.reseq[e.Key] = k
	}
	_, held := k.held[e.Step]
	switch {
	case e.Step <= k.state || held:
		x.duplicates++
		x.discard(i)
	case e.Step > k.state+1:
		if k.held == nil {
			k.held = make(map[int]int32)
		}
		k.held[e.Step] = i
		x.gapHeld++
		x.buffered++
		x.maxBuffered = max(x.maxBuffered, x.gapHeld)
		x.maxKeyBuffered = max(x.maxKeyBuffered, len(k.held))
	default:
		x.enqueue(i, e.Key, true, -1, h)
		k.state = e.Step
		for {
			j, ok := k.held[k.state+1]
			if !ok {
				break
			}
			delete(k.held, k.state+1)
			x.gapHeld--
			k.state++
			x.enqueue(j, e.Key, true, -1, h)
		}
		if len(k.held) == 0 {
			k.held = nil
		}
	}
}

// discard drops slot i, a duplicate, as if it had finished at once: its
// offset, if any, is finished.
func (x *Executor[T]) discard(i int32) {
	if x.offsets != nil {
		x.finishOffset(i)
	}
	x.release(i)
}
