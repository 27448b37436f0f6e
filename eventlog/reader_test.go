package eventlog

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/synth"
)

// shipping reads statuses with the example lists.
var shipping = Reader{
	Steps:   []string{"accepted", "transfer", "out-for-delivery", "delivered"},
	History: []string{"scanned", "weighed"},
}

// readAll reads every event of input with r, or the first error.
func readAll(t testing.TB, r Reader, input string) ([]konvoy.Event, error) {
	t.Helper()
	var events []konvoy.Event
	for e, err := range r.Events(strings.NewReader(input)) {
		if err != nil {
			return events, err
		}
		events = append(events, e)
	}
	return events, nil
}

func named(r Reader, name string) Reader {
	r.Name = name
	return r
}

func TestValidTricky(t *testing.T) {
	want := []konvoy.Event{
		{Key: "A,1", Line: "H1", Step: 1, Duration: 2},
		{Key: "B\n2", Line: "H2", Step: 0, Duration: 0},
		{Key: "A,1", Line: "H1", Step: 4, Duration: 10},
	}
	for _, tt := range []struct {
		name  string
		r     Reader
		input string
	}{
		{"csv", named(shipping, "t.csv"), "key,line,status,duration\n\"A,1\",H1,accepted,2\n\"B\n2\",H2,scanned,0\n\"A,1\",H1,delivered,10\n"},
		{"crlf bom blank last line", named(shipping, "t.csv"), "\uFEFFkey,line,status,duration\r\n\"A,1\",H1,accepted,2\r\n\"B\r\n2\",H2,scanned,0\r\n\"A,1\",H1,delivered,10\r\n\r\n"},
		{"no final newline", named(shipping, "t.csv"), "key,line,status,duration\n\"A,1\",H1,accepted,2\n\"B\n2\",H2,scanned,0\n\"A,1\",H1,delivered,10"},
		{"extra columns, other order, spaces in header and numbers", named(shipping, "t.csv"),
			"note, duration ,status,line,key,more\n\"x, \"\"y\"\"\", 2 ,accepted,H1,\"A,1\",\n,0,scanned,H2,\"B\n2\",z\nlast,10,delivered,H1,\"A,1\",\"multi\nline\"\n"},
		{"step column wins over status", named(shipping, "t.csv"), "key,line,status,step,duration\n\"A,1\",H1,bogus,1,2\n\"B\n2\",H2,,0,0\n\"A,1\",H1,accepted,4,10\n"},
		{"renamed columns", func() Reader {
			r := named(shipping, "t.csv")
			r.Columns = Columns{Key: "tracking_no", Line: "route", Status: "event", Duration: "took"}
			return r
		}(), "tracking_no,route,event,took,key\n\"A,1\",H1,accepted,2,x\n\"B\n2\",H2,scanned,0,x\n\"A,1\",H1,delivered,10,x\n"},
		{"jsonl", named(shipping, "t.jsonl"), `{"key":"A,1","line":"H1","status":"accepted","duration":2}` + "\n" +
			`{"key":"B\n2","line":"H2","status":"scanned","duration":0,"extra":{"a":[1,"}"]}}` + "\n" +
			`{"duration":10,"key":"A,1","line":"H1","step":4,"status":"ignored"}` + "\n"},
		{"jsonl crlf bom blank lines spaces", named(shipping, "t.ndjson"), "\uFEFF { \"key\" : \"A,1\" , \"line\":\"H1\",\"status\":\"accepted\",\"duration\":2 }\r\n\r\n" +
			`{"k\u0065y":"B\n2","line":"H2","status":"scanned","duration":0}` + "\r\n   \n" +
			`{"key":"A,1","line":"H1","step":4,"duration":10}`},
		{"sniffed jsonl", named(shipping, "-"), "\n  " + `{"key":"A,1","line":"H1","status":"accepted","duration":2}` + "\n" +
			`{"key":"B\n2","line":"H2","status":"scanned","duration":0}` + "\n" + `{"key":"A,1","line":"H1","step":4,"duration":10}` + "\n"},
		{"sniffed csv", named(shipping, "trace.txt"), "key,line,status,duration\n\"A,1\",H1,accepted,2\n\"B\n2\",H2,scanned,0\n\"A,1\",H1,delivered,10\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := readAll(t, tt.r, tt.input)
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("events differ (-want +got):\n%s", d)
			}
		})
	}
}

