// Package seqtest holds what the tests of several packages need of event
// streams.
package seqtest

import (
	"iter"

	"github.com/sirali-konvoy/konvoy"
)

// Drain returns a stream's events, panicking on its error: for streams
// that cannot fail, such as a valid synth configuration's.
func Drain(seq iter.Seq2[konvoy.Event, error]) []konvoy.Event {
	var out []konvoy.Event
	for e, err := range seq {
		if err != nil {
			panic(err)
		}
		out = append(out, e)
	}
	return out
}
