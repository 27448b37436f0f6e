package runs

// LongNames keeps the copy of each long key and line name that a trace's
// first pass read, as its Stats keep it, and gives it back for the same
// name in a later pass: a sweep that reads the trace again holds that
// pass's names, and would otherwise hold every long name twice, beside
// the Stats' copy, which its memory budget does not count (found by a
// review: 200,000 keys of 4,007 bytes took 919 MB live under -max-memory
// 600MiB), and konvoy plan's passes at once one copy each. A name shorter
// than longName costs less held twice than its place in the map (some 40
// bytes). Keep is not safe for concurrent use; Same is, once the first
// pass is over.
type LongNames map[string]string

// longName is the length from which a name is kept in LongNames.
const longName = 64

// Keep keeps name when it is long and the first of its kind.
func (n LongNames) Keep(name string) {
	if len(name) >= longName {
		if _, ok := n[name]; !ok {
			n[name] = name
		}
	}
}

// Spelled returns the copy that Keep kept of the name b spells, or a new
// string of b; it allocates nothing for a name kept.
func (n LongNames) Spelled(b []byte) string {
	if len(b) >= longName {
		if kept, ok := n[string(b)]; ok {
			return kept
		}
	}
	return string(b)
}

// Same returns the copy of name that Keep kept, or name.
func (n LongNames) Same(name string) string {
	if len(name) >= longName {
		if kept, ok := n[name]; ok {
			return kept
		}
	}
	return name
}
