package eventlog

import (
	"cmp"
	"container/heap"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"
	"unsafe"

	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/internal/duration"
)

// TimeFormat is how a trace writes its arrivals, in the at column.
type TimeFormat int

// The arrival formats.
const (
	// Rounds is a round number: a whole number of rounds, or, with a
	// Resolution, a duration with units, such as "1.5s", counted from
	// round 0.
	Rounds TimeFormat = iota
	// RFC3339 is a timestamp such as "2024-05-01T12:00:00.250+02:00", with
	// any fraction of a second and a "Z" or numeric offset; "T" and "Z" may
	// be in lower case, as RFC 3339 allows. A leap second (second 60) is an
	// error: Go's clock counts none.
	RFC3339
	// UnixS, UnixMS, UnixUS and UnixNS are Unix times in seconds,
	// milliseconds, microseconds or nanoseconds, as kcat's "ts" (UnixMS):
	// a whole number, optionally negative, with a decimal fraction as long
	// as it stays within nanoseconds. In JSON Lines it is a JSON number, as
	// kcat writes "ts"; a JSON string is an error, as it is for a step.
	UnixS
	UnixMS
	UnixUS
	UnixNS
)

// timeFormats are the formats' names, by format.
var timeFormats = []string{"rounds", "rfc3339", "unix-s", "unix-ms", "unix-us", "unix-ns"}

// String returns the format's name: "rounds", "rfc3339", "unix-s",
// "unix-ms", "unix-us" or "unix-ns".
func (f TimeFormat) String() string {
	if f < 0 || int(f) >= len(timeFormats) {
		return fmt.Sprintf("TimeFormat(%d)", int(f))
	}
	return timeFormats[f]
}

// ParseTimeFormat returns the TimeFormat whose String is s.
func ParseTimeFormat(s string) (TimeFormat, error) {
	for i, name := range timeFormats {
		if name == s {
			return TimeFormat(i), nil
		}
	}
	return Rounds, fmt.Errorf("eventlog: time format %q; want %s", s, strings.Join(timeFormats, ", "))
}

// timestamp tells whether f writes points in time, counted from the
// trace's earliest arrival, rather than rounds.
func (f TimeFormat) timestamp() bool { return f != Rounds }

// unixScale is the nanoseconds in one unit of each Unix format.
var unixScale = map[TimeFormat]int64{UnixS: 1e9, UnixMS: 1e6, UnixUS: 1e3, UnixNS: 1}

// unix tells whether f writes Unix times, numbers.
func (f TimeFormat) unix() bool { return f >= UnixS && f <= UnixNS }

// wantTime says what an arrival of format f must be.
func (d *Decoder) wantTime() string {
	f := d.opt.AtFormat
	switch f {
	case RFC3339:
		return "want an RFC 3339 timestamp, like \"2024-05-01T12:00:00.25Z\", in whole nanoseconds, between the years 1678 and 2261 in UTC"
	case UnixS, UnixMS, UnixUS, UnixNS:
		return fmt.Sprintf("want a Unix time in %s (-at-format %s), a whole number or a decimal within nanoseconds, between the years 1678 and 2261", strings.TrimPrefix(f.String(), "unix-"), f)
	}
	return ""
}

// readAt parses an arrival into ticks: rounds without a Resolution, else
// nanoseconds (a bare number of rounds under BareRounds times Resolution) (since round 0, or since 1970 for a timestamp). It returns
// what was wanted on failure.
func (d *Decoder) readAt(s string) (int64, string) {
	switch f := d.opt.AtFormat; {
	case f == RFC3339:
		return d.readRFC3339(s)
	case f.timestamp():
		n, ok := parseUnix(s, unixScale[f])
		if !ok {
			return 0, d.wantTime()
		}
		return n, ""
	case d.opt.Resolution == 0:
		n, want := d.rounds(s)
		return int64(n), want
	case d.bare(s):
		n, want := d.rounds(s)
		if want == "" && int64(n) > math.MaxInt64/int64(d.opt.Resolution) {
			want = fmt.Sprintf("want an arrival of at most %d rounds of %v", math.MaxInt64/int64(d.opt.Resolution), d.opt.Resolution)
		}
		return int64(n) * int64(d.opt.Resolution), want
	}
	v, err := duration.Parse(s)
	if err != nil || v < 0 {
		return 0, d.wantDuration(s, err)
	}
	return int64(v), ""
}

