package eventlog

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// jsonState is a JSON Lines decoder's state.
type jsonState struct {
	next int    // the number of the next physical line
	buf  []byte // a line longer than the read buffer
	// the raw values of the wanted fields on the current line, nil when absent
	key, line, status, step, dur, at, part []byte
	hasPart                                int // 0: not known yet; 1: the trace has partitions; -1: it has none
	hasAt                                  int // the same of arrivals
	wanted                                 []wanted
}

// wanted is a field a JSON Lines decoder reads: its name, where its raw
// value goes, and, when the field was named explicitly and every record
// must have it, the flag that names it.
type wanted struct {
	name string
	raw  *[]byte
	flag string
	path bool // name has dots: a path when no field has the whole name
}

// newJSONState is the state of a JSON Lines decoder of the columns cols,
// of which named must be in every record.
func newJSONState(cols Columns, named []namedColumn) *jsonState {
	s := &jsonState{}
	for _, w := range []wanted{{name: cols.Key, raw: &s.key}, {name: cols.Line, raw: &s.line}, {name: cols.Status, raw: &s.status},
		{name: cols.Step, raw: &s.step}, {name: cols.Duration, raw: &s.dur}, {name: cols.At, raw: &s.at}, {name: cols.Partition, raw: &s.part}} {
		w.path = strings.Contains(w.name, ".")
		s.wanted = append(s.wanted, w)
	}
	for _, n := range named {
		s.wanted[n.field].flag = n.flag // in Columns' order
	}
	return s
}

// readLine returns the next physical line without its line end, or io.EOF.
// It refuses a line with a NUL byte, or one longer than the decoder accepts,
// as soon as the bytes read show it: a long line is read in pieces of the read
// buffer's size, and each piece is checked as it comes, so that a line holds
// at most MaxRecordBytes and one piece in memory.
func (d *Decoder) readLine() ([]byte, error) {
	s := d.json
	s.next++
	line, err := d.br.ReadSlice('\n')
	from := 0 // where the bytes not yet checked start
	if err == bufio.ErrBufferFull {
		s.buf = append(s.buf[:0], line...)
		for err == bufio.ErrBufferFull {
			if e := d.checkLine(s.buf, len(s.buf)-len(line), false); e != nil {
				return nil, e
			}
			line, err = d.br.ReadSlice('\n')
			s.buf = d.appendLine(s.buf, line)
		}
		from = len(s.buf) - len(line)
		line = s.buf
	}
	if e := d.checkLine(line, from, err == nil || err == io.EOF); e != nil {
		return nil, e
	}
	if err != nil && err != io.EOF {
		return nil, d.readErr(s.next, err)
	}
	if err == io.EOF && len(line) == 0 {
		return nil, io.EOF
	}
	d.offset += int64(len(line))
	line = bytes.TrimSuffix(line, []byte("\n"))
	line = bytes.TrimSuffix(line, []byte("\r"))
	return line, nil
}

// appendLine appends b, a piece of a line, to buf, doubling buf's capacity
// when it must grow, up to what the longest line needs: the cap, a piece
// more (a line is checked after each piece) and a CRLF. A line of n bytes
// then costs some 2n bytes of allocations, and 2n at once while buf grows,
// not the 5n and 2.25n of append's growth by a quarter.
func (d *Decoder) appendLine(buf, b []byte) []byte {
	if need := len(buf) + len(b); need > cap(buf) {
		c := 2 * cap(buf)
		if limit := d.maxBytes + bufferSize + 2; c > limit || c < 0 {
			c = limit
		}
		grown := make([]byte, len(buf), max(c, need))
		copy(grown, buf)
		buf = grown
	}
	return append(buf, b...)
}

// checkLine checks the line read so far, whose bytes from from on are new,
// for a NUL byte and for its length; complete tells whether the line has
// ended. A line's length does not count its line end, LF or CRLF; while the
// line goes on, a '\r' that ends the bytes read so far is not counted either,
// as it may start a CRLF.
func (d *Decoder) checkLine(line []byte, from int, complete bool) *Error {
	if i := bytes.IndexByte(line[from:], 0); i >= 0 {
		d.line = d.json.next
		return d.binaryErr(d.line, d.offset+int64(from+i))
	}
	content := line
	if complete {
		content = bytes.TrimSuffix(content, []byte("\n"))
	}
	content = bytes.TrimSuffix(content, []byte("\r"))
	if len(content) > d.maxBytes {
		d.line = d.json.next
		return d.tooLongErr(d.line)
	}
	return nil
}

