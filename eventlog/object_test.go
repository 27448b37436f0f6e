package eventlog_test

import (
	"bytes"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	gocmp "github.com/google/go-cmp/cmp"
	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/eventlog"
	"github.com/sirali-konvoy/konvoy/synth"
)

// Every line of the kcat export in testdata, decoded alone, is the event
// the same Reader reads from the file at that line: the object decoder is
// the JSON Lines decoder, one line at a time (arrivals aside, which the
// file needs sorted; they are checked below).
func TestAnObjectDecodesAsItsLineReads(t *testing.T) {
	raw, err := os.ReadFile("../testdata/export.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	model := synth.Uniform(1, 9)
	r := eventlog.Reader{Name: "export.jsonl", Columns: eventlog.Columns{Key: "key", Status: "payload.status", Line: "payload.order", Duration: "x"},
		Steps: []string{"new", "paid", "shipped", "delivered"}, Durations: &model, Seed: 3}
	want, _, err := read(t, r, string(raw))
	if err != nil {
		t.Fatal(err)
	}
	o, err := eventlog.NewObjectDecoder(r)
	if err != nil {
		t.Fatal(err)
	}
	var got []konvoy.Event
	for line := range bytes.Lines(raw) {
		e, err := o.Decode("line", line)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, e)
	}
	if len(got) != 320 || !o.Partitions() {
		t.Fatalf("%d events, partitions %v; want 320 with partitions", len(got), o.Partitions())
	}
	if diff := gocmp.Diff(want, got); diff != "" {
		t.Errorf("objects differ from the file's lines (-file +objects):\n%s", diff)
	}
}

