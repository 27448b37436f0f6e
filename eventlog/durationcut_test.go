package eventlog_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/sirali-konvoy/konvoy/eventlog"
	"github.com/sirali-konvoy/konvoy/synth"
)

// A duration drawn from Reader.Durations past synth.MaxDuration is an
// *Error at its event's line, in a CSV or JSON Lines trace and from an
// ObjectDecoder, never a duration cut short; the events before it are
// read whole.
func TestADurationDrawnPastMaxDurationIsAnErrorAtItsLine(t *testing.T) {
	past := synth.LogNormal(709, 0) // e^709 rounds: every draw passes MaxDuration
	near := synth.LogNormal(20.7, 0)
	want := "want a duration of at most 1073741824 rounds (synth.MaxDuration); the one drawn for this event from lognormal:709,0 (Reader.Durations) passes it"
	for _, tc := range []struct {
		name, trace string
		line        int // the first event's
	}{
		{"t.csv", "key,step\nA,1\nB,1\n", 2},
		{"t.jsonl", "{\"key\":\"A\",\"step\":1}\n{\"key\":\"B\",\"step\":1}\n", 1},
	} {
		events, _, err := read(t, eventlog.Reader{Name: tc.name, Durations: &near}, tc.trace)
		if err != nil || len(events) != 2 || events[1].Duration != 977_002_726 {
			t.Fatalf("%s under lognormal:20.7,0: %v, %v; want two events of 977002726 rounds", tc.name, events, err)
		}
		events, _, err = read(t, eventlog.Reader{Name: tc.name, Durations: &past}, tc.trace)
		var e *eventlog.Error
		if len(events) != 0 || !errors.As(err, &e) || e.File != tc.name || e.Line != tc.line || e.Want != want {
			t.Errorf("%s: %v, %v; want no event and an *Error at line %d saying %q", tc.name, events, err, tc.line, want)
		}
	}
	o, err := eventlog.NewObjectDecoder(eventlog.Reader{Durations: &past})
	if err != nil {
		t.Fatal(err)
	}
	_, err = o.Decode("rec", []byte(`{"key":"A","step":1}`))
	if err == nil || !strings.HasPrefix(err.Error(), "rec: ") || !strings.Contains(err.Error(), want) {
		t.Errorf("object: %v; want an error naming rec and saying %q", err, want)
	}
}
