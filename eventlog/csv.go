package eventlog

import (
	"bufio"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/sirali-konvoy/konvoy"
)

// csvState is a CSV decoder's state: the csv.Reader and the columns found in
// the header, each an index or -1 when absent.
type csvState struct {
	r                                      *csv.Reader
	lim                                    *csvLimiter
	key, line, status, step, dur, at, part int
	header                                 []string
}

// startCSV reads and checks the header row.
func (d *Decoder) startCSV() error {
	lim := newCSVLimiter(d.br, d.maxBytes, d.offset)
	r := csv.NewReader(bufio.NewReaderSize(lim, bufferSize))
	r.ReuseRecord = true
	d.csv = &csvState{r: r, lim: lim, key: -1, line: -1, status: -1, step: -1, dur: -1, at: -1, part: -1}
	rec, err := r.Read()
	if err == io.EOF {
		d.line = 1
		return d.lineErr(fmt.Sprintf("want a header row naming the columns %s; the trace is empty", d.required()))
	}
	if err != nil {
		return d.csvErr(err, rec)
	}
	d.line, _ = r.FieldPos(0)
	s := d.csv
	s.header = make([]string, len(rec))
	for i, name := range rec {
		s.header[i] = strings.TrimSpace(name)
	}
	if err := d.findColumns(); err != nil {
		return err
	}
	missing := func(name, what string) error {
		return d.lineErr(fmt.Sprintf("want a column %q (%s) in the header; it has %s", name, what, columnList(s.header)))
	}
	switch {
	case s.key < 0:
		return missing(d.cols.Key, "the key of each event")
	case s.dur < 0 && d.draw == nil:
		return missing(d.cols.Duration, "the duration of each event")
	case s.at < 0 && d.atNeeded() != "":
		return missing(d.cols.At, "the arrival of each event, "+d.atNeeded())
	case s.step < 0 && s.status < 0:
		return d.lineErr(fmt.Sprintf("want %s in the header; it has %s", d.stepColumns(false), columnList(s.header)))
	}
	return nil
}

// stepColumns names the columns, or in JSON Lines (json) the fields, that
// may give each event its step, for an error: the step and status
// columns the decoder reads (see withDefaults), quoted, after "a column"
// or "a field".
func (d *Decoder) stepColumns(json bool) string {
	names := make([]string, 0, 2)
	for _, n := range []string{d.cols.Step, d.cols.Status} {
		if n != "" { // check refuses neither
			names = append(names, strconv.Quote(n))
		}
	}
	if json {
		return "a field " + strings.Join(names, " or ")
	}
	return "a column " + strings.Join(names, " or ")
}

// findColumns finds the wanted columns in the header: each there once at
// most, and those Columns names there.
func (d *Decoder) findColumns() error {
	s := d.csv
	var twice error
	for f, c := range []struct {
		name string
		idx  *int
	}{
		{d.cols.Key, &s.key}, {d.cols.Line, &s.line}, {d.cols.Status, &s.status},
		{d.cols.Step, &s.step}, {d.cols.Duration, &s.dur}, {d.cols.At, &s.at}, {d.cols.Partition, &s.part},
	} {
		for i, h := range s.header {
			if h != c.name || c.name == "" { // "": no column, see withDefaults
				continue
			}
			if *c.idx >= 0 {
				if twice == nil && d.reads(f, d.cols.Step != "" && slices.Contains(s.header, d.cols.Step)) {
					twice = d.lineErr(fmt.Sprintf("want each column once; the header names %q twice, as columns %d and %d", c.name, *c.idx+1, i+1))
				}
				continue
			}
			*c.idx = i
		}
	}
	if twice != nil {
		return twice
	}
	for _, n := range d.named {
		if !slices.Contains(s.header, n.name) {
			return d.lineErr(fmt.Sprintf("want a column %q, as %s names it, in the header; it has %s", n.name, n.flag, columnList(s.header)))
		}
	}
	return nil
}

// required names the columns a header must have.
func (d *Decoder) required() string {
	steps := d.cols.Status + " or " + d.cols.Step
	switch {
	case d.cols.Status == "":
		steps = d.cols.Step
	case d.cols.Step == "":
		steps = d.cols.Status
	}
	return fmt.Sprintf("%s, %s, and %s", d.cols.Key, steps, d.cols.Duration)
}

// maxListed is the most header columns an error message names.
const maxListed = 20