// nextJSON reads the next non-blank line's event. A first line that is no
// JSON object, of a trace named as JSON Lines that starts like CSV, is an
// error that says so, as a CSV trace's that starts like JSON Lines is.
func (d *Decoder) nextJSON() (arrival, error) {
	obj, err := d.nextObject()
	if e, ok := err.(*Error); ok && d.looksCSV && d.seq == 0 {
		e.Want += "; the input looks like CSV, which -input csv reads"
	}
	if err != nil {
		return arrival{}, err
	}
	return d.objectArrival(obj)
}

// objectArrival reads the event of obj, a valid JSON object, and its
// arrival.
func (d *Decoder) objectArrival(obj []byte) (arrival, error) {
	if err := d.findFields(obj); err != nil {
		return arrival{}, err
	}
	a := arrival{line: d.line}
	e := &a.e
	var err error
	if e.Key, e.Line, err = d.jsonKeyLine(); err != nil {
		return a, err
	}
	if e.Step, err = d.jsonStep(); err != nil {
		return a, err
	}
	s := d.json
	switch {
	case d.draw != nil:
		if !d.drawLast {
			if e.Duration, err = d.drawn(); err != nil {
				return a, err
			}
		}
	case s.dur == nil:
		return a, d.lineErr(fmt.Sprintf("want a field %q", d.cols.Duration))
	default:
		if e.Duration, err = d.jsonRounds(d.cols.Duration, s.dur); err != nil {
			return a, err
		}
	}
	if e.Partition, err = d.jsonPartition(); err != nil {
		return a, err
	}
	a.ticks, a.text, err = d.jsonArrival()
	return a, err
}

// jsonArrival reads the record's arrival, its ticks (see readAt) and its
// text, when the trace has them: the first record tells whether it does,
// and every record after it must then have one, or none, as for
// partitions.
func (d *Decoder) jsonArrival() (int64, string, error) {
	s := d.json
	if s.hasAt == 0 {
		s.hasAt = -1
		if s.at != nil {
			s.hasAt = 1
		}
	}
	switch {
	case s.at != nil && s.hasAt < 0:
		return 0, "", d.fieldErr(d.cols.At, display(s.at), "want no arrival field, as the first record has none: a trace records every event's arrival, or none")
	case s.at != nil:
		return d.jsonAt(s.at)
	case d.atNeeded() != "":
		return 0, "", d.lineErr(fmt.Sprintf("want a field %q, the arrival, %s", d.cols.At, d.atNeeded()))
	case s.hasAt > 0:
		return 0, "", d.lineErr(fmt.Sprintf("want a field %q, the arrival, as the first record has: a trace records every event's arrival, or none", d.cols.At))
	}
	return 0, "", nil
}

// jsonAt reads an arrival: its ticks (see readAt) and its text.
func (d *Decoder) jsonAt(raw []byte) (int64, string, error) {
	bad := func(value, want string) *Error {
		return d.fieldErr(d.cols.At, value, orNone(want, value, "arrival", "at", d.atNamed()))
	}
	var v string
	switch {
	case raw[0] == '"':
		if d.opt.Resolution == 0 {
			return 0, "", bad(display(raw), wantWhole+", as a JSON number, not a string")
		}
		if d.opt.AtFormat.unix() { // a number, as a step is
			return 0, "", bad(display(raw), d.wantTime()+", as a JSON number, not a string")
		}
		var ok bool
		if v, ok = d.jsonText(raw); !ok {
			return 0, "", bad(display(raw), wantText(raw))
		}
	case raw[0] == '-' || raw[0] >= '0' && raw[0] <= '9':
		v = string(raw)
	default:
		return 0, "", bad(display(raw), "want a number, not "+kind(raw))
	}
	ticks, want := d.readAt(v)
	if want != "" {
		return 0, v, bad(v, want)
	}
	return ticks, v, nil
}

