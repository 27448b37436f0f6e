package eventlog_test

import (
	"errors"
	"testing"
	"time"

	"github.com/sirali-konvoy/konvoy/eventlog"
)

// An error for a bad value names the field, the value as written and
// what was expected: a JSON Lines duration or arrival written as a string
// that cannot be decoded, here one with a lone surrogate escape, is shown
// as written, not as "".
func TestAnUndecodableJSONDurationOrArrivalIsShownAsWritten(t *testing.T) {
	r := eventlog.Reader{Name: "t.jsonl", Resolution: time.Millisecond}
	for _, c := range []struct{ field, trace string }{
		{"duration", `{"key":"A","step":1,"duration":"1\ud800ms"}`},
		{"at", `{"key":"A","step":1,"duration":"1ms","at":"1\ud800ms"}`},
	} {
		_, _, err := read(t, r, c.trace+"\n")
		var e *eventlog.Error
		if !errors.As(err, &e) {
			t.Fatalf("%s: %v; want an *Error", c.field, err)
		}
		if e.Field != c.field || e.Value == "" {
			t.Errorf("%s: field %q, value %q (%v); want the field %q and its value as written, not empty", c.field, e.Field, e.Value, err, c.field)
		}
	}
}
