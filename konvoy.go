package konvoy

import "fmt"

// Event is one state update of one entity: the lesson's olay.
//
// Key names the entity whose state the event overwrites (the lesson's takip
// no, a tracking number). Line is a coarser grouping of keys (the lesson's hat,
// a route); only layouts that group by line read it. Step is the event's
// position in the key's state machine (accepted=1 … delivered=4 in the
// lesson); Step 0 marks a history-only record, which never changes state and
// is never a backward write. Duration is the time a consumer spends on the
// event, in rounds (the lesson's süre), and may be 0. Arrival is the round at
// which the event reaches the pipeline; no consumer can start it earlier. The
// lesson is a batch: every Arrival is 0 there, and 0 is the default.
type Event struct {
	Key      string
	Line     string
	Step     int
	Duration int
	Arrival  int
}

// Result holds the measures of one simulated run.
//
// Rounds is the time the last event finishes (the makespan, the lesson's
// tur); Work the sum of all durations (iş yükü). BackwardWrites counts events
// applied, or offered, with a step lower than their key's state at that moment
// (geriye yazma). WrongFinal counts keys whose state after the run differs
// from the highest step among their events (yanlış son durum), and WrongKeys
// names them in order of their first appearance in the input. Skipped counts
// events the version-stamp handler rejected (atlanan olay), each a step
// missing from the key's history. Lanes counts distinct lanes used (şerit) and
// HeaviestLane is the largest sum of durations over one lane (en yüklü
// şerit), 0 for layouts without lanes. Events and Keys count the input's
// events and distinct keys.
type Result struct {
	Events         int
	Keys           int
	Work           int
	Rounds         int
	BackwardWrites int
	WrongFinal     int
	WrongKeys      []string
	Skipped        int
	Lanes          int
	HeaviestLane   int
}

// Parallelism returns the effective parallelism Work / Rounds (the lesson's
// etkin koşutluk). It is 0 for an empty run and for a run whose every event
// takes no time, where the ratio is undefined.
func (r Result) Parallelism() float64 {
	if r.Rounds == 0 {
		return 0
	}
	return float64(r.Work) / float64(r.Rounds)
}

// Simulate dispatches events in input order to consumers under layout, applies
// them in finish order and returns the run's measures, as the lesson's model
// does; [Simulator] states the rules.
//
// An empty event set gives a zero Result and a nil error. Simulate returns an
// error, naming the event index and field, when consumers < 1, an event has
// an empty Key, a negative Step, Duration or Arrival, an Arrival earlier than
// the event before it, the layout needs a Line the event lacks, or the total
// work (plus the last arrival) would overflow int. It never modifies events.
//
// Simulate takes O(n log n + n log c) time for n events and c consumers and
// O(k + l + c) memory beyond its input for k distinct keys and l lanes.
func Simulate(events []Event, layout Layout, consumers int) (Result, error) {
	s, err := NewSimulator(layout, consumers)
	if err != nil {
		return Result{}, err
	}
	for _, e := range events {
		if err := s.Add(e); err != nil {
			return Result{}, err
		}
	}
	return s.Result()
}

// validate reports the first problem with event e at input index i, or nil.
func validate(e Event, i int, layout Layout) error {
	switch {
	case e.Key == "":
		return fmt.Errorf("konvoy: event %d: Key is empty; every event needs the key whose state it overwrites", i)
	case e.Step < 0:
		return fmt.Errorf("konvoy: event %d (key %q): Step is %d; want 0 (history only) or more", i, e.Key, e.Step)
	case e.Duration < 0:
		return fmt.Errorf("konvoy: event %d (key %q): Duration is %d; want 0 or more rounds", i, e.Key, e.Duration)
	case e.Arrival < 0:
		return fmt.Errorf("konvoy: event %d (key %q): Arrival is %d; want round 0 or later", i, e.Key, e.Arrival)
	case layout.needsLine && e.Line == "":
		return fmt.Errorf("konvoy: event %d (key %q): Line is empty; layout %s puts events in lanes by line", i, e.Key, layout)
	}
	return nil
}