func TestArrivalAndUnits(t *testing.T) {
	r := Reader{Name: "t.csv", Resolution: 100 * time.Millisecond}
	got, err := readAll(t, r, "key,step,duration,at\nA,1,150ms,0\n")
	var e *Error
	if !errors.As(err, &e) || e.Field != "duration" || !strings.Contains(e.Want, "-round") {
		t.Fatalf("got %v, %v; want an inexact-duration error that names -round", got, err)
	}
	got, err = readAll(t, r, "key,step,duration,at\nA,1,200ms,0\nB,1,2.5s,1s\nC,0,0,1m\n")
	if err != nil {
		t.Fatal(err)
	}
	want := []konvoy.Event{{Key: "A", Step: 1, Duration: 2}, {Key: "B", Step: 1, Duration: 25, Arrival: 10}, {Key: "C", Duration: 0, Arrival: 600}}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}

	r.Round = true
	d, err := NewDecoder(strings.NewReader(`{"key":"A","step":1,"duration":"150ms","at":"40ms"}`+"\n"+`{"key":"A","step":2,"duration":"149ms","at":0}`), named(r, "t.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var evs []konvoy.Event
	for e, err := range d.All() {
		if err != nil {
			t.Fatal(err)
		}
		evs = append(evs, e)
	}
	want = []konvoy.Event{{Key: "A", Step: 1, Duration: 2, Arrival: 0}, {Key: "A", Step: 2, Duration: 1}}
	if diff := cmp.Diff(want, evs); diff != "" || d.Rounded() != 3 {
		t.Errorf("rounded %d, want 3; (-want +got):\n%s", d.Rounded(), diff)
	}
}

// TestBareRounds wants BareRounds to read a bare whole number under a
// Resolution as that many rounds, in CSV and in JSON (a number or a
// string), and a value with a unit as the Resolution says, so that "3" and
// "6ms" are both three rounds of 2ms; an arrival whose rounds overflow the
// nanoseconds an arrival is counted in to be an error; and, without
// BareRounds, a bare number to stay an error.
func TestBareRounds(t *testing.T) {
	r := Reader{Name: "t.csv", Resolution: 2 * time.Millisecond, BareRounds: true}
	got, err := readAll(t, r, "key,step,duration,at\nA,1,3,0\nB,1,6ms,4\nC,1,0,10ms\n")
	if err != nil {
		t.Fatal(err)
	}
	want := []konvoy.Event{{Key: "A", Step: 1, Duration: 3}, {Key: "B", Step: 1, Duration: 3, Arrival: 4}, {Key: "C", Step: 1, Arrival: 5}}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("CSV (-want +got):\n%s", d)
	}
	got, err = readAll(t, named(r, "t.jsonl"), `{"key":"A","step":1,"duration":3,"at":"2"}`+"\n"+`{"key":"B","step":1,"duration":"4ms","at":"4ms"}`+"\n")
	if err != nil {
		t.Fatal(err)
	}
	want = []konvoy.Event{{Key: "A", Step: 1, Duration: 3, Arrival: 2}, {Key: "B", Step: 1, Duration: 2, Arrival: 2}}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("JSON (-want +got):\n%s", d)
	}
	var e *Error
	if _, err := readAll(t, r, "key,step,duration,at\nA,1,1,9000000000000000000\n"); strconv.IntSize == 64 && (!errors.As(err, &e) || e.Field != "at" || !strings.Contains(e.Want, "at most 4611686018427 rounds of 2ms")) {
		t.Errorf("an arrival of 9e18 rounds: %v; want an error naming the most rounds", err)
	} else if !errors.As(err, &e) || e.Field != "at" { // 32 bits: a number past an int
		t.Errorf("an arrival of 9e18 rounds: %v; want an error", err)
	}
	if _, err := readAll(t, r, "key,step,duration\nA,1,1x\n"); !errors.As(err, &e) || e.Field != "duration" {
		t.Errorf("a duration of 1x: %v; want an error", err)
	}
	r.BareRounds = false
	if _, err := readAll(t, r, "key,step,duration\nA,1,3\n"); !errors.As(err, &e) || !strings.Contains(e.Want, "with a unit") {
		t.Errorf("a bare number without BareRounds: %v; want an error asking for a unit", err)
	}
}