// readRFC3339 parses an RFC 3339 arrival into nanoseconds since 1970, as
// readAt does.
func (d *Decoder) readRFC3339(s string) (int64, string) {
	s = upperTZ(s)
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil && leapSecond(s) {
		return 0, "want a second from 00 to 59: Go's clock, and so konvoy's, counts no leap second (second 60)"
	}
	if err != nil || t.UTC().Year() < 1678 || t.UTC().Year() > 2261 || belowNanosecond(s) || offsetOutOfRange(s) || !twoDigitHour(s) {
		return 0, d.wantTime()
	}
	return t.UnixNano(), ""
}

// upperTZ returns the RFC 3339 time s with its date and time separator
// and its "Z" in upper case, which RFC 3339 allows in lower case (its
// section 5.6) and time.Parse does not.
func upperTZ(s string) string {
	if len(s) > 10 && s[10] == 't' {
		s = s[:10] + "T" + s[11:]
	}
	if n := len(s); n > 0 && s[n-1] == 'z' {
		s = s[:n-1] + "Z"
	}
	return s
}

// twoDigitHour tells whether the RFC 3339 time s, which time.Parse took,
// writes its hour in two digits, as RFC 3339 wants and as time.Parse
// checks of every other field: it takes "T1:00:00" for one o'clock.
func twoDigitHour(s string) bool {
	return len(s) > 13 && '0' <= s[11] && s[11] <= '9' && '0' <= s[12] && s[12] <= '9' && s[13] == ':'
}

// leapSecond tells whether the RFC 3339 time s writes second 60, a leap
// second, which RFC 3339 allows and time.Parse refuses.
func leapSecond(s string) bool {
	return len(s) >= 19 && s[10] == 'T' && s[13] == ':' && s[16] == ':' && s[17:19] == "60"
}

// belowNanosecond tells whether the RFC 3339 time s has a fraction of a
// second below a nanosecond, a tenth digit or more not 0, after a '.' or
// the ',' that time.Parse takes too, which time.Parse drops without a
// word.
func belowNanosecond(s string) bool {
	i := strings.IndexAny(s, ".,") // time.Parse takes either as the decimal point
	if i < 0 {
		return false
	}
	frac := s[i+1:]
	end := strings.IndexFunc(frac, func(r rune) bool { return r < '0' || r > '9' })
	if end < 0 {
		end = len(frac)
	}
	return end > 9 && strings.Trim(frac[9:end], "0") != ""
}

// offsetOutOfRange tells whether s, which time.Parse took as RFC 3339,
// ends in an offset whose hour is past 23 or whose minute is past 59:
// RFC 3339 allows neither, and time.Parse takes "+24:00" and "+23:60".
func offsetOutOfRange(s string) bool {
	if len(s) < 6 {
		return false
	}
	o := s[len(s)-6:]
	if o[0] != '+' && o[0] != '-' || o[3] != ':' {
		return false // Z
	}
	return (o[1]-'0')*10+o[2]-'0' > 23 || (o[4]-'0')*10+o[5]-'0' > 59
}

// minUnixNanos and maxUnixNanos bound a Unix time, in nanoseconds, to the
// years 1678 to 2261 in UTC, from their first instant to their last, within
// which time.Time's UnixNano is exact.
const (
	minUnixNanos = -9_214_560_000_000_000_000 // 1678-01-01T00:00:00Z
	maxUnixNanos = 9_214_646_399_999_999_999  // 2261-12-31T23:59:59.999999999Z
)

// parseUnix parses a Unix time in units of scale nanoseconds: an optional
// '-', digits, and optionally '.' and more digits, as long as the fraction
// stays within whole nanoseconds and the time within minUnixNanos to
// maxUnixNanos.
// Leading zeros, and zeros below a nanosecond, are read as the same time
// without them.
func parseUnix(s string, scale int64) (int64, bool) {
	neg := strings.HasPrefix(s, "-")
	whole, frac, dot := strings.Cut(strings.TrimPrefix(s, "-"), ".")
	digits := func(s string) bool { return strings.Trim(s, "0123456789") == "" }
	if whole == "" || !digits(whole) || !digits(frac) || dot && frac == "" {
		return 0, false
	}
	whole, frac = cmp.Or(strings.TrimLeft(whole, "0"), "0"), strings.TrimRight(frac, "0")
	if len(whole) > 19 || len(frac) > 9 { // beyond int64, or below a nanosecond
		return 0, false
	}
	// Parsed in 64 bits, not parseWhole's int: a Unix time in
	// milliseconds outgrows 32 bits.
	limit := int64(maxUnixNanos) // n's bound, before its sign
	if neg {
		limit = -minUnixNanos
	}
	w, err := strconv.ParseInt(whole, 10, 64)
	if err != nil || w > limit/scale {
		return 0, false
	}
	f, ok := unixFraction(frac, scale)
	n := w*scale + f
	if !ok || n > limit {
		return 0, false
	}
	if neg {
		n = -n
	}
	return n, true
}