// jsonPartition reads the recorded partition, when the trace has them:
// the first record tells whether it does, and every record after it must
// then have one, or none.
func (d *Decoder) jsonPartition() (int, error) {
	s := d.json
	if s.hasPart == 0 {
		s.hasPart = -1
		if s.part != nil {
			s.hasPart = 1
		}
	}
	switch {
	case s.hasPart < 0 && s.part != nil:
		return 0, d.fieldErr(d.cols.Partition, display(s.part), "want no partition field, as the first record has none: a trace records every event's partition, or none")
	case s.hasPart < 0:
		return 0, nil
	case s.part == nil:
		return 0, d.lineErr(fmt.Sprintf("want a field %q, as the first record has", d.cols.Partition))
	}
	text, ok := d.jsonText(s.part)
	n, ok2 := parsePartition(text)
	if !ok || !ok2 || s.part[0] == '"' {
		return 0, d.fieldErr(d.cols.Partition, display(s.part), orNone(wantPartition+", as a JSON number", string(s.part), "partition", "partition", d.opt.Columns.Partition != ""))
	}
	return n, nil
}

// nextObject returns the JSON object on the next non-blank line, trimmed of
// white space. Its validity check costs nothing per value: json.Valid walks
// the line without allocating, and refuses nesting deeper than maxJSONDepth.
func (d *Decoder) nextObject() ([]byte, error) {
	var line []byte
	for {
		l, err := d.readLine()
		if err != nil {
			return nil, err
		}
		if len(bytes.TrimSpace(l)) > 0 {
			line = l
			break
		}
	}
	d.line = d.json.next
	return d.object(line, "want a JSON object on each line")
}

// object returns b trimmed when it is one JSON object, or the error, for
// the current line, that want (such as "want a JSON object") begins.
func (d *Decoder) object(b []byte, want string) ([]byte, error) {
	if !json.Valid(b) {
		return nil, d.lineErr(want + ": " + syntaxProblem(b, ""))
	}
	obj := bytes.TrimSpace(b)
	if obj[0] != '{' {
		return nil, d.lineErr(want + ", not " + kind(obj))
	}
	return obj, nil
}

// findFields sets the raw values of the wanted fields of obj, a valid JSON
// object, and nil for those it lacks. One field may serve as two, such as
// the key as the line. A wanted field named twice in obj is an error, as a
// wanted column named twice in a CSV header is; other fields may repeat. A
// wanted name with dots that no field has is a path (see [Columns]), which
// a record must have, once at each step.
func (d *Decoder) findFields(obj []byte) error {
	s := d.json
	for _, w := range s.wanted {
		*w.raw = nil
	}
	var twice uint8 // by wanted field, in Columns' order: named twice
	fields(obj, func(name, value []byte) {
		name, ok := memberName(name)
		if !ok {
			return
		}
		for f, w := range s.wanted {
			if string(name) == w.name && w.name != "" { // "": no field, see withDefaults
				if *w.raw != nil {
					twice |= 1 << f
				}
				*w.raw = value
			}
		}
	})
	if err := d.findAbsent(obj); err != nil {
		return err
	}
	for f, w := range s.wanted { // once the step is known, at a path too: it decides whether the status is read
		if twice&(1<<f) != 0 && d.reads(f, s.step != nil) {
			return d.lineErr(fmt.Sprintf("want each field once; the record names %q twice", w.name))
		}
	}
	return nil
}

// findAbsent looks for the wanted fields obj lacks: a name with dots as a
// path into obj, followed only for a column the decoder reads (the status
// last, once the step is known), and a name given in Columns is an error.
func (d *Decoder) findAbsent(obj []byte) error {
	for _, last := range []bool{false, true} {
		for f, w := range d.json.wanted {
			if (f == statusField) != last {
				continue
			}
			switch {
			case *w.raw != nil:
			case w.path && !d.reads(f, d.json.step != nil):
			case w.path:
				v, err := d.pathValue(obj, w.name)
				if err != nil {
					return err
				}
				*w.raw = v
			case w.flag != "":
				return d.lineErr(fmt.Sprintf("want a field %q, as %s names it", w.name, w.flag))
			}
		}
	}
	return nil
}

