package eventlog

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
)

// A csvLimiter stands between a CSV trace and the csv.Reader that parses it,
// and keeps that parser's memory bounded. encoding/csv buffers a whole record
// before it parses it, and spends some 40 bytes on each of its fields, so a
// record is refused before the parser gets the byte that breaks a limit: a
// record longer than [Reader.MaxRecordBytes], a header of more than
// [MaxColumns] columns, a row with more fields than its header, or a NUL
// byte. To know where records and fields end, the limiter tracks quoting as
// the bytes stream past, as encoding/csv reads them (RFC 4180, with LF or
// CRLF line ends and without lazy quotes); where a record is malformed the
// parser reports it before the limiter's view can matter.
//
// Once the limiter has stopped, every Read returns errLimit, and fail says
// why; the parser then returns errLimit, or an error of its own from the part
// of the record it was given.
type csvLimiter struct {
	src *bufio.Reader
	max int // the longest record, as Reader.MaxRecordBytes counts it

	offset  int64     // of the next byte, from the input's first
	line    int       // of the next byte
	recLine int       // where the current record starts
	recLen  int       // the current record's bytes so far
	fields  int       // the current record's fields so far
	state   scanState // where the next byte falls in the current record
	crAt    int       // the count of bytes at the record's last '\r', or 0
	pending bool      // the record has max bytes and a '\r' after them, which must end it
	header  int       // the header's fields, once the header has ended; 0 before

	counting bool          // reading past an extra field to count the record's fields
	fail     *limitFailure // why the limiter stopped, or nil
	err      error         // the error src gave, which every later Read returns
}

// scanState is where a byte falls in a CSV record.
type scanState uint8

const (
	fieldStart scanState = iota // at the start of a field
	unquoted                    // in a field that does not start with a quote
	quoted                      // in a quoted field
	quoteSeen                   // just past a quote in a quoted field: its end, or the first of two
)

// errLimit is the error a csvLimiter gives once it has stopped.
var errLimit = errors.New("eventlog: a CSV record broke a limit")

// failKind is why a csvLimiter stopped.
type failKind uint8

const (
	tooLong       failKind = iota // a record longer than the limit
	tooManyFields                 // a header or row with too many fields
	binary                        // a NUL byte
	readFailed                    // the source failed while the fields were counted
)

// limitFailure is why a csvLimiter stopped, and where.
type limitFailure struct {
	kind   failKind
	line   int   // where the record starts
	offset int64 // binary: the NUL byte's offset
	header bool  // tooManyFields: the record is the header
	fields int   // tooManyFields: the record's fields, counted to its end
	want   int   // tooManyFields: the most fields it may have
	err    error // readFailed: the source's error
}

// newCSVLimiter returns a limiter of records of at most max bytes, reading
// from src, whose next byte is at offset on line 1.
func newCSVLimiter(src *bufio.Reader, max int, offset int64) *csvLimiter {
	return &csvLimiter{src: src, max: max, offset: offset, line: 1, recLine: 1, fields: 1}
}

// Read hands the parser the next bytes of the trace, up to the first that
// breaks a limit.
func (l *csvLimiter) Read(p []byte) (int, error) {
	switch {
	case l.fail != nil:
		return 0, errLimit
	case l.err != nil:
		return 0, l.err
	case len(p) == 0:
		return 0, nil
	}
	if _, err := l.src.Peek(1); err != nil {
		l.err = err
		return 0, err
	}
	b, _ := l.src.Peek(min(len(p), l.src.Buffered()))
	n := l.scan(b)
	copy(p, b[:n])
	l.src.Discard(n)
	if l.counting {
		l.countRest()
	}
	if n == 0 && l.fail != nil {
		return 0, errLimit
	}
	return n, nil
}

// countRest reads the rest of a record with too many fields, without handing
// it on, to count its fields, or to find that it is too long or binary.
func (l *csvLimiter) countRest() {
	for l.counting {
		if _, err := l.src.Peek(1); err != nil {
			l.counting = false
			if err == io.EOF {
				l.fail.fields = l.fields
			} else {
				l.fail = &limitFailure{kind: readFailed, line: l.fail.line, err: err}
			}
			return
		}
		b, _ := l.src.Peek(l.src.Buffered())
		l.src.Discard(l.scan(b))
	}
}

// scan advances over b, the next bytes of the trace, and returns how many of
// them the parser may have: all, or those before the first that breaks a
// limit, which then sets fail. While counting, it stops just past the end of
// the record.
func (l *csvLimiter) scan(b []byte) int {
	i := 0
	for i < len(b) {
		if l.state == fieldStart && l.recLen == 0 && !l.counting {
			n := l.plainLines(b[i:])
			l.offset += int64(n)
			if i += n; i == len(b) {
				break
			}
		}
		n, more := l.scanRecord(b[i:])
		l.offset += int64(n)
		i += n
		if !more {
			break
		}
	}
	return i
}

// special marks the bytes the limiter must look at; any other byte within a
// record's first max bytes just goes on with the field it is in.
var special = [256]bool{0: true, '\n': true, '\r': true, ',': true, '"': true}

