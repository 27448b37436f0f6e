package konvoy

// Slot is one event's place in a run's schedule, kept by [WithSchedule]:
// which consumer ran it, in which lane ("" for none), when it arrived, when
// its consumer took it, when it started and finished, and what the handler
// made of it. A consumer that took an event before it could start held it,
// idle, from Taken to Start: head-of-line blocking, when its lane was
// busy. AppliedAt is the round at which the handler took it: its finish,
// or later for an event the resequencer held; a history-only event (Step
// 0, the outcome HistoryOnly), which changes no state, is taken at its
// finish. It is -1 for an event the handler never took, or discarded:
// skipped, a duplicate, rejected, or never applied. Index is the event's
// index in the run's input, or, in a [CompareSelective] run of the ordered
// events alone, in the whole trace.
type Slot struct {
	Index     int
	Key       string
	Lane      string
	Consumer  int
	Arrival   int
	Taken     int
	Start     int
	Finish    int
	Outcome   Outcome
	AppliedAt int
}

// Outcome is what the handler made of one event.
type Outcome uint8

const (
	// Applied: the event set its key's state.
	Applied Outcome = iota
	// WrittenBackward: the event set its key's state to a lower step (a
	// backward write, last writer wins).
	WrittenBackward
	// Skipped: the version stamp rejected the event as a backward write.
	Skipped
	// Held: the resequencer held the event until its gap filled, or until
	// it gave the gap up (a Timeout or a full Capacity: see
	// [ResequencerConfig]), then applied it at AppliedAt.
	Held
	// Duplicate: the resequencer discarded the event, whose step was already
	// applied or held.
	Duplicate
	// NeverApplied: the resequencer still held the event when the run ended.
	NeverApplied
	// HistoryOnly: the event (Step 0) only appends to history.
	HistoryOnly
	// RejectedOld: the resequencer rejected the event, an old step (see
	// [ResequencerConfig].RejectOld).
	RejectedOld
)

// String returns the outcome's name, as the text schedule view prints it.
func (o Outcome) String() string {
	switch o {
	case Applied:
		return "applied"
	case WrittenBackward:
		return "written-backward"
	case Skipped:
		return "skipped"
	case Held:
		return "held"
	case Duplicate:
		return "duplicate"
	case NeverApplied:
		return "never-applied"
	case RejectedOld:
		return "rejected-old"
	case HistoryOnly:
		return "history-only"
	}
	return "Outcome(?)"
}

// outcome records, when a schedule is kept, what became of event i.
func (s *Simulator) outcome(i int, o Outcome, appliedAt int) {
	if s.schedule != nil {
		s.schedule[i].Outcome, s.schedule[i].AppliedAt = o, appliedAt
	}
}