// memberName returns the text of a member's name, a JSON string with its
// quotes, and false when it cannot be decoded.
func memberName(name []byte) ([]byte, bool) {
	name = name[1 : len(name)-1]
	if bytes.IndexByte(name, '\\') >= 0 {
		var n string
		if json.Unmarshal(append(append([]byte{'"'}, name...), '"'), &n) != nil {
			return nil, false
		}
		name = []byte(n)
	}
	return name, true
}

// pathValue returns the raw value at path, a name with dots, in obj, a
// valid JSON object: each part names a member of the object the parts
// before it lead to, where a string that holds a JSON object counts as
// that object. Nesting in strings is bounded by the path's length, and in
// objects by json.Valid's depth limit. It scans obj once, however long the
// path: an object on the path is read as its parent's scan reaches it
// (see pathWalk), where reading each from its start made a path of 2,000
// parts take 24 s on a 15 MB line.
//
// The strings within strings it decodes on the way take at most twice
// Reader.MaxRecordBytes in all, as written with their escapes, a path past
// that an error, so that a line of strings nested in strings holds memory
// and time within a few times its length; and a value found inside one is
// copied out, so that it holds none of them once found.
func (d *Decoder) pathValue(obj []byte, path string) ([]byte, error) {
	w := pathWalk{d: d, path: path, parts: strings.Split(path, ".")}
	v, _, err := w.member(obj, 0)
	if w.decoded > 0 {
		v = bytes.Clone(v)
	}
	return v, err
}

// pathWalk is pathValue's walk of a path, split into its parts.
type pathWalk struct {
	d       *Decoder
	path    string
	parts   []string
	decoded int // the bytes of escaped strings decoded so far
}

// at returns the path's first n parts, joined: where the walk is.
func (w *pathWalk) at(n int) string { return strings.Join(w.parts[:n], ".") }

// member looks in obj, a valid JSON object, for the member named by part
// i, and returns the value the rest of the path leads to from it, and the
// index just past obj. Its own errors, a part missing or named twice,
// come before those further along the path, which it finds as its scan
// reaches the member: the scan goes on past it, to the object's end.
func (w *pathWalk) member(obj []byte, i int) (found []byte, end int, err error) {
	n, k := 0, 1
	var further error
	for {
		if k = skipSpace(obj, k); k >= len(obj) || obj[k] != '"' {
			break
		}
		e := skipString(obj, k)
		if e < 0 {
			break
		}
		name := obj[k:e]
		k = skipSpace(obj, skipSpace(obj, e)+1) // past the colon
		vend := -1
		if m, ok := memberName(name); ok && string(m) == w.parts[i] {
			if n++; n == 1 {
				found, vend, further = w.value(obj, k, i)
			}
		}
		if vend < 0 {
			vend = skipValue(obj, k)
		}
		if vend < 0 {
			break
		}
		if k = skipSpace(obj, vend); k >= len(obj) || obj[k] != ',' {
			break
		}
		k++
	}
	end = k + 1 // past the closing brace
	switch {
	case n == 0:
		return nil, end, w.d.lineErr(fmt.Sprintf("want a field at the path %q; %s has no %q", w.path, w.where(i), w.parts[i]))
	case n > 1:
		return nil, end, w.d.lineErr(fmt.Sprintf("want each field once; at the path %q, %s names %q twice", w.path, w.where(i), w.parts[i]))
	}
	return found, end, further
}

// where names the object of part i, for an error: the record, or the path
// to it, quoted.
func (w *pathWalk) where(i int) string {
	if i == 0 {
		return "the record"
	}
	return strconv.Quote(w.at(i))
}

