package eventlog_test

import (
	"testing"

	"github.com/sirali-konvoy/konvoy/eventlog"
	"github.com/sirali-konvoy/konvoy/synth"
)

// A column the decoder reads named twice in a CSV header, or a field it
// reads named twice in a JSON Lines record, is an error, since which
// value counts would be a guess; one it does not read may be named twice:
// a status beside a step column, and a duration when Reader.Durations
// draws durations.
func TestAColumnNotReadMayBeNamedTwice(t *testing.T) {
	two := synth.Fixed(2)
	for _, c := range []struct {
		name  string
		r     eventlog.Reader
		trace string
	}{
		{"csv status beside a step", eventlog.Reader{Name: "t.csv"}, "key,step,duration,status,status\nA,1,1,new,old\n"},
		{"jsonl status beside a step", eventlog.Reader{Name: "t.jsonl"}, `{"key":"A","step":1,"duration":1,"status":"new","status":"old"}` + "\n"},
		{"csv duration drawn", eventlog.Reader{Name: "t.csv", Durations: &two}, "key,step,duration,duration\nA,1,1,x\n"},
		{"jsonl duration drawn", eventlog.Reader{Name: "t.jsonl", Durations: &two}, `{"key":"A","step":1,"duration":1,"duration":"x"}` + "\n"},
	} {
		events, _, err := read(t, c.r, c.trace)
		if err != nil || len(events) != 1 || events[0].Step != 1 {
			t.Errorf("%s: %+v, %v; want one event of step 1, the doubled column not being read", c.name, events, err)
		}
	}
}