// columnList names the header's columns for an error message: each quoted
// and shortened, and at most maxListed of them, then how many more there are.
func columnList(header []string) string {
	var b strings.Builder
	for i, v := range header {
		if i == maxListed {
			fmt.Fprintf(&b, ", and %d more", len(header)-i)
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.Quote(shorten(v)))
	}
	return b.String()
}

// csvErr turns an error from the csv.Reader, which returned rec with it,
// into an *Error. When the limiter has stopped in the record the parser was
// reading, the limit it broke is the problem reported, whatever the parser
// made of the part it was given; a parse error in an earlier record comes
// first. With a parse error, rec holds the fields read before the one at
// fault, which gives the Error its Column.
func (d *Decoder) csvErr(err error, rec []string) error {
	var pe *csv.ParseError
	isParse := errors.As(err, &pe)
	if f := d.csv.lim.fail; f != nil && (!isParse || pe.StartLine >= f.line) {
		err := d.limitErr(f)
		d.line = err.Line
		return err
	}
	if !isParse {
		d.line = d.csv.lim.recLine
		return d.readErr(d.line, err)
	}
	d.line = pe.StartLine
	if errors.Is(pe.Err, csv.ErrFieldCount) {
		return d.lineErr(fmt.Sprintf("want %d fields, as in the header; the row has %d", len(d.csv.header), len(rec)))
	}
	where := fmt.Sprintf(" (line %d, column %d)", pe.Line, pe.Column)
	e := d.lineErr("want a well-formed CSV row: " + strings.TrimPrefix(pe.Err.Error(), "parse error: ") + where)
	e.Column = len(rec) + 1
	return e
}

// nextCSV reads the next row.
func (d *Decoder) nextCSV() (arrival, error) {
	s := d.csv
	rec, err := s.r.Read()
	if err == io.EOF {
		return arrival{}, io.EOF
	}
	if err != nil {
		return arrival{}, d.csvErr(err, rec)
	}
	e, err := d.csvEvent(rec)
	a := arrival{e: e, line: d.line}
	if err != nil || s.at < 0 {
		return a, err
	}
	a.text, a.column = strings.TrimSpace(rec[s.at]), s.at+1
	ticks, want := d.readAt(a.text)
	if want != "" {
		return a, d.csvFieldErr(s.at, rec[s.at], orNone(want, rec[s.at], "arrival", "at", d.atNamed()))
	}
	a.ticks = ticks
	return a, nil
}

// csvEvent reads the event of row rec, but for its arrival.
func (d *Decoder) csvEvent(rec []string) (konvoy.Event, error) {
	s := d.csv
	var err error
	d.line, _ = s.r.FieldPos(0)
	var e konvoy.Event
	key := rec[s.key]
	if key == "" {
		return e, d.csvFieldErr(s.key, key, "want a non-empty key")
	}
	if e.Key, err = d.nameValue(s.header[s.key], normalize(key), &d.lastKey); err != nil {
		return e, inColumn(err, s.key)
	}
	if s.line >= 0 {
		if e.Line, err = d.nameValue(s.header[s.line], normalize(rec[s.line]), &d.lastLine); err != nil {
			return e, inColumn(err, s.line)
		}
	}
	if s.step >= 0 {
		v := strings.TrimSpace(rec[s.step])
		n, ok := parseWhole(v)
		if !ok {
			return e, d.csvFieldErr(s.step, rec[s.step], d.stepWant(stepFits(v), v))
		}
		e.Step = n
	} else {
		st := normalize(rec[s.status])
		n, ok := d.statuses[st]
		if !ok {
			return e, d.csvFieldErr(s.status, st, d.unknownStatus())
		}
		e.Step = n
		d.statused++
	}
	if d.draw != nil {
		var err error
		if e.Duration, err = d.drawn(); err != nil {
			return e, err
		}
	} else {
		n, want := d.rounds(strings.TrimSpace(rec[s.dur]))
		if want != "" {
			return e, d.csvFieldErr(s.dur, rec[s.dur], want)
		}
		e.Duration = n
	}
	if s.part >= 0 {
		n, ok := parsePartition(strings.TrimSpace(rec[s.part]))
		if !ok {
			return e, d.csvFieldErr(s.part, rec[s.part], orNone(wantPartition, rec[s.part], "partition", "partition", d.opt.Columns.Partition != ""))
		}
		e.Partition = n
	}
	return e, nil
}

// normalize reads a CRLF inside a value as a newline, as CSV line ends are
// read, so that a value read from CSV can be written back and read again
// unchanged.
func normalize(s string) string {
	if strings.IndexByte(s, '\r') < 0 {
		return s
	}
	return strings.ReplaceAll(s, "\r\n", "\n")
}