// TestBareRoundsErrorsOfferRounds wants the error for a duration or an
// arrival that does not read under BareRounds to say that a whole number
// of rounds would do, for a duration and an arrival alike (found by a
// review: it asked for a unit alone).
func TestBareRoundsErrorsOfferRounds(t *testing.T) {
	r := Reader{Name: "t.csv", Resolution: 2 * time.Millisecond, BareRounds: true}
	var e *Error
	for _, in := range []string{"key,step,duration\nA,1,-1\n", "key,step,duration\nA,1,1.5\n", "key,step,duration,at\nA,1,1,-2\n"} {
		if _, err := readAll(t, r, in); !errors.As(err, &e) || !strings.HasPrefix(e.Want, "want a whole number of rounds ≥ 0, or a duration ≥ 0 with a unit") {
			t.Errorf("%q: %v; want an error offering a whole number of rounds", in, err)
		}
	}
}

// TestBadInput checks each class of bad input gives an *Error with the
// message, line and field it should, and ends the stream.
func TestBadInput(t *testing.T) {
	for _, tt := range []struct {
		name, file, input string
		r                 Reader
		want              string // the whole message
	}{
		{"empty csv", "t.csv", "", shipping, `t.csv:1: want a header row naming the columns key, status or step, and duration; the trace is empty`},
		{"missing key column", "t.csv", "id,line,status,duration\nA,H1,accepted,1\n", shipping, `t.csv:1: want a column "key" (the key of each event) in the header; it has "id", "line", "status", "duration"`},
		{"missing duration column", "t.csv", "key,status\nA,accepted\n", shipping, `t.csv:1: want a column "duration" (the duration of each event) in the header; it has "key", "status"`},
		{"missing step and status", "t.csv", "key,duration\nA,1\n", shipping, `t.csv:1: want a column "step" or "status" in the header; it has "key", "duration"`},
		{"column twice", "t.csv", "key,duration,step,key\nA,1,1,A\n", shipping, `t.csv:1: want each column once; the header names "key" twice, as columns 1 and 4`},
		{"field count", "t.csv", "key,status,duration\nA,accepted,1\nB,accepted\n", shipping, `t.csv:3: want 3 fields, as in the header; the row has 2`},
		{"bare quote", "t.csv", "key,status,duration\nA,accepted,1\nB\"x,accepted,1\n", shipping, `t.csv:3: want a well-formed CSV row: bare " in non-quoted-field (line 3, column 2)`},
		{"unclosed quote spans lines", "t.csv", "key,status,duration\nA,accepted,1\n\"B\n\nC,accepted,1\n", shipping, `t.csv:3: want a well-formed CSV row: extraneous or missing " in quoted-field (line 5, column 14)`},
		{"bad duration", "t.csv", "key,status,duration\nA,accepted,1\nB,accepted,x\n", shipping, `t.csv:3: field "duration": value "x": want a whole number of rounds ≥ 0`},
		{"negative duration", "t.csv", "key,status,duration\nA,accepted,-1\n", shipping, `t.csv:2: field "duration": value "-1": want a whole number of rounds ≥ 0`},
		{"fractional duration", "t.csv", "key,status,duration\nA,accepted,1.5\n", shipping, `t.csv:2: field "duration": value "1.5": want a whole number of rounds ≥ 0`},
		{"huge duration", "t.csv", "key,status,duration\nA,accepted,99999999999999999999999\n", shipping, `t.csv:2: field "duration": value "99999999999999999999999": want a whole number of rounds ≥ 0 that fits in an int`},
		{"bad step", "t.csv", "key,step,duration\nA,-2,1\n", shipping, `t.csv:2: field "step": value "-2": want a whole number ≥ 0 (0 for a history-only record)`},
		{"bad at", "t.csv", "key,step,duration,at\nA,1,1,soon\n", shipping, `t.csv:2: field "at": value "soon": want a whole number of rounds ≥ 0; if this column is not the arrival, -at - (NoColumn) reads none`},
		{"empty key", "t.csv", "key,status,duration\n\"\",accepted,1\n", shipping, `t.csv:2: field "key": value "": want a non-empty key`},
		{"empty renamed key after multi-line row", "t.csv", "id,status,duration\n\"a\nb\",accepted,1\n,accepted,1\n", Reader{Steps: []string{"accepted"}, Columns: Columns{Key: "id"}}, `t.csv:4: field "id": value "": want a non-empty key`},
		{"unknown status", "t.csv", "key,status,duration\nA,accepted,1\nA,lost,1\n", shipping, `t.csv:3: field "status": value "lost": want an ordered status (-steps: accepted,transfer,out-for-delivery,delivered) or a history status (-history: scanned,weighed)`},
		{"no statuses named", "t.csv", "key,status,duration\nA,accepted,1\n", Reader{}, `t.csv:2: field "status": value "accepted": want a column "step" of whole numbers, or the statuses named as ordered (-steps) or history (-history); none are named`},
		{"invalid json", "t.jsonl", `{"key":"A","status":"accepted","duration":1}` + "\n\n" + `{"key":"A",}`, shipping, `t.jsonl:3: want a JSON object on each line: invalid character '}' looking for beginning of object key string (column 12)`},
		{"json not an object", "t.jsonl", `["A"]`, shipping, `t.jsonl:1: want a JSON object on each line, not an array`},
		{"json missing key", "t.jsonl", `{"status":"accepted","duration":1}`, shipping, `t.jsonl:1: want a field "key"`},
		{"json missing duration", "t.jsonl", `{"key":"A","status":"accepted"}`, shipping, `t.jsonl:1: want a field "duration"`},
		{"json missing step", "t.jsonl", `{"key":"A","duration":1}`, shipping, `t.jsonl:1: want a field "step" or "status"`},
		{"json fractional duration", "t.jsonl", `{"key":"A","status":"accepted","duration":1.5}`, shipping, `t.jsonl:1: field "duration": value "1.5": want a whole number of rounds ≥ 0`},
		{"json string duration", "t.jsonl", `{"key":"A","status":"accepted","duration":"1"}`, shipping, `t.jsonl:1: field "duration": value "1": want a whole number of rounds ≥ 0, as a JSON number, not a string`},
		{"json bool duration", "t.jsonl", `{"key":"A","status":"accepted","duration":true}`, shipping, `t.jsonl:1: field "duration": value "true": want a number, not a boolean`},
		{"json null key", "t.jsonl", `{"key":null,"status":"accepted","duration":1}`, shipping, `t.jsonl:1: field "key": value "null": want a string`},
		{"json empty key", "t.jsonl", `{"key":"","status":"accepted","duration":1}`, shipping, `t.jsonl:1: field "key": value "": want a non-empty key`},
		{"json object line", "t.jsonl", `{"key":"A","line":{},"status":"accepted","duration":1}`, shipping, `t.jsonl:1: field "line": value "{}": want a string`},
		{"a status with a space", "t.csv", "key,status,duration\nA,created,1\nA,paid,1\n", Reader{Columns: Columns{Status: "status"}, Steps: []string{"created", " paid"}},
			`t.csv:3: field "status": value "paid": want an ordered status (-steps: created," paid") or a history status (-history: none)`},
		{"json unknown status", "t.jsonl", `{"key":"A","status":"Accepted","duration":1}`, shipping, `t.jsonl:1: field "status": value "Accepted": want an ordered status (-steps: accepted,transfer,out-for-delivery,delivered) or a history status (-history: scanned,weighed)`},
		{"json string step", "t.jsonl", `{"key":"A","step":"1","duration":1}`, shipping, `t.jsonl:1: field "step": value "1": want a whole number ≥ 0 (0 for a history-only record), as a JSON number, not a string`},
		{"duration past a time.Duration", "t.csv", "key,step,duration\nA,1,2562048h\n", Reader{Resolution: time.Nanosecond}, `t.csv:2: field "duration": value "2562048h": want a duration of at most 2562047h47m16.854775807s, the longest a time.Duration holds`},
		{"duration wrapping time.ParseDuration's sum", "t.csv", "key,step,duration\nA,1,9223372036854775808ns9223372036854775808ns5s\n", Reader{Resolution: time.Second}, `t.csv:2: field "duration": value "9223372036854775808ns9223372036854775808ns5s": want a duration of at most 2562047h47m16.854775807s, the longest a time.Duration holds`},
		{"arrival past a time.Duration", "t.csv", "key,step,duration,at\nA,1,1ns,2562048h\n", Reader{Resolution: time.Nanosecond}, `t.csv:2: field "at": value "2562048h": want a duration of at most 2562047h47m16.854775807s, the longest a time.Duration holds`},
		{"sub-nanosecond, rounded", "t.csv", "key,step,duration\nA,1,0.0000000001s\n", Reader{Resolution: time.Hour, Round: true}, `t.csv:2: field "duration": value "0.0000000001s": want a duration ≥ 0 with a unit, like "150ms" or "2.5s", in whole nanoseconds (-round rounds it to rounds of 1h0m0s)`},
		{"negative, rounded", "t.csv", "key,step,duration\nA,1,-1s\n", Reader{Resolution: time.Hour, Round: true}, `t.csv:2: field "duration": value "-1s": want a duration ≥ 0`},
		{"negative", "t.csv", "key,step,duration\nA,1,-1s\n", Reader{Resolution: time.Hour}, `t.csv:2: field "duration": value "-1s": want a duration ≥ 0, in whole rounds of 1h0m0s`},
		{"units without unit", "t.csv", "key,step,duration\nA,1,150\n", Reader{Resolution: time.Millisecond}, `t.csv:2: field "duration": value "150": want a duration ≥ 0 with a unit, like "150ms" or "2.5s", in whole nanoseconds and whole rounds of 1ms`},
		{"json field twice", "t.jsonl", `{"key":"A","step":1,"duration":1}` + "\n" + `{"key":"A","step":1,"duration":1,"key":"B"}`, shipping, `t.jsonl:2: want each field once; the record names "key" twice`},
		{"json field twice, escaped", "t.jsonl", `{"duration":1,"step":1,"key":"A","d\u0075ration":2}`, shipping, `t.jsonl:1: want each field once; the record names "duration" twice`},
		{"json path field twice", "t.jsonl", `{"key":"A","duration":1,"value":{"step":1,"step":2}}`, Reader{Columns: Columns{Step: "value.step"}}, `t.jsonl:1: want each field once; at the path "value.step", "value" names "step" twice`},
		{"json path object twice", "t.jsonl", `{"value":{"step":1},"key":"A","duration":1,"value":{"step":2}}`, Reader{Columns: Columns{Step: "value.step"}}, `t.jsonl:1: want each field once; at the path "value.step", the record names "value" twice`},
		{"json path object twice, the first lacking the rest", "t.jsonl", `{"value":{"x":1},"key":"A","duration":1,"value":{"step":2}}`, Reader{Columns: Columns{Step: "value.step"}}, `t.jsonl:1: want each field once; at the path "value.step", the record names "value" twice`},
		{"json path object twice, the first not an object", "t.jsonl", `{"value":3,"key":"A","duration":1,"value":{"step":2}}`, Reader{Columns: Columns{Step: "value.step"}}, `t.jsonl:1: want each field once; at the path "value.step", the record names "value" twice`},
		{"json path deeper twice", "t.jsonl", `{"key":"A","duration":1,"a":{"b":{"c":{"step":1}},"b":{"c":{"step":2}}}}`, Reader{Columns: Columns{Step: "a.b.c.step"}}, `t.jsonl:1: want each field once; at the path "a.b.c.step", "a" names "b" twice`},
		{"json path missing deep", "t.jsonl", `{"key":"A","duration":1,"a":{"b":{"c":{"stop":1}},"x":2}}`, Reader{Columns: Columns{Step: "a.b.c.step"}}, `t.jsonl:1: want a field at the path "a.b.c.step"; "a.b.c" has no "step"`},
		{"json path in text twice", "t.jsonl", `{"key":"A","duration":1,"value":"{\"step\":1,\"step\":2}"}`, Reader{Columns: Columns{Step: "value.step"}}, `t.jsonl:1: want each field once; at the path "value.step", "value" names "step" twice`},
		{"json lines in a .csv", "t.csv", "\n " + `{"key":"A","step":1,"duration":1}` + "\n", Reader{}, `t.csv:2: want a well-formed CSV row: bare " in non-quoted-field (line 2, column 3); the input looks like JSON Lines, which -input jsonl reads`},
		{"csv in a .jsonl", "t.jsonl", "key,step,duration\nA,1,1\n", Reader{}, `t.jsonl:1: want a JSON object on each line: invalid character 'k' looking for beginning of value (column 1); the input looks like CSV, which -input csv reads`},
		{"a byte-order mark on a later line", "t.jsonl", `{"key":"A","step":1,"duration":1}` + "\n \uFEFF" + `{"key":"B","step":1,"duration":1}` + "\n", Reader{}, `t.jsonl:2: want a JSON object on each line: a byte-order mark (EF BB BF) at column 2, which only the trace's first line may start with`},
		{"a byte-order mark before an object after a blank line", "t.jsonl", "\n\uFEFF" + `{"key":"B","step":1,"duration":1}` + "\n", Reader{}, `t.jsonl:2: want a JSON object on each line: a byte-order mark (EF BB BF) at column 1, which only the trace's first line may start with`},
		{"json lines read as csv", "t.csv", `{"key":"A","step":1,"duration":1}` + "\n", Reader{Format: CSV}, `t.csv:1: want a well-formed CSV row: bare " in non-quoted-field (line 1, column 2)`},
		{"named column missing", "t.csv", "key,step,duration\nA,1,1\n", Reader{Columns: Columns{At: "arrival"}}, `t.csv:1: want a column "arrival", as -at names it, in the header; it has "key", "step", "duration"`},
		{"named default missing", "t.csv", "key,step,duration\nA,1,1\n", Reader{Columns: Columns{Line: "line"}}, `t.csv:1: want a column "line", as -line names it, in the header; it has "key", "step", "duration"`},
		{"named field missing", "t.jsonl", `{"key":"A","step":1,"duration":1,"p":0}` + "\n" + `{"key":"A","step":1,"duration":1}`, Reader{Columns: Columns{Partition: "p"}}, `t.jsonl:2: want a field "p", as -partition names it`},
		{"named status with a step", "t.jsonl", `{"key":"A","step":1,"duration":1}`, Reader{Columns: Columns{Status: "state"}}, `t.jsonl:1: want a field "state", as -status names it`},
		{"negative units", "t.jsonl", `{"key":"A","step":1,"duration":"-1s"}`, Reader{Resolution: time.Millisecond}, `t.jsonl:1: field "duration": value "-1s": want a duration ≥ 0, in whole rounds of 1ms`},
		{"long value shortened", "t.csv", "key,step,duration\nA,1," + strings.Repeat("9", 100) + "x\n", shipping, `t.csv:2: field "duration": value "` + strings.Repeat("9", 80) + `…": want a whole number of rounds ≥ 0`},
		{"long value not UTF-8 shortened", "t.csv", "key,step,duration\nA,1," + strings.Repeat("\x80", 100) + "\n", shipping, `t.csv:2: field "duration": value "` + strings.Repeat(`\x80`, 77) + `…": want a whole number of rounds ≥ 0`},
		{"stdin", "-", "key,step,duration\nA,1,x\n", shipping, `<stdin>:2: field "duration": value "x": want a whole number of rounds ≥ 0`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := tt.r
			r.Name = tt.file
			d, err := NewDecoder(strings.NewReader(tt.input), r)
			if err != nil {
				t.Fatal(err)
			}
			var got error
			for {
				_, err := d.Next()
				if err == io.EOF {
					t.Fatal("no error; want one")
				}
				if err != nil {
					got = err
					break
				}
			}
			var e *Error
			if !errors.As(got, &e) {
				t.Fatalf("error %T %v; want *Error", got, got)
			}
			if got.Error() != tt.want {
				t.Errorf("message\n got %s\nwant %s", got, tt.want)
			}
			if e.Line != d.Line() {
				t.Errorf("Error.Line %d, Decoder.Line %d; want equal", e.Line, d.Line())
			}
			if _, again := d.Next(); again != got {
				t.Errorf("next call gave %v; want the same error again", again)
			}
		})
	}
}

