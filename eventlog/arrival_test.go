package eventlog_test

import (
	"io"
	"strings"
	"testing"
	"time"

	gocmp "github.com/google/go-cmp/cmp"
	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/eventlog"
	"github.com/sirali-konvoy/konvoy/synth"
)

// read returns the events of trace read with r, their lines, and the
// error that ended them, if any.
func read(t *testing.T, r eventlog.Reader, trace string) ([]konvoy.Event, []int, error) {
	t.Helper()
	d, err := eventlog.NewDecoder(strings.NewReader(trace), r)
	if err != nil {
		t.Fatal(err)
	}
	var events []konvoy.Event
	var lines []int
	for e, err := range d.All() {
		if err != nil {
			return events, lines, err
		}
		events = append(events, e)
		lines = append(lines, d.Line())
	}
	return events, lines, nil
}

// kcat is a kcat -C -J export: payloads are JSON documents in strings.
const kcat = `{"topic":"orders","partition":1,"offset":7,"tstype":"create","ts":1700000000250,"broker":1,"key":"A","payload":"{\"status\":\"paid\"}"}
{"topic":"orders","partition":0,"offset":3,"tstype":"create","ts":1700000000000,"broker":1,"key":"B","payload":"{\"status\":\"new\"}"}
{"topic":"orders","partition":1,"offset":8,"tstype":"create","ts":1700000000250,"broker":1,"key":"A","payload":"{\"status\":\"shipped\"}"}
{"topic":"orders","partition":0,"offset":4,"tstype":"create","ts":1700000001500,"broker":1,"key":"B","payload":"{\"status\":\"paid\"}"}
`

func kcatReader() eventlog.Reader {
	two := synth.Fixed(2)
	return eventlog.Reader{Name: "export.jsonl", Columns: eventlog.Columns{Status: "payload.status", At: "ts", Duration: "none"},
		Steps: []string{"new", "paid", "shipped"}, AtFormat: eventlog.UnixMS, Resolution: 250 * time.Millisecond,
		Reorder: time.Second, Durations: &two}
}

// A kcat export runs as it is: statuses inside payloads, timestamps out
// of order within the window sorted, ties in input order, counted in
// rounds from the earliest, partitions as recorded, durations modelled.
func TestAKcatExportReads(t *testing.T) {
	events, lines, err := read(t, kcatReader(), kcat)
	if err != nil {
		t.Fatal(err)
	}
	want := []konvoy.Event{
		{Key: "B", Step: 1, Duration: 2, Arrival: 0, Partition: 0},
		{Key: "A", Step: 2, Duration: 2, Arrival: 1, Partition: 1},
		{Key: "A", Step: 3, Duration: 2, Arrival: 1, Partition: 1},
		{Key: "B", Step: 2, Duration: 2, Arrival: 6, Partition: 0},
	}
	if d := gocmp.Diff(want, events); d != "" {
		t.Errorf("events (-want +got):\n%s", d)
	}
	if d := gocmp.Diff([]int{2, 1, 3, 4}, lines); d != "" {
		t.Errorf("lines (-want +got):\n%s", d)
	}
}

