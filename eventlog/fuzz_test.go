package eventlog

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/sirali-konvoy/konvoy"
)

// fuzzReader returns the reader options a fuzz mode stands for: whole rounds,
// durations with units, or durations with units rounded.
func fuzzReader(format Format, mode uint8) Reader {
	r := shipping
	r.Format = format
	switch mode % 3 {
	case 1:
		r.Resolution = 10 * time.Millisecond
	case 2:
		r.Resolution = 10 * time.Millisecond
		r.Round = true
	}
	return r
}

// roundTrip reads data; when it is accepted, it writes the events back in
// the same format, and in the other one unless a value holds a CRLF (which
// CSV reads as a newline), a NUL byte (which CSV cannot hold) or is not UTF-8
// (which JSON cannot hold), and checks that reading them again gives the same
// events.
func roundTrip(t *testing.T, data []byte, r Reader) {
	var events []konvoy.Event
	for e, err := range r.Events(bytes.NewReader(data)) {
		if err != nil {
			if _, ok := err.(*Error); !ok {
				t.Fatalf("error %T %v; want *Error", err, err)
			}
			return
		}
		if e.Key == "" || e.Step < 0 || e.Duration < 0 || e.Arrival < 0 {
			t.Fatalf("accepted an invalid event %+v", e)
		}
		events = append(events, e)
	}
	formats := []Format{r.Format}
	if !slices.ContainsFunc(events, func(e konvoy.Event) bool {
		return strings.Contains(e.Key+e.Line, "\r\n") || strings.ContainsRune(e.Key+e.Line, 0) || !utf8.ValidString(e.Key+e.Line)
	}) {
		formats = []Format{CSV, JSONL}
	}
	for _, f := range formats {
		var buf bytes.Buffer
		if err := WriteAll(&buf, f, slices.Values(events)); err != nil {
			t.Fatalf("writing %v: %v", f, err)
		}
		var again []konvoy.Event
		for e, err := range (Reader{Format: f}).Events(&buf) {
			if err != nil {
				t.Fatalf("reading back %v: %v", f, err)
			}
			again = append(again, e)
		}
		if d := cmp.Diff(events, again); d != "" {
			t.Fatalf("%v round trip (-read +read back):\n%s", f, d)
		}
	}
}

func FuzzCSV(f *testing.F) {
	f.Add([]byte("key,line,status,duration\nA,H1,accepted,1\n\"B,\n\"\"x\"\"\",H2,scanned,0\r\n"), uint8(0))
	f.Add([]byte("\uFEFFkey,step,duration,at,extra\r\nA,1,150ms,1s,\"a\r\nb\"\r\n\r\n"), uint8(1))
	f.Add([]byte("key,status,step,duration\nA,bogus,2,15ms\n"), uint8(2))
	f.Fuzz(func(t *testing.T, data []byte, mode uint8) {
		roundTrip(t, data, fuzzReader(CSV, mode))
	})
}

func FuzzJSONL(f *testing.F) {
	f.Add([]byte(`{"key":"A","line":"H1","status":"accepted","duration":1}`+"\n"+`{"key":"B\n","step":0,"duration":0,"at":3}`), uint8(0))
	f.Add([]byte("\uFEFF{\"k\\u0065y\" : 7, \"step\":1, \"duration\":\"150ms\", \"x\":[{\"}\":1}]}\r\n\n"), uint8(1))
	f.Add([]byte(`{"key":"A","status":"delivered","duration":"15ms","at":0}`), uint8(2))
	f.Fuzz(func(t *testing.T, data []byte, mode uint8) {
		roundTrip(t, data, fuzzReader(JSONL, mode))
		checkFields(t, data)
	})
}

// checkFields compares the object walker with encoding/json on every line of
// data that is a valid JSON object in valid UTF-8.
func checkFields(t *testing.T, data []byte) {
	for line := range bytes.SplitSeq(data, []byte("\n")) {
		line = bytes.TrimSpace(line)
		if len(line) == 0 || line[0] != '{' || !json.Valid(line) || !utf8.Valid(line) {
			continue
		}
		var want map[string]json.RawMessage
		if err := json.Unmarshal(line, &want); err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		got := map[string]json.RawMessage{}
		fields(line, func(name, value []byte) {
			var n string
			if err := json.Unmarshal(name, &n); err != nil {
				t.Fatalf("%q: name %q: %v", line, name, err)
			}
			got[n] = json.RawMessage(value)
		})
		if d := cmp.Diff(want, got); d != "" {
			t.Fatalf("%q: fields differ from encoding/json (-want +got):\n%s", line, d)
		}
	}
}
