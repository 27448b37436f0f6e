package eventlog

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
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

// readEvents reads data with r to its end or first error, and checks that
// the error, if any, is an *Error that names the trace and a line, as every
// problem with a trace's content must.
func readEvents(t *testing.T, data []byte, r Reader) ([]konvoy.Event, *Error) {
	t.Helper()
	var events []konvoy.Event
	for e, err := range r.Events(bytes.NewReader(data)) {
		if err != nil {
			return events, checkError(t, err, r.displayName())
		}
		if e.Key == "" || e.Step < 0 || e.Duration < 0 || e.Arrival < 0 {
			t.Fatalf("accepted an invalid event %+v", e)
		}
		events = append(events, e)
	}
	return events, nil
}

// checkError checks that err is an *Error whose message starts FILE:LINE:.
func checkError(t *testing.T, err error, file string) *Error {
	t.Helper()
	e, ok := err.(*Error)
	if !ok {
		t.Fatalf("error %T %v; want *Error", err, err)
	}
	if prefix := fmt.Sprintf("%s:%d: ", file, e.Line); e.File != file || e.Line < 1 || !strings.HasPrefix(e.Error(), prefix) {
		t.Fatalf("error %q; want it to start %q with a line ≥ 1", e.Error(), prefix)
	}
	return e
}

// fuzzCap is the cap on records a fuzz mode stands for, 1 to 64 bytes, so
// that the inputs fuzzing makes reach it.
func fuzzCap(mode uint8) int { return 1 + int(mode>>2) }

// roundTrip reads data; when it is accepted, it writes the events back in
// CSV unless a value holds a CRLF (which CSV reads as a newline) or a NUL
// byte (which CSV cannot hold), and in JSON Lines unless a value is not
// UTF-8 (which JSON Lines reads, keeping the bytes, but cannot hold), and
// checks that reading them again gives the same events. It also reads data
// with a cap of maxBytes on records, and checks that the cap only ever cuts
// the stream short (see checkCapped).
func roundTrip(t *testing.T, data []byte, r Reader, maxBytes int) {
	events, err := readEvents(t, data, r)
	capped := r
	capped.MaxRecordBytes = maxBytes
	cevents, cerr := readEvents(t, data, capped)
	checkCapped(t, events, err, cevents, cerr)
	if err != nil {
		return
	}
	var formats []Format
	if !slices.ContainsFunc(events, func(e konvoy.Event) bool {
		return strings.Contains(e.Key+e.Line, "\r\n") || strings.ContainsRune(e.Key+e.Line, 0)
	}) {
		formats = append(formats, CSV)
	}
	if !slices.ContainsFunc(events, func(e konvoy.Event) bool { return !utf8.ValidString(e.Key + e.Line) }) {
		formats = append(formats, JSONL)
	}
	for _, f := range formats {
		var buf bytes.Buffer
		if err := WriteAll(&buf, f, konvoy.Values(events)); err != nil {
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

// checkCapped compares a read with a cap on records with one without: the
// capped read gives the same events up to where it stops, and it stops
// either where the other does, on the same record, or earlier, on a record
// longer than the cap.
func checkCapped(t *testing.T, events []konvoy.Event, err *Error, capped []konvoy.Event, cerr *Error) {
	t.Helper()
	if len(capped) > len(events) || len(capped) > 0 && !cmp.Equal(capped, events[:len(capped)]) {
		t.Fatalf("capped read gave %d events, not a prefix of the %d read without a cap", len(capped), len(events))
	}
	switch {
	case cerr == nil && (err != nil || len(capped) != len(events)):
		t.Fatalf("capped read ended without an error after %d events; without a cap: %d events, %v", len(capped), len(events), err)
	case cerr == nil, strings.Contains(cerr.Want, "(Reader.MaxRecordBytes)"):
	case err == nil || len(capped) != len(events) || cerr.Line != err.Line:
		t.Fatalf("capped read: %d events, %v; without a cap: %d events, %v", len(capped), cerr, len(events), err)
	}
}

func FuzzCSV(f *testing.F) {
	f.Add([]byte("key,line,status,duration\nA,H1,accepted,1\n\"B,\n\"\"x\"\"\",H2,scanned,0\r\n"), uint8(0))
	f.Add([]byte("\uFEFFkey,step,duration,at,extra\r\nA,1,150ms,1s,\"a\r\nb\"\r\n\r\n"), uint8(1))
	f.Add([]byte("key,status,step,duration\nA,bogus,2,15ms\n"), uint8(2))
	f.Add([]byte("key,step,duration\nA,1,1\n\"B\n\"\"x\"\"\",1,1\r\nCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCC,1,1\n"), uint8(120))
	f.Fuzz(func(t *testing.T, data []byte, mode uint8) {
		roundTrip(t, data, fuzzReader(CSV, mode), fuzzCap(mode))
	})
}

func FuzzJSONL(f *testing.F) {
	f.Add([]byte(`{"key":"A","line":"H1","status":"accepted","duration":1}`+"\n"+`{"key":"B\n","step":0,"duration":0,"at":3}`), uint8(0))
	f.Add([]byte("\uFEFF{\"k\\u0065y\" : 7, \"step\":1, \"duration\":\"150ms\", \"x\":[{\"}\":1}]}\r\n\n"), uint8(1))
	f.Add([]byte(`{"key":"A","status":"delivered","duration":"15ms","at":0}`), uint8(2))
	f.Add([]byte(`{"key":"A","step":1,"duration":1}`+"\r\n"+`{"key":"B","step":1,"duration":1,"x":[[]]}`), uint8(132))
	f.Fuzz(func(t *testing.T, data []byte, mode uint8) {
		roundTrip(t, data, fuzzReader(JSONL, mode), fuzzCap(mode))
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

// FuzzDecompressed reads data as Open would, in an unknown format, after
// compressing it with gzip and damaging the result when cut and flip say so:
// cut, when it is not 0, cuts the compressed stream to its first cut bytes,
// and flip, when it is not 0, changes one of its bytes. Whatever it is given,
// a read ends with the events or with an *Error naming the trace and a line,
// or, when the gzip header is damaged, with Decompress's error.
func FuzzDecompressed(f *testing.F) {
	f.Add([]byte("key,step,duration\nA,1,1\n"), uint16(0), uint16(0), uint8(0))
	f.Add([]byte(`{"key":"A","step":1,"duration":1}`+"\n"), uint16(30), uint16(0), uint8(1))
	f.Add([]byte("key,step,duration\nA,1,1\n"), uint16(0), uint16(25), uint8(0x40))
	f.Add([]byte("\x1f\x8b\x08\x00\x00\x00"), uint16(0), uint16(0), uint8(0))
	f.Add([]byte("\x00\x00\x00"), uint16(0), uint16(0), uint8(0))
	f.Fuzz(func(t *testing.T, data []byte, cut, at uint16, flip uint8) {
		var buf bytes.Buffer
		zw := gzip.NewWriter(&buf)
		zw.Write(data)
		zw.Close()
		zipped := buf.Bytes()
		if flip != 0 {
			zipped[int(at)%len(zipped)] ^= flip
		}
		if cut != 0 {
			zipped = zipped[:int(cut)%len(zipped)]
		}
		for _, input := range [][]byte{data, zipped} {
			src, err := Decompress(bytes.NewReader(input))
			if err != nil {
				continue
			}
			r := Reader{Name: "-", MaxRecordBytes: 1 + int(at%64)}
			for _, err := range r.Events(src) {
				if err != nil {
					checkError(t, err, stdinName)
				}
			}
		}
	})
}