func TestTimestampFormats(t *testing.T) {
	for _, tt := range []struct {
		format eventlog.TimeFormat
		at     [2]string
	}{
		{eventlog.RFC3339, [2]string{"2024-05-01T12:00:00.5+02:00", "2024-05-01T10:00:02Z"}},
		// RFC 3339's widest offsets, hour 23 and minute 59, either way.
		{eventlog.RFC3339, [2]string{"2024-05-01T23:59:00.5+23:59", "2024-05-01T00:00:02Z"}},
		{eventlog.RFC3339, [2]string{"2024-04-30T00:00:00.5-23:59", "2024-04-30T23:59:02Z"}},
		// RFC 3339 (5.6) allows "t" and "z" in lower case.
		{eventlog.RFC3339, [2]string{"2024-05-01t12:00:00.5+02:00", "2024-05-01t10:00:02z"}},
		{eventlog.UnixS, [2]string{"1700000000.5", "1700000002"}},
		{eventlog.UnixMS, [2]string{"1700000000500", "1700000002000"}},
		{eventlog.UnixUS, [2]string{"1700000000500000", "1700000002000000"}},
		{eventlog.UnixNS, [2]string{"1700000000500000000", "1700000002000000000"}},
		{eventlog.UnixNS, [2]string{"-9199999999000000000", "-9199999997500000000"}},
		// Leading zeros, and zeros below a nanosecond, say nothing more.
		{eventlog.UnixS, [2]string{"01700000000.5000000000", "0001700000002.000000000000"}},
		{eventlog.UnixMS, [2]string{"00000000001700000000500.000000", "1700000002000.0000000000"}},
	} {
		trace := "key,step,duration,at\na,1,0," + tt.at[0] + "\na,2,0," + tt.at[1] + "\n"
		events, _, err := read(t, eventlog.Reader{Name: "t.csv", AtFormat: tt.format, Resolution: 500 * time.Millisecond}, trace)
		if err != nil || len(events) != 2 || events[0].Arrival != 0 || events[1].Arrival != 3 {
			t.Errorf("%v: %+v, %v", tt.format, events, err)
		}
		if f, err := eventlog.ParseTimeFormat(tt.format.String()); f != tt.format || err != nil {
			t.Errorf("ParseTimeFormat(%v) = %v, %v", tt.format, f, err)
		}
	}
}

