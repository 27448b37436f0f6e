package eventlog_test

import (
	"errors"
	"testing"
	"time"

	"github.com/sirali-konvoy/konvoy/eventlog"
)

// A Unix-time arrival is a number, as a step is, and as kcat writes "ts":
// in JSON Lines, one given as a JSON string is an error naming the file,
// the line, the field (the default at or the column -at names) and what
// was wanted, as a step given as a string is, in every unix-* format; the
// same value as a JSON number is read.
func TestAUnixArrivalGivenAsAJSONStringIsRefused(t *testing.T) {
	for _, f := range []eventlog.TimeFormat{eventlog.UnixS, eventlog.UnixMS, eventlog.UnixUS, eventlog.UnixNS} {
		for _, col := range []string{"at", "ts"} {
			r := eventlog.Reader{Name: "t.jsonl", Columns: eventlog.Columns{At: col}, AtFormat: f, Resolution: time.Nanosecond}
			events, _, err := read(t, r, `{"key":"a","step":1,"duration":"0s","`+col+`":1700000000}`+"\n")
			if err != nil || len(events) != 1 {
				t.Fatalf("%v, %q a JSON number: %+v, %v; want it read", f, col, events, err)
			}
			events, _, err = read(t, r, `{"key":"a","step":1,"duration":"0s","`+col+`":"1700000000"}`+"\n")
			var e *eventlog.Error
			if !errors.As(err, &e) || e.File != "t.jsonl" || e.Line != 1 || e.Field != col || e.Value != "1700000000" {
				t.Errorf("%v, %q a JSON string: %+v, %v; want an *Error at t.jsonl:1 for the field %q, value 1700000000", f, col, events, err, col)
				continue
			}
			if f == eventlog.UnixMS && col == "ts" {
				const want = `t.jsonl:1: field "ts": value "1700000000": want a Unix time in ms (-at-format unix-ms), a whole number or a decimal within nanoseconds, between the years 1678 and 2261, as a JSON number, not a string`
				if err.Error() != want {
					t.Errorf("error\n%v\nwant\n%s", err, want)
				}
			}
		}
	}
}
