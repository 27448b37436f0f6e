package konvoy

import "iter"

// source reads a stream that can fail as one that cannot: values yields
// the events up to the first error, which it keeps in err, and stops there.
type source struct {
	seq iter.Seq2[Event, error]
	err error
}

// values returns the stream's events up to its first error.
func (s *source) values() iter.Seq[Event] {
	return func(yield func(Event) bool) {
		for e, err := range s.seq {
			if err != nil {
				s.err = err
				return
			}
			if !yield(e) {
				return
			}
		}
	}
}

// Values returns events as a stream that never fails, for the functions
// that take one, such as [Sweep] and [PlanConsumers].
func Values(events []Event) iter.Seq2[Event, error] {
	return func(yield func(Event, error) bool) {
		for _, e := range events {
			if !yield(e, nil) {
				return
			}
		}
	}
}