// unixFraction returns frac, the digits after a Unix time's '.', at most
// 9, in nanoseconds, when units of scale nanoseconds make it whole ones.
func unixFraction(frac string, scale int64) (int64, bool) {
	if frac == "" {
		return 0, true
	}
	f, _ := strconv.ParseInt(frac, 10, 64)
	for range 9 - len(frac) {
		f *= 10
	}
	// f is the fraction in 1e-9 units: it must be whole nanoseconds.
	if f%(1e9/scale) != 0 {
		return 0, false
	}
	return f / (1e9 / scale), true
}

// arrival is an event read and not yet released: its arrival in ticks, its
// place in the input, the line where its record starts, its arrival's
// text and CSV column for an error message, and how many of its values
// reading it rounded, and whether its step came from a status (counted in
// Decoder.rounded and Decoder.statused as it was read, and taken off again
// when it is dropped as late).
type arrival struct {
	e                 konvoy.Event
	ticks             int64
	seq               int64
	line              int
	text              string
	column            int
	rounded, statused int
}

// release turns a's arrival into rounds, of Resolution counted from the
// trace's first arrival (a timestamp's) or from 0, and returns its event,
// or the error of an arrival that is not a whole number of rounds or too
// far from the first.
func (d *Decoder) release(a arrival) (konvoy.Event, error) {
	d.line = a.line
	if !d.released {
		d.released, d.origin = true, 0
		if d.opt.AtFormat.timestamp() {
			d.origin = a.ticks
		}
	}
	d.last = a.ticks
	e := a.e
	if d.opt.Resolution == 0 {
		e.Arrival = int(a.ticks)
		return e, nil
	}
	res := int64(d.opt.Resolution)
	v := a.ticks - d.origin // within minUnixNanos−maxUnixNanos and back, which may pass an int64
	if (a.ticks >= d.origin) != (v >= 0) {
		return e, d.atErr(a, fmt.Sprintf("want an arrival within %v of the first", time.Duration(math.MaxInt64)))
	}
	if v%res != 0 {
		if !d.opt.Round {
			from := ""
			if d.opt.AtFormat.timestamp() {
				from = " from the first arrival"
			}
			return e, d.atErr(a, fmt.Sprintf("want a whole multiple of one round, %v%s; it does not divide exactly, and rounding is off (-round rounds to the nearest)", d.opt.Resolution, from))
		}
		d.rounded++
	}
	r := nearestRounds(v, res)
	if r > math.MaxInt32 && strconv.IntSize == 32 {
		return e, d.atErr(a, fmt.Sprintf("want an arrival within %d rounds of %v of the first", math.MaxInt32, d.opt.Resolution))
	}
	e.Arrival = int(r)
	return e, nil
}

// atErr is the error of a's arrival.
func (d *Decoder) atErr(a arrival, want string) *Error {
	d.line = a.line
	err := d.fieldErr(d.cols.At, a.text, want)
	err.Column = a.column
	return err
}

// atNeeded says why every event needs an arrival, "" when one may be left
// out (it is then 0): a timestamp cannot be, and the Reorder window would
// hold every event of arrival 0 to the end of the trace, sorting nothing.
func (d *Decoder) atNeeded() string {
	switch {
	case d.opt.AtFormat.timestamp():
		return "as " + d.opt.AtFormat.String()
	case d.opt.Reorder > 0:
		return "which the Reorder window (-reorder) sorts"
	}
	return ""
}

// next returns the next event in arrival order: as read, when arrivals
// must be in order, or through the reorder window.
func (d *Decoder) next() (konvoy.Event, error) {
	if d.opt.Reorder == 0 {
		a, err := d.record()
		if err != nil {
			return konvoy.Event{}, err
		}
		if d.released && d.opt.AtFormat.timestamp() && a.ticks < d.last {
			return konvoy.Event{}, d.atErr(a, "want arrivals in order: this one is earlier than the one before it (-reorder sorts arrivals within a window)")
		}
		return d.release(a)
	}
	return d.reordered()
}

