package eventlog

import (
	"errors"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Error is a problem with a trace's content or with reading it: a malformed
// row or line, a missing column or field, or a value that is not what its
// field needs.
//
// Its message has the form
//
//	FILE:LINE: field "duration": value "x": want a whole number of rounds ≥ 0
//
// where the field and value part appears only for a problem with one value,
// and LINE only when the problem has a line.
type Error struct {
	// File is the trace's name as given to the Reader ("<stdin>" for
	// standard input).
	File string
	// Line is the 1-based line where the record starts, or 0 when the
	// problem concerns no line.
	Line int
	// Column is, in a CSV trace, the 1-based number of the field at fault,
	// counted across the row as the header's columns are: for a bad value,
	// the column that Field names; for a malformed row (encoding/csv's
	// ParseError), the field in which parsing failed. It is 0 for a problem
	// with a whole row, such as a wrong number of fields, and in a JSON Lines
	// trace. It is not ParseError.Column, a byte offset within a physical
	// line, which a malformed row's message gives instead, and it does not
	// appear in the message, where Field already names the column.
	Column int
	// Field is the column or JSON field name as written in the trace, or ""
	// when the problem concerns the whole row or line.
	Field string
	// Value is the offending value as read; it is shown only with Field.
	Value string
	// Want says what was expected, starting with "want", or describes the
	// problem.
	Want string
	// Err is the underlying error, such as a read error, or nil.
	Err error

	windowFull bool // the Reorder window outgrew Reader.MaxReorderBytes: see WindowFull
}

// WindowFull tells whether err is, or wraps, the [*Error] of a Reorder
// window that outgrew [Reader.MaxReorderBytes], for a program that sets
// that bound from a setting of its own, to name it.
func WindowFull(err error) bool {
	var e *Error
	return errors.As(err, &e) && e.windowFull
}

// maxShownValue is the longest value an error message quotes whole.
const maxShownValue = 80

// Error returns the message described on [Error].
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		b.WriteString(":")
		b.WriteString(strconv.Itoa(e.Line))
	}
	b.WriteString(": ")
	if e.Field != "" {
		b.WriteString("field ")
		b.WriteString(strconv.Quote(e.Field))
		b.WriteString(": value ")
		b.WriteString(strconv.Quote(shorten(e.Value)))
		b.WriteString(": ")
	}
	b.WriteString(e.Want)
	if e.Err != nil {
		if e.Want != "" {
			b.WriteString(": ")
		}
		b.WriteString(e.Err.Error())
	}
	return b.String()
}

// Unwrap returns the underlying error, if any.
func (e *Error) Unwrap() error { return e.Err }

// shorten cuts a long value for an error message, on a rune boundary: a
// cut inside a rune moves back to its start, at most utf8.UTFMax-1 bytes,
// so that a value that is not UTF-8 keeps its first bytes, quoted as
// escapes, rather than reading as "…" alone.
func shorten(s string) string {
	if len(s) <= maxShownValue {
		return s
	}
	cut := maxShownValue
	for i := 0; i < utf8.UTFMax-1 && !utf8.RuneStart(s[cut]); i++ {
		cut--
	}
	return s[:cut] + "…"
}