// value returns what the path leads to from the value of its part i, at
// obj[k], and the index just past that value: the value itself at the
// path's last part, or the member of part i+1 in it, an object or a
// string that holds one.
func (w *pathWalk) value(obj []byte, k, i int) ([]byte, int, error) {
	if i == len(w.parts)-1 {
		e := skipValue(obj, k)
		return obj[k:e], e, nil
	}
	switch obj[k] {
	case '{':
		v, e, err := w.member(obj[k:], i+1)
		return v, k + e, err
	case '"':
		e := skipString(obj, k)
		inner, err := w.inString(obj[k:e], i+1)
		if err != nil {
			return nil, e, err
		}
		v, _, err := w.member(inner, i+1)
		return v, e, err
	}
	e := skipValue(obj, k)
	return nil, e, w.d.fieldErr(w.path, display(obj[k:e]), fmt.Sprintf("want an object at %q; it is %s", w.at(i+1), kind(obj[k:e])))
}

// inString returns the JSON object that str, a JSON string at the path's
// first n parts, holds.
func (w *pathWalk) inString(str []byte, n int) ([]byte, error) {
	raw, ok := plainString(str) // a string without escapes is its own text
	if !ok {
		if w.decoded += len(str); w.decoded > 2*w.d.maxBytes {
			return nil, w.d.fieldErr(w.path, display(str), fmt.Sprintf("want strings within strings, on the way to %q, of at most %d bytes in all, twice the longest record; they pass it", w.at(n), 2*w.d.maxBytes))
		}
		raw, ok = unquoteBytes(str[1 : len(str)-1])
	}
	inner := bytes.TrimSpace(raw)
	if !ok || len(inner) == 0 || inner[0] != '{' {
		return nil, w.d.fieldErr(w.path, display(str), fmt.Sprintf("want an object at %q, or a string that holds one; it is a string that does not", w.at(n)))
	}
	if !json.Valid(inner) {
		return nil, w.d.fieldErr(w.path, display(str), fmt.Sprintf("want an object at %q, or a string that holds one; it is a string that holds invalid JSON: %s", w.at(n), syntaxProblem(raw, " of its text")))
	}
	return inner, nil
}

// jsonKeyLine reads the key, which must be there, and the line, if any.
func (d *Decoder) jsonKeyLine() (key, line string, err error) {
	s := d.json
	if s.key == nil {
		return "", "", d.lineErr(fmt.Sprintf("want a field %q", d.cols.Key))
	}
	key, ok := d.jsonText(s.key)
	if !ok {
		return "", "", d.fieldErr(d.cols.Key, display(s.key), wantText(s.key))
	}
	if key == "" {
		return "", "", d.fieldErr(d.cols.Key, key, "want a non-empty key")
	}
	if key, err = d.nameValue(d.cols.Key, key, &d.lastKey); err != nil {
		return "", "", err
	}
	if s.line != nil {
		if line, ok = d.jsonText(s.line); !ok {
			return key, "", d.fieldErr(d.cols.Line, display(s.line), wantText(s.line))
		}
		if line, err = d.nameValue(d.cols.Line, line, &d.lastLine); err != nil {
			return "", "", err
		}
	}
	return key, line, nil
}

// wantText is the complaint about a key or line, raw, that jsonText does
// not read. For a string it names the lone surrogate escape as written: the
// value the error shows, decoded, holds U+FFFD there, which the file does
// not. (In a string held by a string, as a path into one reads, it is
// written as the outer string's decoded text has it, one escape level in.)
func wantText(raw []byte) string {
	if raw[0] == '"' {
		return "want text that reads as written, which a lone surrogate escape (\\ud800 to \\udfff without its pair) is not: it holds " + loneEscape(raw[1:len(raw)-1])
	}
	return "want a string"
}

// loneEscape returns, as written, the first lone surrogate escape in
// inner, the text of a JSON string between its quotes, which unquote
// refuses: the first \u escape that escapedRune does not read.
func loneEscape(inner []byte) string {
	for i := 0; i+1 < len(inner); i++ {
		if inner[i] != '\\' {
			continue
		}
		if i++; inner[i] != 'u' {
			continue // a one-letter escape
		}
		_, n := escapedRune(inner[i:])
		if n == 0 {
			return string(inner[i-1 : min(i+5, len(inner))])
		}
		i += n - 1
	}
	return ""
}