// Bad timestamps, windows, paths and partitions are FILE:LINE errors
// naming the field; nothing is dropped but with DropLate, which counts.
func TestBadArrivalsPathsAndPartitions(t *testing.T) {
	ms := eventlog.Reader{Name: "t.csv", AtFormat: eventlog.UnixMS, Resolution: 10 * time.Millisecond}
	reorder := ms
	reorder.Reorder = 100 * time.Millisecond
	for _, tt := range []struct {
		name  string
		r     eventlog.Reader
		trace string
		want  string
	}{
		{"not a whole round", ms, "key,step,duration,at\na,1,0,1000\na,1,0,1005\n",
			`t.csv:3: field "at": value "1005": want a whole multiple of one round, 10ms from the first arrival; it does not divide exactly, and rounding is off (-round rounds to the nearest)`},
		{"out of order", ms, "key,step,duration,at\na,1,0,1000\na,1,0,990\n",
			`t.csv:3: field "at": value "990": want arrivals in order: this one is earlier than the one before it (-reorder sorts arrivals within a window)`},
		{"late", reorder, "key,step,duration,at\na,1,0,1000\na,1,0,1200\na,1,0,1300\na,1,0,990\n",
			`t.csv:5: field "at": value "990": want an arrival no earlier than one already released; this one is more than the -reorder window, 100ms, late (-late drop drops such events and counts them)`},
		{"huge", ms, "key,step,duration,at\na,1,0,99999999999999999999999\n",
			`t.csv:2: field "at": value "99999999999999999999999": want a Unix time in ms (-at-format unix-ms), a whole number or a decimal within nanoseconds, between the years 1678 and 2261`},
		{"finer than a nanosecond", eventlog.Reader{Name: "t.csv", AtFormat: eventlog.UnixS, Resolution: time.Second}, "key,step,duration,at\na,1,0,1.0000000001\n",
			`t.csv:2: field "at": value "1.0000000001": want a Unix time in s (-at-format unix-s), a whole number or a decimal within nanoseconds, between the years 1678 and 2261`},
		{"bad rfc3339", eventlog.Reader{Name: "t.csv", AtFormat: eventlog.RFC3339, Resolution: time.Second}, "key,step,duration,at\na,1,0,yesterday\n",
			`t.csv:2: field "at": value "yesterday": want an RFC 3339 timestamp, like "2024-05-01T12:00:00.25Z", in whole nanoseconds, between the years 1678 and 2261 in UTC`},
		{"rfc3339 leap second", eventlog.Reader{Name: "t.csv", AtFormat: eventlog.RFC3339, Resolution: time.Second}, "key,step,duration,at\na,1,0,2016-12-31T23:59:60Z\n",
			`t.csv:2: field "at": value "2016-12-31T23:59:60Z": want a second from 00 to 59: Go's clock, and so konvoy's, counts no leap second (second 60)`},
		{"rfc3339 a year in range only at its offset", eventlog.Reader{Name: "t.csv", AtFormat: eventlog.RFC3339, Resolution: time.Second}, "key,step,duration,at\na,1,0,1678-01-01T00:00:00+01:00\n",
			`t.csv:2: field "at": value "1678-01-01T00:00:00+01:00": want an RFC 3339 timestamp, like "2024-05-01T12:00:00.25Z", in whole nanoseconds, between the years 1678 and 2261 in UTC`},
		{"rfc3339 one-digit hour", eventlog.Reader{Name: "t.csv", AtFormat: eventlog.RFC3339, Resolution: time.Second}, "key,step,duration,at\na,1,0,2024-05-01T1:00:00Z\n",
			`t.csv:2: field "at": value "2024-05-01T1:00:00Z": want an RFC 3339 timestamp, like "2024-05-01T12:00:00.25Z", in whole nanoseconds, between the years 1678 and 2261 in UTC`},
		{"rfc3339 offset +24:00", eventlog.Reader{Name: "t.csv", AtFormat: eventlog.RFC3339, Resolution: time.Second}, "key,step,duration,at\na,1,0,2024-05-01T12:00:00+24:00\n",
			`t.csv:2: field "at": value "2024-05-01T12:00:00+24:00": want an RFC 3339 timestamp, like "2024-05-01T12:00:00.25Z", in whole nanoseconds, between the years 1678 and 2261 in UTC`},
		{"rfc3339 offset -23:60", eventlog.Reader{Name: "t.csv", AtFormat: eventlog.RFC3339, Resolution: time.Second}, "key,step,duration,at\na,1,0,2024-05-01T12:00:00-23:60\n",
			`t.csv:2: field "at": value "2024-05-01T12:00:00-23:60": want an RFC 3339 timestamp, like "2024-05-01T12:00:00.25Z", in whole nanoseconds, between the years 1678 and 2261 in UTC`},
		{"too far from the first", eventlog.Reader{Name: "t.csv", AtFormat: eventlog.UnixNS, Resolution: time.Nanosecond}, "key,step,duration,at\na,1,0,-9000000000000000000\na,1,0,9000000000000000000\n",
			`t.csv:3: field "at": value "9000000000000000000": want an arrival within 2562047h47m16.854775807s of the first`},
		{"no at column", ms, "key,step,duration\na,1,0\n",
			`t.csv:1: want a column "at" (the arrival of each event, as unix-ms) in the header; it has "key", "step", "duration"`},
		// Without arrivals, every event's is 0: the window would hold them
		// all to the end of the trace, sorting nothing.
		{"a window without an at column", eventlog.Reader{Name: "t.csv", Resolution: time.Millisecond, Reorder: time.Second}, "key,step,duration\na,1,0\n",
			`t.csv:1: want a column "at" (the arrival of each event, which the Reorder window (-reorder) sorts) in the header; it has "key", "step", "duration"`},
		{"a window without an at field", eventlog.Reader{Name: "t.jsonl", Resolution: time.Millisecond, Reorder: time.Second}, `{"key":"a","step":1,"duration":"0s","at":"1ms"}` + "\n" + `{"key":"a","step":1,"duration":"0s"}` + "\n",
			`t.jsonl:2: want a field "at", the arrival, which the Reorder window (-reorder) sorts`},
		{"below a nanosecond after zeros", eventlog.Reader{Name: "t.csv", AtFormat: eventlog.UnixS, Resolution: time.Second}, "key,step,duration,at\na,1,0,1.00000000000000000001\n",
			`t.csv:2: field "at": value "1.00000000000000000001": want a Unix time in s (-at-format unix-s), a whole number or a decimal within nanoseconds, between the years 1678 and 2261`},
		{"bad partition", eventlog.Reader{Name: "t.csv"}, "key,step,duration,partition\na,1,0,-1\n",
			`t.csv:2: field "partition": value "-1": want a partition number, a whole number from 0 to 2147483646`},
		{"partition lost", eventlog.Reader{Name: "t.jsonl"}, `{"key":"a","step":1,"duration":1,"partition":0}` + "\n" + `{"key":"a","step":1,"duration":1}` + "\n",
			`t.jsonl:2: want a field "partition", as the first record has`},
		{"partition found", eventlog.Reader{Name: "t.jsonl"}, `{"key":"a","step":1,"duration":1}` + "\n" + `{"key":"a","step":1,"duration":1,"partition":3}` + "\n",
			`t.jsonl:2: field "partition": value "3": want no partition field, as the first record has none: a trace records every event's partition, or none`},
		// Arrivals too: every record has one or none, a record without one
		// never arriving at 0 (found by a review).
		{"arrival lost", eventlog.Reader{Name: "t.jsonl"}, `{"key":"a","step":1,"duration":1,"at":5}` + "\n" + `{"key":"b","step":1,"duration":1}` + "\n",
			`t.jsonl:2: want a field "at", the arrival, as the first record has: a trace records every event's arrival, or none`},
		{"arrival found", eventlog.Reader{Name: "t.jsonl"}, `{"key":"a","step":1,"duration":1}` + "\n" + `{"key":"b","step":1,"duration":1,"at":5}` + "\n",
			`t.jsonl:2: field "at": value "5": want no arrival field, as the first record has none: a trace records every event's arrival, or none`},
		{"missing path", eventlog.Reader{Name: "t.jsonl", Columns: eventlog.Columns{Step: "value.step"}}, `{"key":"a","duration":1,"value":{"stap":1}}` + "\n",
			`t.jsonl:1: want a field at the path "value.step"; "value" has no "step"`},
		{"path through a number", eventlog.Reader{Name: "t.jsonl", Columns: eventlog.Columns{Step: "value.step"}}, `{"key":"a","duration":1,"value":3}` + "\n",
			`t.jsonl:1: field "value.step": value "3": want an object at "value"; it is a number`},
		{"path through text", kcatReader(), `{"key":"a","ts":1,"payload":"paid"}` + "\n",
			`export.jsonl:1: field "payload.status": value "paid": want an object at "payload", or a string that holds one; it is a string that does not`},
		{"window overflow", func() eventlog.Reader { r := reorder; r.Reorder, r.MaxReorderBytes = time.Hour, 600; return r }(),
			"key,step,duration,at\n" + strings.Repeat(strings.Repeat("k", 100)+",1,0,1000\n", 3), `t.csv:4: want the events held in the -reorder window, 1h0m0s, to take at most 600 bytes (Reader.MaxReorderBytes); 3 events within it take more: narrow -reorder`},
	} {
		_, _, err := read(t, tt.r, tt.trace)
		if err == nil || err.Error() != tt.want {
			t.Errorf("%s: error\n%v\nwant\n%s", tt.name, err, tt.want)
		}
		if full := tt.name == "window overflow"; eventlog.WindowFull(err) != full {
			t.Errorf("%s: WindowFull %v; want %v", tt.name, !full, full)
		}
	}
}