// plainLines passes over the whole lines at the start of b, a record's start,
// that hold no quote, so that each is a record, and that cannot break a limit:
// a NUL byte is not among them, and all of them together are no longer than
// a record may be and have no more than MaxColumns bytes, so that no record
// can have more fields than a header may. It returns how many bytes it passed
// over; a row with more or fewer fields than its header is left to the
// parser. This is the common case, done with a few passes of the bytes
// package's fast search over the lot.
func (l *csvLimiter) plainLines(b []byte) int {
	if q := bytes.IndexByte(b, '"'); q >= 0 {
		b = b[:q]
	}
	end := bytes.LastIndexByte(b, '\n') + 1
	b = b[:end]
	if end == 0 || end > MaxColumns || end-1 > l.max || bytes.IndexByte(b, 0) >= 0 {
		return 0
	}
	for rest := b; l.header == 0 && len(rest) > 0; {
		j := bytes.IndexByte(rest, '\n')
		if line := rest[:j]; len(line) > 0 && string(line) != "\r" {
			l.header = bytes.Count(line, []byte{','}) + 1
		}
		rest = rest[j+1:]
	}
	l.line += bytes.Count(b, []byte{'\n'})
	l.recLine = l.line
	return end
}

// scanRecord passes over the bytes of b, the first at l.offset, up to the
// end of the current record, and returns how many the parser may have, and
// whether it may have more: false when it stopped on a byte that breaks a
// limit, or, while counting, at the end of the record. It keeps the record's
// state in local variables, as most bytes are in a field's text.
func (l *csvLimiter) scanRecord(b []byte) (int, bool) {
	state, recLen, max := l.state, l.recLen, l.max
	for i := 0; i < len(b); i++ {
		c := b[i]
		if !special[c] && recLen < max {
			recLen++
			if state != quoted {
				state = unquoted
			}
			continue
		}
		l.state, l.recLen = state, recLen
		switch l.look(c, i) {
		case stopBefore:
			return i, false
		case stopAfter:
			return i + 1, false
		case recordEnd:
			return i + 1, true
		}
		state, recLen = l.state, l.recLen
	}
	l.state, l.recLen = state, recLen
	return len(b), true
}

// What scanRecord does after a byte that look has seen.
const (
	goOn       = iota // go on to the next byte
	recordEnd         // the byte ended a record
	stopBefore        // stop before the byte, which the parser must not have
	stopAfter         // stop after it: it ended a record whose fields were counted
)

// look takes c, a byte that is special or past the record's max bytes, at b[i].
func (l *csvLimiter) look(c byte, i int) int {
	switch {
	case c == 0:
		l.stop(&limitFailure{kind: binary, offset: l.offset + int64(i)})
		return stopBefore
	case c == '\n' && l.state != quoted:
		counted := l.counting
		l.endRecord()
		if counted {
			return stopAfter
		}
		return recordEnd
	case l.pending || l.recLen >= l.max:
		// Only a line end may follow the record's last allowed byte.
		if l.pending || c != '\r' || l.state == quoted {
			l.stop(&limitFailure{kind: tooLong})
			return stopBefore
		}
		l.pending, l.state = true, unquoted
		return goOn
	case c == ',' && l.state != quoted && !l.counting && l.fields >= l.maxFields():
		l.stop(&limitFailure{kind: tooManyFields, header: l.header == 0, want: l.maxFields()})
		l.counting = true
		return stopBefore
	}
	l.recLen++
	if c == '\r' {
		l.crAt = l.recLen
	}
	l.step(c)
	return goOn
}

// step moves the quoting state past c, a special byte within a record.
func (l *csvLimiter) step(c byte) {
	switch l.state {
	case fieldStart, quoteSeen:
		// A quote opens a quoted field, or, after a quote, stands for one.
		// Anything else starts an unquoted field, or, after a closing
		// quote, is a parse error.
		switch c {
		case '"':
			l.state = quoted
		case ',':
			l.fields++
			l.state = fieldStart
		default:
			l.state = unquoted
		}
	case unquoted:
		if c == ',' {
			l.fields++
			l.state = fieldStart
		}
	case quoted:
		switch c {
		case '"':
			l.state = quoteSeen
		case '\n':
			l.line++
		}
	}
}

// maxFields is the most fields the current record may have.
func (l *csvLimiter) maxFields() int {
	if l.header == 0 {
		return MaxColumns
	}
	return l.header
}

// endRecord ends the current record at a line end. The header is the first
// record that is not blank (a blank line holds at most a '\r'), as
// encoding/csv skips blank lines.
func (l *csvLimiter) endRecord() {
	if l.header == 0 && l.recLen > 0 && !(l.recLen == 1 && l.crAt == 1) {
		l.header = l.fields
	}
	if l.counting {
		l.counting = false
		l.fail.fields = l.fields
	}
	l.line++
	l.recLine = l.line
	l.recLen, l.fields, l.state, l.crAt, l.pending = 0, 1, fieldStart, 0, false
}

// stop records why the limiter stopped in the current record. A record that
// turns out too long or binary while its fields are counted is reported as
// such.
func (l *csvLimiter) stop(f *limitFailure) {
	f.line = l.recLine
	l.fail = f
	l.counting = false
}

// limitErr turns a limiter's failure into the *Error a decoder reports.
func (d *Decoder) limitErr(f *limitFailure) *Error {
	switch f.kind {
	case binary:
		return d.binaryErr(f.line, f.offset)
	case tooManyFields:
		if f.header {
			return &Error{File: d.name, Line: f.line, Want: fmt.Sprintf("want a header of at most %d columns (eventlog.MaxColumns); it has %d", f.want, f.fields)}
		}
		return &Error{File: d.name, Line: f.line, Want: fmt.Sprintf("want %d fields, as in the header; the row has %d", f.want, f.fields)}
	case readFailed:
		return d.readErr(f.line, f.err)
	}
	return d.tooLongErr(f.line)
}
