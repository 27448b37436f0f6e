package eventlog_test

import (
	"testing"
	"time"

	"github.com/sirali-konvoy/konvoy/eventlog"
)

// An RFC 3339 arrival whose fraction of a second goes below a nanosecond
// is refused, whether its decimal point is a '.' or the ',' that
// time.Parse also takes: 12:00:00,0000000001 does not read as 12:00:00.
func TestAnRFC3339FractionAfterACommaBelowANanosecondIsRefused(t *testing.T) {
	r := eventlog.Reader{Name: "t.jsonl", AtFormat: eventlog.RFC3339, Resolution: time.Nanosecond}
	for _, at := range []string{"2024-05-01T12:00:00.0000000001Z", "2024-05-01T12:00:00,0000000001Z"} {
		trace := `{"key":"A","step":1,"duration":"1ns","at":"2024-05-01T12:00:00Z"}
{"key":"A","step":2,"duration":"1ns","at":"` + at + `"}
`
		events, _, err := read(t, r, trace)
		if err == nil {
			t.Errorf("at %s: read %+v with no error; want an error, the fraction is below a nanosecond", at, events)
		}
	}
}