func TestOptionErrors(t *testing.T) {
	for _, tt := range []struct {
		r    Reader
		want string
	}{
		{Reader{Steps: []string{"a", "b", "a"}}, `status "a" is named twice`},
		{Reader{Steps: []string{"a"}, History: []string{"a"}}, `status "a" is named in the ordered statuses and in the history statuses`},
		{Reader{History: []string{""}}, "an empty status in the history statuses"},
		{Reader{Resolution: -1}, "Resolution is -1ns"},
		{Reader{Round: true}, "Round needs a Resolution"},
		{Reader{Format: 7}, "unknown Format(7)"},
		{Reader{MaxRecordBytes: -1}, "MaxRecordBytes is -1"},
	} {
		_, err := NewDecoder(strings.NewReader(""), tt.r)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%+v: error %v; want %q", tt.r, err, tt.want)
		}
		for _, err := range tt.r.Events(strings.NewReader("")) {
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Events %+v: error %v; want %q", tt.r, err, tt.want)
			}
		}
	}
}

func TestReadErrorIsWrapped(t *testing.T) {
	boom := errors.New("boom")
	src := io.MultiReader(strings.NewReader("key,step,duration\nA,1,1\n"), iotestErr{boom})
	_, err := readAll(t, Reader{Name: "t.csv"}, "")
	if err == nil {
		t.Fatal("empty CSV read without an error")
	}
	var got error
	for _, err := range (Reader{Name: "t.csv"}).Events(src) {
		got = err
	}
	if !errors.Is(got, boom) || got.Error() != "t.csv:3: reading: boom" {
		t.Errorf("got %v; want t.csv:3: reading: boom", got)
	}
	src = io.MultiReader(strings.NewReader(`{"key":"A","step":1,"duration":1}`+"\n"), iotestErr{boom})
	for _, err := range (Reader{Name: "t.jsonl"}).Events(src) {
		got = err
	}
	if !errors.Is(got, boom) || got.Error() != "t.jsonl:2: reading: boom" {
		t.Errorf("got %v; want t.jsonl:2: reading: boom", got)
	}
}

