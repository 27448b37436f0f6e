package konvoy

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
)

// sweepSpool keeps the first pass of a sweep, interned, so that the passes
// after it replay it instead of reading, decoding and interning the stream
// again: every event's numbers, its key and line indices and its lane
// under each layout, in some 10 to 30 bytes, in memory up to spoolBuffer
// (64 KiB) and in a temporary file beyond; and the first pass's inputs,
// whose keys, lines and lane tables cover every layout of the sweep. A
// pass that replays it takes the same events, interned the same, as one
// that reads the stream.
//
// The first pass records each batch as it sends it. A spool that cannot be
// written, or an event it cannot give back (a key beyond the key table's
// room, whose name the inputs do not keep), is dropped, and the later
// passes read the stream as they would without one.
type sweepSpool struct {
	groups [2]sweepGroup // the first pass's, once it is kept
	buf    []byte        // what is not in file yet
	file   *os.File      // made when buf first fills; nil until then
	named  bool          // file still has its name, to remove when dropped
	events int           // recorded
	last   int           // the arrival of the last event recorded or replayed
	lanes  []int32       // the lanes of the event being replayed
	valid  [2]inputs     // replaying: by group, the work and last arrival of its events valid so far, to check those flagged valid
	broken bool
	kept   bool // the first pass is over and whole: later passes replay it
}

// spoolPattern is the name of the temporary files, in [os.TempDir], in
// which sweeps keep their first passes, as [os.CreateTemp] reads a
// pattern. Where the system lets an open file be removed, as Unix does, the
// file is removed as soon as it is made, and read through its descriptor:
// nothing is left behind however the process ends, a signal or a kill
// included.
const spoolPattern = "konvoy-sweep-*.spool"

// newSweepSpool returns the spool of a sweep of n configurations, nil for
// one alone, which never takes a second pass.
func newSweepSpool(n int) *sweepSpool {
	if n < 2 {
		return nil
	}
	return &sweepSpool{}
}

// spoolBuffer is how many bytes a spool holds in memory before it writes
// them to its file, and reads from it at a time; a sweep of a short stream
// makes no file. spoolRecord is more than an event's record takes under
// 100 lane tables, so the buffer seldom grows past its room.
const (
	spoolBuffer = 64 << 10
	spoolRecord = 4 << 10
)

// record adds batch b, which its pass is sending, to the spool, in O(n)
// time for its n events and their lanes.
func (sp *sweepSpool) record(b *sweepEvents) {
	if sp.broken {
		return
	}
	if sp.buf == nil {
		sp.buf = make([]byte, 0, spoolBuffer)
	}
	var next [2]int // each group's next event in b
	for i := range b.events {
		if len(sp.buf) > spoolBuffer-spoolRecord {
			if sp.flush(); sp.broken {
				return
			}
		}
		e := &b.events[i]
		var flags byte
		var in [2]*internedEvent
		for g := range b.groups {
			bg := &b.groups[g]
			if next[g] < len(bg.at) && int(bg.at[next[g]]) == i {
				in[g] = &bg.events[next[g]]
				flags |= 1 << g
				if in[g].valid {
					flags |= 4 << g
				}
				if in[g].key < 0 && e.Key != "" {
					sp.drop() // a key beyond the table's room: its name is not kept
					return
				}
			}
		}
		sp.buf = append(sp.buf, flags)
		sp.buf = binary.AppendVarint(sp.buf, int64(e.Step))
		sp.buf = binary.AppendVarint(sp.buf, int64(e.Duration))
		sp.buf = binary.AppendVarint(sp.buf, int64(e.Arrival-sp.last))
		sp.buf = binary.AppendVarint(sp.buf, int64(e.Partition))
		sp.last = e.Arrival
		for g, ie := range in {
			if ie == nil {
				continue
			}
			bg := &b.groups[g]
			sp.buf = binary.AppendUvarint(sp.buf, uint64(ie.key+1))
			sp.buf = binary.AppendUvarint(sp.buf, uint64(ie.line+1))
			for _, ln := range bg.lanes[next[g]*bg.stride : (next[g]+1)*bg.stride] {
				sp.buf = binary.AppendUvarint(sp.buf, uint64(ln+1))
			}
			next[g]++
		}
		sp.events++
	}
}