// reordered returns the next event out of the reorder window: the earliest
// held, ties in input order, once an arrival more than the window later
// has been read, or at the end of the trace. An event earlier than one
// already released is late: an error, or, with DropLate, dropped and
// counted.
func (d *Decoder) reordered() (konvoy.Event, error) {
	w := &d.window
	for {
		if len(w.held) > 0 && (d.eof || d.ahead(w.held[0].ticks)) {
			h := heap.Pop(w).(held)
			w.bytes -= h.size()
			return d.release(h.arrival())
		}
		if d.eof {
			return konvoy.Event{}, io.EOF
		}
		a, err := d.record()
		if err == io.EOF {
			d.eof = true
			continue
		}
		if err != nil {
			return konvoy.Event{}, err
		}
		if d.released && a.ticks < d.last {
			if d.opt.DropLate {
				d.dropped++
				d.rounded -= a.rounded // counted as read: a dropped event is not
				d.statused -= a.statused
				continue
			}
			return konvoy.Event{}, d.atErr(a, fmt.Sprintf("want an arrival no earlier than one already released; this one is more than the -reorder window, %v, late (-late drop drops such events and counts them)", d.opt.Reorder))
		}
		if !w.started || a.ticks > w.watermark {
			w.started, w.watermark = true, a.ticks
		}
		h := hold(&a)
		heap.Push(w, h)
		if w.bytes += h.size(); w.bytes > d.maxHeld {
			d.line = a.line
			err := d.lineErr(fmt.Sprintf("want the events held in the -reorder window, %v, to take at most %d bytes (Reader.MaxReorderBytes); %d events within it take more: narrow -reorder", d.opt.Reorder, d.maxHeld, len(w.held)))
			err.windowFull = true
			return konvoy.Event{}, err
		}
	}
}

// ahead tells whether an arrival more than the window later than ticks has
// been read.
func (d *Decoder) ahead(ticks int64) bool {
	gap := d.window.watermark - ticks
	return d.window.watermark > ticks && (gap < 0 || gap > int64(d.opt.Reorder))
}

// held is an arrival as the reorder window holds it, in 80 bytes rather
// than an arrival's 112: its key, line and arrival's text packed in one
// string, an allocation of their own that keeps nothing else alive (such
// as the record the text was cut from), and its numbers without the
// arrival in rounds, which release sets.
type held struct {
	strs                      string // the key, the line, then the arrival's text
	keyLen, lineLen           uint32 // names are at most a record long, and a record within MaxRecordBytes (an int)
	step, duration, partition int
	ticks, seq                int64
	line                      int
	column                    int32 // a column beyond int32 would need a record of 2 GiB: kept as math.MaxInt32, for messages only
}

// hold returns a as the window holds it.
func hold(a *arrival) held {
	return held{strs: a.e.Key + a.e.Line + a.text, keyLen: uint32(len(a.e.Key)), lineLen: uint32(len(a.e.Line)),
		step: a.e.Step, duration: a.e.Duration, partition: a.e.Partition, ticks: a.ticks, seq: a.seq, line: a.line,
		column: int32(min(a.column, math.MaxInt32))}
}

// arrival returns the arrival h holds, its arrival in rounds not yet set.
// Its key and line are a copy of their own, not slices of h's packed
// strings: whoever keeps a key (the simulator keeps every one) would keep
// the arrival's text with it, which may be most of a record long (leading
// zeros).
func (h *held) arrival() arrival {
	k, l := int(h.keyLen), int(h.lineLen)
	names := strings.Clone(h.strs[:k+l])
	return arrival{e: konvoy.Event{Key: names[:k], Line: names[k:], Step: h.step, Duration: h.duration, Partition: h.partition},
		ticks: h.ticks, seq: h.seq, line: h.line, text: h.strs[k+l:], column: int(h.column)}
}

// size is what a held event costs, by the plan: its place in the window's
// heap, up to twice over as the heap grows, and its packed strings, in the
// 8-byte units memory is allocated in.
func (h *held) size() int { return heldBytes + (len(h.strs)+7)&^7 }

// heldBytes is what a held event takes in the window's heap, up to twice
// its 80 bytes (52 on 32-bit platforms) as the heap grows, its strings
// aside (TestAHeldEventCostsWhatTheWindowCounts checks it).
const heldBytes = 2 * int(unsafe.Sizeof(held{}))

// window is the reorder window: the events read and not yet released, a
// min-heap by arrival and input order, and the latest arrival read.
type window struct {
	held      []held
	bytes     int
	watermark int64
	started   bool
}

func (w *window) Len() int { return len(w.held) }
func (w *window) Less(i, j int) bool {
	a, b := &w.held[i], &w.held[j]
	return a.ticks < b.ticks || a.ticks == b.ticks && a.seq < b.seq
}
func (w *window) Swap(i, j int) { w.held[i], w.held[j] = w.held[j], w.held[i] }
func (w *window) Push(x any)    { w.held = append(w.held, x.(held)) }
func (w *window) Pop() any {
	n := len(w.held) - 1
	h := w.held[n]
	w.held[n] = held{}
	w.held = w.held[:n]
	if cap(w.held) > 1024 && n < cap(w.held)/4 {
		w.held = append([]held(nil), w.held...)
	}
	return h
}