func TestLateEventsDroppedAreCounted(t *testing.T) {
	r := eventlog.Reader{Name: "t.csv", AtFormat: eventlog.UnixMS, Resolution: time.Millisecond, Reorder: 100 * time.Millisecond, DropLate: true}
	d, err := eventlog.NewDecoder(strings.NewReader("key,step,duration,at\na,1,0,1000\nb,1,0,1200\nc,1,0,1300\nd,1,0,990\ne,1,0,1150\n"), r)
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for e, err := range d.All() {
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, e.Key)
	}
	if strings.Join(keys, "") != "aebc" || d.Dropped() != 1 {
		t.Errorf("keys %v, %d dropped; want a, e, b, c and one (d) dropped", keys, d.Dropped())
	}
	// A Trace counts them too, per Scan.
	tr := eventlog.NewTraceOf(func() (io.ReadCloser, error) {
		return io.NopCloser(strings.NewReader("key,step,duration,at\na,1,0,1000\nb,1,0,1200\nc,1,0,1300\nd,1,0,990\ne,1,0,1150\n")), nil
	}, r)
	for range 2 {
		if err := tr.Scan(0, nil); err != nil || tr.Dropped() != 1 {
			t.Errorf("Trace.Scan: %v, %d dropped; want one", err, tr.Dropped())
		}
	}
}