// flush writes what the spool holds in memory to its file, making it
// first; a spool that cannot is dropped.
func (sp *sweepSpool) flush() {
	if sp.file == nil {
		f, err := os.CreateTemp("", spoolPattern)
		if err != nil {
			sp.drop()
			return
		}
		sp.file, sp.named = f, os.Remove(f.Name()) != nil
	}
	if _, err := sp.file.Write(sp.buf); err != nil {
		sp.drop()
		return
	}
	sp.buf = sp.buf[:0]
}

// keep ends the recording with the first pass's inputs, groups, which the
// passes that replay it share: it reports whether they can.
func (sp *sweepSpool) keep(groups [2]sweepGroup) bool {
	if !sp.broken && sp.file != nil && len(sp.buf) > 0 {
		sp.flush()
	}
	if sp.file != nil {
		sp.buf = nil // the later passes read the file
	}
	sp.groups, sp.kept = groups, !sp.broken
	return sp.kept
}

// drop gives the spool up: its file is removed, its inputs let go. A nil
// spool has nothing to drop.
func (sp *sweepSpool) drop() {
	if sp == nil {
		return
	}
	sp.broken, sp.kept = true, false
	sp.groups = [2]sweepGroup{}
	sp.buf = nil
	if sp.file != nil {
		sp.file.Close()
		if sp.named {
			os.Remove(sp.file.Name())
		}
		sp.file = nil
	}
}

// reader returns the spool from its start, for a pass that replays it.
func (sp *sweepSpool) reader() (*bufio.Reader, error) {
	sp.last, sp.valid = 0, [2]inputs{}
	if sp.file == nil {
		return bufio.NewReader(bytes.NewReader(sp.buf)), nil
	}
	if _, err := sp.file.Seek(0, io.SeekStart); err != nil {
		return nil, fmt.Errorf("konvoy: Sweep: reading the first pass again: %w", err)
	}
	return bufio.NewReaderSize(sp.file, spoolBuffer), nil
}

// spoolFlags are the flags an event's record may carry: bit g for a group
// that took it, bit 2+g for its being valid there.
const spoolFlags = 1<<4 - 1

// errSpoolCorrupt is replay's error for a record that names a group, key,
// line or lane the first pass did not make: the file changed under it.
var errSpoolCorrupt = errors.New("the spool file is corrupt")

// replay adds the next event of the spool, read from r, to batch b, as
// the first pass interned it, in O(l) time for l lane tables. It reads the
// whole record before it adds any of it, so that a spool cut short, or one
// whose bytes changed, leaves b whole, with an error.
func (sp *sweepSpool) replay(r *bufio.Reader, b *sweepEvents) error {
	e, flags, ie, err := sp.read(r)
	if err != nil {
		if errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
		return fmt.Errorf("konvoy: Sweep: reading the first pass again: %w", err)
	}
	sp.last = e.Arrival
	at := int32(len(b.events))
	lanes := sp.lanes
	for g := range sp.groups {
		if flags&(1<<g) == 0 {
			continue
		}
		in, bg := sp.groups[g].in, &b.groups[g]
		if ie[g].key >= 0 {
			e.Key = in.keyName(ie[g].key)
		}
		if ie[g].line >= 0 {
			e.Line = in.lineNames[ie[g].line]
		}
		bg.lanes = append(bg.lanes, lanes[:len(in.tables)]...)
		lanes = lanes[len(in.tables):]
		bg.at, bg.events, bg.stride = append(bg.at, at), append(bg.events, ie[g]), len(in.tables)
	}
	b.events = append(b.events, e)
	b.bytes += len(e.Key) + len(e.Line)
	return nil
}

// read reads the next event's record from r: the event without its key
// and line, its flags, and how each group took it, with its lanes in
// sp.lanes. It returns errSpoolCorrupt for a record the first pass could
// not have written.
func (sp *sweepSpool) read(r *bufio.Reader) (e Event, flags byte, ie [2]internedEvent, err error) {
	var v [4]int64
	flags, err = r.ReadByte()
	for i := range v {
		if err != nil {
			return e, flags, ie, err
		}
		v[i], err = binary.ReadVarint(r)
	}
	if err == nil && flags&^spoolFlags != 0 {
		err = errSpoolCorrupt
	}
	e = Event{Step: int(v[0]), Duration: int(v[1]), Arrival: sp.last + int(v[2]), Partition: int(v[3])}
	sp.lanes = sp.lanes[:0]
	for g := range sp.groups {
		if err == nil && flags&(1<<g) != 0 {
			ie[g], err = sp.readGroup(r, g, flags, &e)
		}
	}
	return e, flags, ie, err
}

