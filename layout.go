package konvoy

// LaneFunc names the lane an event runs in. Events of one lane never overlap
// in time; ok false means the event takes no lane and runs free. A LaneFunc
// must be deterministic: the same event always gets the same answer.
type LaneFunc func(e Event) (lane string, ok bool)

// Layout is a way of arranging events for consumers: which lane, if any, each
// event runs in, and whether the handler rejects backward writes.
//
// The zero Layout is [Free]. The lesson's four layouts are the package-level
// values [Free], [Convoy], [LineConvoy] and [VersionStamp]; [NewLayout]
// builds one from any grouping of events into lanes.
type Layout struct {
	name      string
	lanes     LaneFunc // nil: no event takes a lane
	stamped   bool     // the handler skips backward writes
	needsLine bool     // an event without a Line is an error
}

// The lesson's four layouts.
var (
	// Free dispatches every event to the earliest-free consumer with no lane
	// (the lesson's serbest): the fastest layout and the one that writes
	// backward.
	Free = Layout{name: "free"}

	// Convoy runs every key in a lane of its own (the lesson's konvoy): the
	// sequential convoy, in order per key at the cost of parallelism.
	Convoy = Layout{name: "convoy", lanes: func(e Event) (string, bool) { return e.Key, true }}

	// LineConvoy runs every line in a lane of its own (the lesson's
	// konvoy-hat): a coarser key that puts unrelated keys behind each other.
	// Every event must have a Line.
	LineConvoy = Layout{name: "line-convoy", lanes: func(e Event) (string, bool) { return e.Line, true }, needsLine: true}

	// VersionStamp dispatches like Free, but its handler skips an event whose
	// step is lower than its key's state (the lesson's sürüm damgası): right
	// final states, at the cost of steps missing from history.
	VersionStamp = Layout{name: "version-stamp", stamped: true}
)

// NewLayout returns a layout named name whose lanes are given by lanes, with
// the last-writer-wins handler of [Convoy]. A nil lanes puts no event in a
// lane, like [Free].
func NewLayout(name string, lanes LaneFunc) Layout {
	return Layout{name: name, lanes: lanes}
}

// String returns the layout's name: "free", "convoy", "line-convoy" or
// "version-stamp" for the lesson's layouts, the name given to [NewLayout]
// otherwise, and "free" for the zero Layout.
func (l Layout) String() string {
	if l.name == "" && l.lanes == nil && !l.stamped {
		return "free"
	}
	return l.name
}

// Layouts returns the lesson's four layouts in the lesson's column order.
func Layouts() []Layout {
	return []Layout{Free, Convoy, LineConvoy, VersionStamp}
}

// LayoutByName returns the lesson layout whose String is name, and false when
// there is none.
func LayoutByName(name string) (Layout, bool) {
	for _, l := range Layouts() {
		if l.String() == name {
			return l, true
		}
	}
	return Layout{}, false
}