// An event dropped as late counts for none of the values rounded: its
// duration, rounded as it was read, counted where its arrival, rounded
// only when released, did not (found by a review). Here E is dropped,
// with a duration of 1s in rounds of 3s, then with an arrival of 1s;
// A's duration of 4s, kept, is the one value rounded.
func TestADroppedEventCountsNoValueRounded(t *testing.T) {
	r := eventlog.Reader{Name: "t.csv", Resolution: 3 * time.Second, Round: true, Reorder: 5 * time.Second, DropLate: true}
	for _, e := range []string{"E,L,1,1s,0s", "E,L,1,3s,1s"} {
		d, n := decodeAll(t, "key,line,step,duration,at\nA,L,1,4s,30s\nD,L,1,3s,300s\n"+e+"\n", r)
		if n != 2 || d.Dropped() != 1 || d.Rounded() != 1 {
			t.Errorf("%s: %d events, %d dropped, %d rounded; want 2, 1 and 1 (A's duration)", e, n, d.Dropped(), d.Rounded())
		}
	}
}

// An event dropped as late counts for no status step either: C, the one
// record whose step a status gave, is dropped, and the report's note that
// every step came from the step column went missing (found by a review).
func TestADroppedEventCountsNoStatusStep(t *testing.T) {
	in := `{"key":"A","step":1,"duration":"1s","at":"10s"}
{"key":"B","step":1,"duration":"1s","at":"30s"}
{"key":"C","status":"paid","duration":"1s","at":"1s"}
{"key":"D","step":1,"duration":"1s","at":"31s"}
`
	r := eventlog.Reader{Name: "t.jsonl", Resolution: time.Second, Reorder: 5 * time.Second, DropLate: true, Steps: []string{"paid"}}
	d, n := decodeAll(t, in, r)
	if n != 3 || d.Dropped() != 1 || d.StatusSteps() != 0 {
		t.Errorf("%d events, %d dropped, %d status steps; want 3, 1 and 0", n, d.Dropped(), d.StatusSteps())
	}
}

// decodeAll decodes the whole of trace under r, failing t on an error,
// and returns the decoder and the events it gave.
func decodeAll(t *testing.T, trace string, r eventlog.Reader) (*eventlog.Decoder, int) {
	t.Helper()
	d, err := eventlog.NewDecoder(strings.NewReader(trace), r)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, err := range d.All() {
		if err != nil {
			t.Fatal(err)
		}
		n++
	}
	return d, n
}

// Modelled durations are the same for the same seed, differ for another,
// and need no duration column.
func TestModelledDurations(t *testing.T) {
	trace := "key,step\n" + strings.Repeat("a,1\n", 50)
	dist := synth.LogNormal(1, 0.5)
	draw := func(seed uint64) []int {
		events, _, err := read(t, eventlog.Reader{Name: "t.csv", Durations: &dist, Seed: seed}, trace)
		if err != nil {
			t.Fatal(err)
		}
		var d []int
		for _, e := range events {
			d = append(d, e.Duration)
		}
		return d
	}
	if a, b, c := draw(1), draw(1), draw(2); !gocmp.Equal(a, b) || gocmp.Equal(a, c) {
		t.Errorf("seed 1: %v and %v; seed 2: %v", a, b, c)
	}
}

func TestReaderOptionsAreChecked(t *testing.T) {
	for _, r := range []eventlog.Reader{
		{AtFormat: eventlog.UnixMS},
		{Reorder: time.Second},
		{Resolution: time.Second, Reorder: -1},
		{Resolution: time.Second, DropLate: true},
		{MaxReorderBytes: -1},
		{AtFormat: 99, Resolution: 1},
	} {
		if _, err := eventlog.NewDecoder(strings.NewReader(""), r); err == nil {
			t.Errorf("%+v: no error", r)
		}
	}
}