// readGroup reads how group g took event e, flagged as flags says, and
// appends its lanes to sp.lanes.
func (sp *sweepSpool) readGroup(r *bufio.Reader, g int, flags byte, e *Event) (internedEvent, error) {
	ie := internedEvent{task: task{step: e.Step, duration: e.Duration, arrival: e.Arrival}, valid: flags&(4<<g) != 0}
	in := sp.groups[g].in
	if in == nil {
		return ie, errSpoolCorrupt
	}
	key, err := binary.ReadUvarint(r)
	if err != nil {
		return ie, err
	}
	line, err := binary.ReadUvarint(r)
	if err != nil {
		return ie, err
	}
	if key > uint64(in.keys.len()) || line > uint64(len(in.lineNames)) {
		return ie, errSpoolCorrupt
	}
	ie.key, ie.line = int(key)-1, int(line)-1
	// An event the group found valid is valid there again.
	if ie.valid && (ie.key < 0 || !sp.valid[g].valid(&Event{Key: "k", Step: e.Step, Duration: e.Duration, Arrival: e.Arrival})) {
		return ie, errSpoolCorrupt
	}
	for _, t := range in.tables {
		ln, err := binary.ReadUvarint(r)
		if err != nil {
			return ie, err
		}
		if ln > uint64(t.len()) {
			return ie, errSpoolCorrupt
		}
		sp.lanes = append(sp.lanes, int32(ln)-1)
	}
	return ie, nil
}

// replays returns the pass's spool when the pass replays it, nil when it
// reads the stream.
func (p *sweepPass) replays() *sweepSpool {
	if p.spool != nil && p.spool.kept {
		return p.spool
	}
	return nil
}

// planned returns the groups and the lane tables of the spool's inputs,
// which a pass that replays it keeps whatever runs it takes, for its plan;
// none for a nil spool.
func (sp *sweepSpool) planned() (has [2]bool, tables [2][]Layout) {
	if sp == nil {
		return has, tables
	}
	for g, gr := range sp.groups {
		if has[g] = gr.in != nil; has[g] {
			for _, t := range gr.in.tables {
				tables[g] = append(tables[g], t.layout)
			}
		}
	}
	return has, tables
}

// holds tells whether run r fits, at sizes z, beside the spool's inputs
// in maxMemory bytes: whether a pass that starts with r can replay it.
func (sp *sweepSpool) holds(r *sweepRun, z *sweepSizes, maxMemory int) bool {
	has, tables := sp.planned()
	return planned(z, []*sweepRun{r}, has, tables)-r.reserve <= maxMemory // the first run of a pass, its reserve aside, as one alone
}

// table returns the index of layout l's lane table in group g of the
// spool's inputs, -1 for a layout without lanes.
func (sp *sweepSpool) table(g int, l Layout) int {
	if l.lanes == noLanes {
		return -1
	}
	return slices.IndexFunc(sp.groups[g].in.tables, func(t *laneTable) bool { return t.layout.Equal(l) })
}

// replayInputs gives the runs of the pass the spool's inputs, with their
// layouts' lane tables in them.
func (p *sweepPass) replayInputs() {
	sp := p.spool
	p.groups = sp.groups
	for _, r := range p.runs[:p.active] {
		r.table = sp.table(r.group, r.layout)
		r.sim.use(p.groups[r.group].in, r.table)
	}
}

// usedBy returns the spool that the passes after pass p may still replay:
// sp, unless p, a pass after the first, found no room beside its inputs
// and reads the stream, when sp is dropped, its inputs being planned for
// by no pass. It is nil for a nil sp.
func (sp *sweepSpool) usedBy(p *sweepPass) *sweepSpool {
	if sp != nil && sp.kept && p.spool == nil {
		sp.drop()
		return nil
	}
	return sp
}

// after returns the spool that the passes after pass p replay: sp once
// the first pass is over, kept when more passes come, the stream whole (no
// error on the way), and dropped otherwise. It is nil for a nil sp.
func (sp *sweepSpool) after(p *sweepPass, more bool) *sweepSpool {
	if sp == nil || sp.kept {
		return sp
	}
	if more && sp.keep(p.groups) {
		return sp
	}
	sp.drop()
	return nil
}
