package eventlog

import "github.com/sirali-konvoy/konvoy"

// Stats counts what a stream of events holds beyond what a simulation
// measures: its distinct lines, the events that carry a step, and the keys
// whose steps arrive out of order. Its zero value is ready to use; its memory
// grows with the distinct keys and lines, not the events. It is not safe for
// concurrent use.
//
// A key is out of order when its nonzero steps, in input order, are not
// nondecreasing: its producer sent a lower step after a higher one. Such a key
// writes backward even under a convoy, which keeps input order, so its
// backward writes and a wrong final state are the trace's own, not the
// layout's.
type Stats struct {
	events, ordered int
	// keys numbers each key, from 0 in order of first appearance, and last
	// is its last nonzero step, -1 once out of order: a step is written to
	// last, not to the map, whose assignment would store the event's own
	// copy of the key, beside the one a consumer of the stream kept.
	keys  map[string]int
	last  []int
	lines map[string]struct{}
	// backward numbers the keys out of order, in the order each went
	// backward; outOfOrder names them, as the map holds them (see
	// OutOfOrder).
	backward   []int
	outOfOrder []string
}

// Add counts one event.
func (s *Stats) Add(e konvoy.Event) {
	if s.keys == nil {
		s.keys = make(map[string]int)
		s.lines = make(map[string]struct{})
	}
	s.events++
	if e.Line != "" {
		if _, ok := s.lines[e.Line]; !ok {
			s.lines[e.Line] = struct{}{}
		}
	}
	k, seen := s.keys[e.Key]
	if !seen {
		k = len(s.last)
		s.keys[e.Key] = k
		s.last = append(s.last, 0)
	}
	if e.Step == 0 {
		return
	}
	s.ordered++
	switch last := s.last[k]; {
	case last < 0:
	case e.Step < last:
		s.last[k] = -1
		s.backward = append(s.backward, k)
	case e.Step > last:
		s.last[k] = e.Step
	}
}

// Events returns the number of events added.
func (s *Stats) Events() int { return s.events }

// Ordered returns the number of events with a nonzero step: the ones whose
// order matters.
func (s *Stats) Ordered() int { return s.ordered }

// Keys returns the number of distinct keys.
func (s *Stats) Keys() int { return len(s.last) }

// Lines returns the number of distinct non-empty lines.
func (s *Stats) Lines() int { return len(s.lines) }

// OutOfOrder returns the keys whose steps arrive out of order, in the order
// in which each was first seen going backward. The slice is the Stats' own.
// It takes O(keys) time when keys went backward since the last call (it
// names them by the copies of the keys the Stats hold, not the later
// events', so that no key is held twice), O(1) otherwise.
func (s *Stats) OutOfOrder() []string {
	if len(s.outOfOrder) == len(s.backward) {
		return s.outOfOrder
	}
	at := make(map[int]int, len(s.backward)) // key number → place
	for i, k := range s.backward {
		at[k] = i
	}
	s.outOfOrder = make([]string, len(s.backward))
	for name, k := range s.keys {
		if i, ok := at[k]; ok {
			s.outOfOrder[i] = name
		}
	}
	return s.outOfOrder
}