// Timestamps count in rounds from the first object decoded, whatever the
// order: an earlier one is negative, not an error.
func TestObjectArrivalsCountFromTheFirst(t *testing.T) {
	o, err := eventlog.NewObjectDecoder(eventlog.Reader{Columns: eventlog.Columns{At: "ts"}, AtFormat: eventlog.UnixMS, Resolution: 10 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	var got []int
	for _, ts := range []string{"1700000000500", "1700000000550", "1700000000300"} {
		e, err := o.Decode("x", []byte(`{"key":"a","step":1,"duration":"20ms","ts":`+ts+`}`))
		if err != nil {
			t.Fatal(err)
		}
		if e.Duration != 2 {
			t.Errorf("duration %d rounds; want 2", e.Duration)
		}
		got = append(got, e.Arrival)
	}
	if want := []int{0, 5, -20}; !gocmp.Equal(got, want) {
		t.Errorf("arrivals %v; want %v", got, want)
	}
	e, err := o.Decode("x", []byte(`{"key":"a","step":1,"duration":"20ms","ts":1700000000505}`))
	if e != (konvoy.Event{}) || err == nil || !strings.HasPrefix(err.Error(), `x: field "ts": value "1700000000505": want a whole multiple of one round, 10ms from the first arrival`) {
		t.Errorf("an arrival between rounds: %+v, %v; want the zero Event and the error", e, err)
	}
}

// A bad object is an *Error named as Decode was told, saying what was
// wanted, and the decoder goes on with the next.
func TestABadObjectIsNamed(t *testing.T) {
	o, err := eventlog.NewObjectDecoder(eventlog.Reader{Columns: eventlog.Columns{Step: "payload.step"}, MaxRecordBytes: 100})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ obj, want string }{
		{`{"key":"a","duration":1,"payload":"{\"step\":\"x\"}"}`, `orders/2@7: field "payload.step": value "x": want a whole number ≥ 0`},
		{`{"key":"a","duration":1,"payload":null}`, `orders/2@7: field "payload.step": value "null": want an object at "payload"; it is null`},
		{`{"key":null,"duration":1,"payload":"{\"step\":1}"}`, `orders/2@7: field "key": value "null": want a string`},
		{`{"key":"a","payload":"{\"step\":1}"}`, `orders/2@7: want a field "duration"`},
		{`[1]`, `orders/2@7: want a JSON object, not an array`},
		{`{"key":`, `orders/2@7: want a JSON object: unexpected end of JSON input`},
		{`{"key":"` + strings.Repeat("k", 100) + `"}`, `orders/2@7: want a record of at most 100 bytes`},
	} {
		_, err := o.Decode("orders/2@7", []byte(tt.obj))
		var e *eventlog.Error
		if !errors.As(err, &e) || !strings.HasPrefix(err.Error(), tt.want) || e.Line != 0 {
			t.Errorf("%s: error %v; want an *Error, no line, starting %q", tt.obj, err, tt.want)
		}
	}
	e, err := o.Decode("orders/2@8", []byte(` {"key":"a","duration":1,"payload":"{\"step\":4}"} `))
	if err != nil || e != (konvoy.Event{Key: "a", Step: 4, Duration: 1}) {
		t.Errorf("after the errors: %+v, %v; want the event", e, err)
	}
}

// A Reorder window, or an invalid option, is refused when the decoder is
// made.
func TestObjectDecoderOptions(t *testing.T) {
	for _, r := range []eventlog.Reader{{Reorder: time.Second, Resolution: time.Millisecond}, {Resolution: -1}, {Steps: []string{"a", "a"}}} {
		if _, err := eventlog.NewObjectDecoder(r); err == nil {
			t.Errorf("%+v: no error", r)
		}
	}
}

// A refused object draws no duration from Reader.Durations: the objects
// decoded after it get the durations they get without it, whether it is
// refused before its arrival is read (a partition below 0) or after (an
// arrival that is not a whole round).
func TestARefusedObjectDrawsNoDuration(t *testing.T) {
	dist := synth.Uniform(1, 1000)
	r := eventlog.Reader{Durations: &dist, Seed: 7, Columns: eventlog.Columns{At: "ts"}, AtFormat: eventlog.UnixMS, Resolution: 10 * time.Millisecond}
	good := [][]byte{[]byte(`{"key":"a","step":1,"ts":1700000000500}`), []byte(`{"key":"c","step":1,"ts":1700000000510}`), []byte(`{"key":"d","step":2,"ts":1700000000520}`)}
	decodeAll := func(bad []byte) []konvoy.Event {
		o, err := eventlog.NewObjectDecoder(r)
		if err != nil {
			t.Fatal(err)
		}
		var out []konvoy.Event
		for i, obj := range good {
			if i == 1 && bad != nil {
				if _, err := o.Decode("bad", bad); err == nil {
					t.Fatalf("%s decoded; want it refused", bad)
				}
			}
			e, err := o.Decode("good", obj)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, e)
		}
		return out
	}
	want := decodeAll(nil)
	for _, bad := range []string{`{"key":"b","step":1,"partition":-1,"ts":1700000000505}`, `{"key":"b","step":1,"ts":1700000000505}`} {
		if d := gocmp.Diff(want, decodeAll([]byte(bad))); d != "" {
			t.Errorf("with %s refused between (-without +with):\n%s", bad, d)
		}
	}
}

// Objects, as a trace's records, carry an arrival each or none, as the
// first decoded tells; a refused object tells nothing, so that the one
// after it may still be the first to.
func TestObjectsCarryEveryArrivalOrNone(t *testing.T) {
	o, err := eventlog.NewObjectDecoder(eventlog.Reader{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ obj, want string }{
		{`{"key":"a","step":1,"duration":1,"at":"5"}`, `x: field "at": value "5": want a whole number`}, // refused: tells nothing
		{`{"key":"a","step":1,"duration":1}`, ""},
		{`{"key":"a","step":2,"duration":1,"at":5}`, `x: field "at": value "5": want no arrival field, as the first record has none: a trace records every event's arrival, or none`},
		{`{"key":"a","step":3,"duration":1}`, ""},
	} {
		e, err := o.Decode("x", []byte(tt.obj))
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%s: %v; want the event", tt.obj, err)
		case tt.want != "" && (err == nil || !strings.HasPrefix(err.Error(), tt.want)):
			t.Errorf("%s: %+v, %v; want an error starting %q", tt.obj, e, err, tt.want)
		}
	}
}
