package konvoy

import (
	"math"
	"slices"
)

// internedEvent is an event as a run consumes it: its key and line as dense
// indices, numbered in order of first appearance in the stream, beside the
// numbers the model reads. A stream is interned once per pass (see
// [inputs]), however many runs take it.
type internedEvent struct {
	task
	line  int  // -1: Line is "", or no layout of the pass reads lines
	valid bool // passes the checks that depend on the stream alone (see inputs.valid)
}

// task is what dispatching an event reads of it: four words, which the
// compiler keeps in registers from the Simulator to its dispatcher.
type task struct {
	key                     int // -1: Key is "", or new when the key table is full
	step, duration, arrival int
}

// inputs is what depends on a stream alone, not on how it is dispatched:
// its keys, numbered in order of first appearance, with their names and
// highest steps; its lines, when a layout reads them; and, for each layout
// of the runs that take it, its lanes with their loads (see [laneTable]).
// One inputs serves every run of a pass: a [Simulator] made alone has its
// own, and a [Sweep] one for all its runs, so that a key is hashed and a
// lane found once an event, not once an event and run. Runs keep only their
// own state beside it, a few bytes a key (see [Simulator]).
//
// An inputs is written by one goroutine, as events are interned, and read
// by the runs only after the pass, when they report: while the pass goes
// on, a run reads only what the interned events carry.
type inputs struct {
	keys      keyTable
	work      int            // the events' total duration, while they are valid
	last      int            // the last valid event's arrival
	lines     map[string]int // nil when no layout reads lines
	lineNames []string       // by line index
	tables    []*laneTable   // by layout, each distinct layout once
	names     int            // the bytes of the keys' and lines' names
}

// newInputs returns the inputs of a stream that runs of the given layouts
// take, and, for each layout, the index of its lane table, -1 for a layout
// without lanes. Equal layouts share one table.
func newInputs(layouts []Layout) (*inputs, []int) {
	in := &inputs{}
	at := make([]int, len(layouts))
	for i, l := range layouts {
		at[i] = -1
		if l.lanes == noLanes {
			continue
		}
		if l.lanes == lineLanes && in.lines == nil {
			in.lines = make(map[string]int)
		}
		if at[i] = slices.IndexFunc(in.tables, func(t *laneTable) bool { return t.layout.Equal(l) }); at[i] < 0 {
			at[i] = len(in.tables)
			in.tables = append(in.tables, newLaneTable(l))
		}
	}
	return in, at
}

// intern interns event e into ie: its key numbered (a new key gets the
// next index, and added is true) and its highest step raised, its line
// numbered when a layout reads lines. It takes one key lookup and one line
// lookup when a layout reads lines. A key beyond the table's
// keyTableMaxKeys, or an empty one, gets index -1. The caller then finds
// the event's lane in each table (see laneTable.lane), in the same order.
func (in *inputs) intern(e *Event, ie *internedEvent) (added bool) {
	ie.key, ie.line, ie.step, ie.duration, ie.arrival = -1, -1, e.Step, e.Duration, e.Arrival
	if e.Key != "" {
		ie.key, added = in.keys.index(e.Key)
		if added {
			in.names += len(e.Key)
		}
	}
	if ie.key >= 0 {
		k := in.keys.at(ie.key)
		k.highest = max(k.highest, e.Step)
	}
	if in.lines != nil && e.Line != "" {
		l, ok := in.lines[e.Line]
		if !ok {
			l = len(in.lineNames)
			in.lines[e.Line] = l
			in.lineNames = append(in.lineNames, e.Line)
			in.names += len(e.Line)
		}
		ie.line = l
	}
	return added
}

// valid tells whether event e, the next in the stream, passes every check
// of [Simulator.check] that depends on the stream alone, and counts it in
// the totals they need when it does: whether each run that takes the
// stream, and has taken every event before e, would take it but for its
// own checks, a line for line lanes and the schedule's limit. A sweep
// checks each event so once, and its runs check in full only the events
// that fail or that their own checks concern. After an invalid event, which
// fails every run, the totals no longer matter.
//
// Check's test that the work overflows, Duration > MaxInt−1−work, is left
// out: it implies the arrival's, since MaxInt−1−work−Duration is then
// below 0, and an arrival not below the last, which is at least 0, is not.
func (in *inputs) valid(e *Event) bool {
	if e.Key == "" || e.Step < 0 || e.Duration < 0 || e.Arrival < in.last ||
		e.Arrival > math.MaxInt-1-in.work-e.Duration {
		return false
	}
	in.work += e.Duration
	in.last = e.Arrival
	return true
}

// keyName returns the name of the key with index k.
func (in *inputs) keyName(k int) string { return in.keys.at(k).name }