// jsonStep reads the step, or, without one, maps the status to a step.
func (d *Decoder) jsonStep() (int, error) {
	s := d.json
	switch {
	case s.step != nil:
		n, ok := parseWhole(string(s.step))
		if !ok {
			want := stepFits(string(s.step))
			if s.step[0] == '"' {
				want += ", as a JSON number, not a string"
			}
			return 0, d.fieldErr(d.cols.Step, display(s.step), d.stepWant(want, string(s.step)))
		}
		return n, nil
	case s.status != nil:
		d.statused++
		if inner, ok := plainString(s.status); ok {
			if n, ok := d.statuses[string(inner)]; ok { // no allocation
				return n, nil
			}
		}
		st, ok := d.jsonText(s.status)
		if !ok {
			return 0, d.fieldErr(d.cols.Status, display(s.status), wantText(s.status))
		}
		n, ok := d.statuses[st]
		if !ok {
			return 0, d.fieldErr(d.cols.Status, st, d.unknownStatus())
		}
		return n, nil
	}
	return 0, d.lineErr("want " + d.stepColumns(true))
}

// jsonRounds reads a duration or arrival: a JSON number of whole rounds, or,
// with a Resolution, a string (or 0) with units.
func (d *Decoder) jsonRounds(field string, raw []byte) (int, error) {
	var v string
	switch {
	case raw[0] == '"':
		if d.opt.Resolution == 0 {
			return 0, d.fieldErr(field, display(raw), wantWhole+", as a JSON number, not a string")
		}
		var ok bool
		if v, ok = d.jsonText(raw); !ok {
			return 0, d.fieldErr(field, display(raw), wantText(raw))
		}
	case raw[0] == '-' || raw[0] >= '0' && raw[0] <= '9':
		v = string(raw)
	default:
		return 0, d.fieldErr(field, display(raw), "want a number, not "+kind(raw))
	}
	n, want := d.rounds(v)
	if want != "" {
		return 0, d.fieldErr(field, v, want)
	}
	return n, nil
}

// jsonText returns a JSON string's text, or a number's literal as text.
func (d *Decoder) jsonText(raw []byte) (string, bool) {
	switch {
	case raw[0] == '"':
		if inner, ok := plainString(raw); ok {
			return string(inner), true
		}
		return unquote(raw[1 : len(raw)-1])
	case raw[0] == '-' || raw[0] >= '0' && raw[0] <= '9':
		return string(raw), true
	}
	return "", false
}

// unquote decodes the text inner of a JSON string, between its quotes,
// keeping bytes that are not UTF-8 as they are (encoding/json would read
// each as U+FFFD, and two texts that differ in them as one), and reports
// false for a lone surrogate escape (\ud800 without its pair), which UTF-8
// cannot hold, or an escape JSON has not.
func unquote(inner []byte) (string, bool) {
	b, ok := unquoteBytes(inner)
	return string(b), ok
}

// unquoteBytes is unquote's text as bytes, in a slice of its own.
func unquoteBytes(inner []byte) ([]byte, bool) {
	b := make([]byte, 0, len(inner))
	for i := 0; i < len(inner); i++ {
		if inner[i] != '\\' {
			b = append(b, inner[i])
			continue
		}
		if i++; i == len(inner) {
			return nil, false
		}
		if e := strings.IndexByte("\"\\/bfnrt", inner[i]); e >= 0 {
			b = append(b, "\"\\/\b\f\n\r\t"[e])
			continue
		}
		r, n := escapedRune(inner[i:])
		if n == 0 {
			return nil, false
		}
		b = utf8.AppendRune(b, r)
		i += n - 1
	}
	return b, true
}

// escapedRune reads the rune of a \u escape at the start of s, which
// begins with its u, and how many bytes it took (a surrogate pair takes
// both escapes); 0 bytes for a malformed escape or a lone surrogate.
func escapedRune(s []byte) (rune, int) {
	hex := func(s []byte) (rune, bool) {
		if len(s) < 5 || s[0] != 'u' {
			return 0, false
		}
		v, err := strconv.ParseUint(string(s[1:5]), 16, 16)
		return rune(v), err == nil
	}
	r, ok := hex(s)
	switch {
	case !ok || utf16.IsSurrogate(r) && r >= 0xdc00:
		return 0, 0
	case !utf16.IsSurrogate(r):
		return r, 5
	}
	if len(s) < 6 || s[5] != '\\' {
		return 0, 0
	}
	lo, ok := hex(s[6:])
	if !ok || lo < 0xdc00 || lo > 0xdfff {
		return 0, 0
	}
	return utf16.DecodeRune(r, lo), 11
}