type iotestErr struct{ err error }

func (r iotestErr) Read([]byte) (int, error) { return 0, r.err }

func TestLongJSONLine(t *testing.T) {
	long := strings.Repeat("x", 3*bufferSize)
	input := `{"key":"A","step":1,"duration":1,"pad":"` + long + `"}` + "\n" + `{"key":"B","step":1,"duration":2}`
	got, err := readAll(t, Reader{Name: "t.jsonl"}, input)
	if err != nil {
		t.Fatal(err)
	}
	want := []konvoy.Event{{Key: "A", Step: 1, Duration: 1}, {Key: "B", Step: 1, Duration: 2}}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

func TestStopEarly(t *testing.T) {
	d, err := NewDecoder(strings.NewReader("key,step,duration\nA,1,1\nB,1,1\nC,1,1\n"), Reader{Name: "t.csv"})
	if err != nil {
		t.Fatal(err)
	}
	for range d.All() {
		break
	}
	e, err := d.Next()
	if err != nil || e.Key != "B" || d.Line() != 3 {
		t.Errorf("after stopping at A: %v, %v, line %d; want B at line 3", e, err, d.Line())
	}
}

func TestOpen(t *testing.T) {
	dir := t.TempDir()
	content := "key,step,duration\nA,1,1\n"
	plain := filepath.Join(dir, "t.csv")
	zipped := filepath.Join(dir, "t.csv.gz")
	if err := os.WriteFile(plain, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write([]byte(content))
	zw.Close()
	if err := os.WriteFile(zipped, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{plain, zipped} {
		f, err := Open(p)
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(f)
		if err != nil || string(b) != content {
			t.Errorf("%s: read %q, %v; want %q", p, b, err, content)
		}
		if err := f.Close(); err != nil {
			t.Error(err)
		}
	}
	if _, err := Open(filepath.Join(dir, "none.csv")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v; want ErrNotExist", err)
	}
	if _, err := Decompress(strings.NewReader("\x1f\x8bnot gzip")); err == nil {
		t.Error("bad gzip header: no error")
	}
}

func TestFormat(t *testing.T) {
	for name, want := range map[string]Format{"a.csv": CSV, "A.CSV.GZ": CSV, "a.jsonl": JSONL, "a.ndjson.gz": JSONL, "a.json": JSONL} {
		if f, ok := FormatOf(name); !ok || f != want {
			t.Errorf("FormatOf(%q) = %v, %v; want %v", name, f, ok, want)
		}
	}
	if _, ok := FormatOf("a.txt"); ok {
		t.Error("FormatOf(a.txt) is known")
	}
	for _, f := range []Format{Auto, CSV, JSONL} {
		if g, err := ParseFormat(f.String()); err != nil || g != f {
			t.Errorf("ParseFormat(%q) = %v, %v", f, g, err)
		}
	}
	if _, err := ParseFormat("xml"); err == nil {
		t.Error("ParseFormat(xml): no error")
	}
}

// One field may serve two roles, the key as the line among them, in JSON
// Lines as in CSV: each role reads the same value.
func TestOneFieldServesTwoRoles(t *testing.T) {
	want := []konvoy.Event{{Key: "A", Line: "A", Step: 1, Duration: 1}, {Key: "B", Line: "B", Step: 1, Duration: 1}}
	for name, input := range map[string]string{
		"t.csv":   "key,step,duration\nA,1,1\nB,1,1\n",
		"t.jsonl": `{"key":"A","step":1,"duration":1}` + "\n" + `{"duration":1,"step":1,"key":"B"}` + "\n",
	} {
		got, err := readAll(t, Reader{Name: name, Columns: Columns{Line: "key"}}, input)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("%s: -want +got:\n%s", name, d)
		}
	}
	// Both duration and arrival from one field.
	got, err := readAll(t, Reader{Name: "t.jsonl", Columns: Columns{At: "duration"}}, `{"key":"A","step":1,"duration":3}`+"\n")
	if err != nil || len(got) != 1 || got[0].Arrival != 3 || got[0].Duration != 3 {
		t.Errorf("at and duration from one field: %+v, %v; want arrival 3 and duration 3", got, err)
	}
}

// Fields a decoder does not read may repeat, as extra CSV columns may.
func TestUnreadFieldsMayRepeat(t *testing.T) {
	got, err := readAll(t, Reader{Name: "t.jsonl"}, `{"note":1,"key":"A","note":2,"step":1,"duration":1,"meta":{"x":1,"x":2}}`+"\n")
	if err != nil || len(got) != 1 || got[0].Key != "A" {
		t.Errorf("got %+v, %v; want the event of key A", got, err)
	}
}

// A duration column named for a trace whose durations are drawn is not
// read, so the trace may lack it.
func TestNamedDurationUnderAModel(t *testing.T) {
	one := synth.Fixed(1)
	for name, input := range map[string]string{"t.csv": "key,step\nA,1\n", "t.jsonl": `{"key":"A","step":1}` + "\n"} {
		got, err := readAll(t, Reader{Name: name, Columns: Columns{Duration: "took"}, Durations: &one}, input)
		if err != nil || len(got) != 1 || got[0].Duration != 1 {
			t.Errorf("%s: %+v, %v; want one event of duration 1", name, got, err)
		}
	}
}

// A whole number is its digits, leading zeros and all, however many: a
// duration or step of 29 digits that is 1 was refused as past the largest
// int (found by a review); one past it is refused so, a step with what a
// step wants.
func TestLeadingZerosAreTheNumbersOwn(t *testing.T) {
	for _, c := range []struct {
		trace string
		want  string // "" for no error
	}{
		{"key,step,duration\nA,00000000000000000000000000001,00000000000000000000000000002\n", ""},
		{"key,step,duration\nA,99999999999999999999,1\n", `t.csv:2: field "step": value "99999999999999999999": want a whole number ≥ 0 that fits in an int`},
		{"key,step,duration\nA,1x,1\n", `t.csv:2: field "step": value "1x": want a whole number ≥ 0 (0 for a history-only record)`},
	} {
		var got []konvoy.Event
		var err error
		for e, e2 := range (Reader{Name: "t.csv"}).Events(strings.NewReader(c.trace)) {
			if err = e2; err != nil {
				break
			}
			got = append(got, e)
		}
		switch {
		case c.want == "" && (err != nil || len(got) != 1 || got[0].Step != 1 || got[0].Duration != 2):
			t.Errorf("%q: %v, %v; want step 1, duration 2", c.trace, got, err)
		case c.want != "" && (err == nil || err.Error() != c.want):
			t.Errorf("%q: %v; want %s", c.trace, err, c.want)
		}
	}
}
