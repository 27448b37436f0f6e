package runs

// NameRoom counts what a trace's distinct keys and lines take as a
// command first reads it, against Most bytes: each name's bytes and Each
// bytes beside it, its places in the counts and the simulators that hold
// it. Memory that grows with the keys is so bounded as the runs' backlogs
// are, so that a trace of many or long names ends in an error naming the
// limit, not in the Go runtime's fatal out-of-memory error (found by a
// review: 200,000 keys of 4,007 bytes under ulimit -v 2600000). The caller
// tells which names are new, as its eventlog.Stats see them.
type NameRoom struct {
	Most, Each int
	took       int
}

// Add counts key, when newKey, and line, when newLine, and tells whether
// the names counted so far still fit in Most.
func (r *NameRoom) Add(key, line string, newKey, newLine bool) bool {
	if newKey {
		r.took += r.Each + len(key)
	}
	if newLine {
		r.took += r.Each + len(line)
	}
	return r.took <= r.Most
}

// Took returns the bytes counted so far.
func (r *NameRoom) Took() int { return r.took }