// plainString returns the text of a JSON string that needs no decoding: one
// without escapes, its bytes as they are, valid UTF-8 or not, as CSV reads
// them (decoding would read each invalid byte as U+FFFD, and two keys that
// differ in them as one).
func plainString(raw []byte) ([]byte, bool) {
	if raw[0] != '"' {
		return nil, false
	}
	inner := raw[1 : len(raw)-1]
	return inner, bytes.IndexByte(inner, '\\') < 0
}

// display is a raw value as an error message shows it: a string's text, any
// other value's JSON.
func display(raw []byte) string {
	if raw[0] == '"' {
		var s string
		if json.Unmarshal(raw, &s) == nil {
			return s
		}
	}
	return string(raw)
}

// kind names the type of a JSON value.
func kind(raw []byte) string {
	switch raw[0] {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

// maxJSONDepth is the deepest nesting of objects and arrays that
// encoding/json reads, and so json.Valid takes.
const maxJSONDepth = 10000

// syntaxProblem describes why line is not valid JSON, and the column, the
// byte counted from 1, where that shows; of, such as " of its text", says
// what the column counts in when line is a string's text, not the line.
// Nesting deeper than maxJSONDepth is named as such, not as the invalid
// character encoding/json calls the bracket past the limit, and a
// byte-order mark as one, not as the character 'ï'.
func syntaxProblem(line []byte, of string) string {
	if t := bytes.TrimLeft(line, " \t"); bytes.HasPrefix(t, []byte("\uFEFF")) {
		return fmt.Sprintf("a byte-order mark (EF BB BF) at column %d%s, which only the trace's first line may start with", len(line)-len(t)+1, of)
	}
	var v json.RawMessage
	err := json.Unmarshal(line, &v)
	var se *json.SyntaxError
	if errors.As(err, &se) {
		if strings.HasSuffix(se.Error(), "exceeded max depth") {
			return fmt.Sprintf("nested deeper than %d levels of objects and arrays, the most encoding/json reads (column %d%s)", maxJSONDepth, se.Offset, of)
		}
		return fmt.Sprintf("%v (column %d%s)", se, se.Offset, of)
	}
	if err != nil {
		return err.Error()
	}
	return "invalid JSON"
}

// fields calls fn with each member's name (a JSON string, quotes included)
// and raw value of the JSON object obj, in order. obj must be valid JSON and
// start with '{'; fields stops at anything it does not expect.
func fields(obj []byte, fn func(name, value []byte)) {
	i := 1
	for {
		i = skipSpace(obj, i)
		if i >= len(obj) || obj[i] != '"' {
			return
		}
		end := skipString(obj, i)
		if end < 0 {
			return
		}
		name := obj[i:end]
		i = skipSpace(obj, end)
		if i >= len(obj) || obj[i] != ':' {
			return
		}
		i = skipSpace(obj, i+1)
		end = skipValue(obj, i)
		if end < 0 {
			return
		}
		fn(name, obj[i:end])
		i = skipSpace(obj, end)
		if i >= len(obj) || obj[i] != ',' {
			return
		}
		i++
	}
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n') {
		i++
	}
	return i
}

// skipString returns the index just past the string starting at b[i], or -1.
func skipString(b []byte, i int) int {
	for j := i + 1; j < len(b); j++ {
		switch b[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return -1
}

// skipValue returns the index just past the value starting at b[i], or -1.
func skipValue(b []byte, i int) int {
	if i >= len(b) {
		return -1
	}
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(b); j++ {
			switch b[j] {
			case '"':
				end := skipString(b, j)
				if end < 0 {
					return -1
				}
				j = end - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return j + 1
				}
			}
		}
		return -1
	}
	j := i
	for j < len(b) {
		switch b[j] {
		case ',', '}', ']', ' ', '\t', '\r', '\n':
			return j
		}
		j++
	}
	return j
}
