package eventlog

import (
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"
	"unsafe"

	"github.com/google/go-cmp/cmp"
	"github.com/sirali-konvoy/konvoy"
)

// repeat is a stream of n bytes that repeat a pattern, made as it is read.
type repeat struct {
	pattern string
	n, off  int64
}

func (r *repeat) Read(p []byte) (int, error) {
	if r.off >= r.n {
		return 0, io.EOF
	}
	if int64(len(p)) > r.n-r.off {
		p = p[:r.n-r.off]
	}
	for i := range p {
		p[i] = r.pattern[(r.off+int64(i))%int64(len(r.pattern))]
	}
	r.off += int64(len(p))
	return len(p), nil
}

// counting counts the bytes read through it.
type counting struct {
	r io.Reader
	n int64
}

func (c *counting) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// hostile is a stream of prefix, n bytes that repeat pattern, and suffix.
func hostile(prefix, pattern string, n int64, suffix string) io.Reader {
	return io.MultiReader(strings.NewReader(prefix), &repeat{pattern: pattern, n: n}, strings.NewReader(suffix))
}

// drain reads src with r to its end or first error, and returns the number
// of events, how many bytes it read from src, how many bytes it allocated on
// the way (runtime.MemStats.TotalAlloc, which the garbage collector does not
// lower), and the error.
func drain(t *testing.T, r Reader, src io.Reader) (events int, read int64, alloc uint64, err error) {
	t.Helper()
	c := &counting{r: src}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for _, e := range r.Events(c) {
		if e != nil {
			err = e
			break
		}
		events++
	}
	runtime.ReadMemStats(&after)
	return events, c.n, after.TotalAlloc - before.TotalAlloc, err
}

const (
	mib = 1 << 20
	gib = 1 << 30
)

// TestHostileInput reads inputs that once took gigabytes, each made as it is
// read, and checks the error, where reading stopped and what it allocated.
// Reading stops within a record's length and a few read buffers of the
// problem, so most of each stream is never made at all.
func TestHostileInput(t *testing.T) {
	header := "key,line,step,duration\n"
	for _, tt := range []struct {
		name     string
		r        Reader
		src      io.Reader
		want     string // the whole message
		maxRead  int64  // the most bytes reading may take from the stream
		maxAlloc uint64 // the most bytes it may allocate
	}{
		{"a gigabyte of zeros as CSV", Reader{Name: "z.csv"}, hostile("", "\x00", gib, ""),
			"z.csv:1: want a CSV or JSON Lines trace; the input starts with binary data (a NUL byte at byte 0)", 2 * bufferSize, mib},
		{"a gigabyte of zeros as JSON Lines", Reader{Name: "z.jsonl"}, hostile("", "\x00", gib, ""),
			"z.jsonl:1: want a CSV or JSON Lines trace; the input starts with binary data (a NUL byte at byte 0)", 2 * bufferSize, mib},
		{"a gigabyte of zeros of unknown format", Reader{Name: "-"}, hostile("", "\x00", gib, ""),
			"<stdin>:1: want a CSV or JSON Lines trace; the input starts with binary data (a NUL byte at byte 0)", 2 * bufferSize, mib},
		{"zeros after a good row", Reader{Name: "z.csv"}, hostile(header+"A,H1,1,1\n", "\x00", gib, ""),
			"z.csv:3: want a CSV or JSON Lines trace; the input has binary data (a NUL byte at byte 32)", 2 * bufferSize, mib},
		{"a gigabyte line of CSV, a 1 MiB cap", Reader{Name: "t.csv", MaxRecordBytes: mib}, hostile(header, "k", gib, ",H1,1,1\n"),
			"t.csv:2: want a record of at most 1048576 bytes (Reader.MaxRecordBytes); this one is longer", mib + 3*bufferSize, 16 * mib},
		{"a gigabyte quoted CSV field of newlines, a 1 MiB cap", Reader{Name: "t.csv", MaxRecordBytes: mib}, hostile(header+`"`, "\n", gib, `",H1,1,1`+"\n"),
			"t.csv:2: want a record of at most 1048576 bytes (Reader.MaxRecordBytes); this one is longer", mib + 3*bufferSize, 16 * mib},
		{"a gigabyte CSV header, a 1 MiB cap", Reader{Name: "t.csv", MaxRecordBytes: mib}, hostile("", "k", gib, "\n"),
			"t.csv:1: want a record of at most 1048576 bytes (Reader.MaxRecordBytes); this one is longer", mib + 3*bufferSize, 16 * mib},
		{"a gigabyte JSON line, a 1 MiB cap", Reader{Name: "t.jsonl", MaxRecordBytes: mib}, hostile(`{"key":"`, "k", gib, `"}`),
			"t.jsonl:1: want a record of at most 1048576 bytes (Reader.MaxRecordBytes); this one is longer", mib + 3*bufferSize, 16 * mib},
		// encoding/csv spends some 40 bytes on each field: 650 MB for these.
		{"a 16 MiB row of commas", Reader{Name: "t.csv"}, hostile(header, ",", 16*mib, "\n"),
			fmt.Sprintf("t.csv:2: want 4 fields, as in the header; the row has %d", 16*mib+1), 16*mib + 64, mib},
		{"a 16 MiB header of commas", Reader{Name: "t.csv"}, hostile("", ",", 16*mib, "\n"),
			fmt.Sprintf("t.csv:1: want a header of at most 65536 columns (eventlog.MaxColumns); it has %d", 16*mib+1), 16*mib + 64, 16 * mib},
		{"a row of commas over the cap", Reader{Name: "t.csv"}, hostile(header, ",", gib, "\n"),
			"t.csv:2: want a record of at most 16777216 bytes (Reader.MaxRecordBytes); this one is longer", 16*mib + 3*bufferSize, mib},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, read, alloc, err := drain(t, tt.r, tt.src)
			var e *Error
			if !errors.As(err, &e) || err.Error() != tt.want {
				t.Fatalf("error %v\nwant %s", err, tt.want)
			}
			if read > tt.maxRead {
				t.Errorf("read %d bytes of the stream; want at most %d", read, tt.maxRead)
			}
			if alloc > tt.maxAlloc {
				t.Errorf("allocated %d bytes; want at most %d", alloc, tt.maxAlloc)
			}
		})
	}
}

// TestLongValuesWithinTheCap reads records just under the default cap that
// are costly to parse: deep nesting, a long array, a long number, a long key.
// Each must cost a small multiple of its length in allocations, whatever it
// is made of.
func TestLongValuesWithinTheCap(t *testing.T) {
	n := int64(DefaultMaxRecordBytes - 100)
	for _, tt := range []struct {
		name  string
		r     Reader
		src   io.Reader
		want  string // the message, or "" for no error
		alloc uint64
	}{
		{"deep nesting", Reader{Name: "t.jsonl"}, hostile("", "[", n, "\n"),
			"t.jsonl:1: want a JSON object on each line: nested deeper than 10000 levels of objects and arrays, the most encoding/json reads (column 10001)", 48 * mib},
		{"deep nesting in an object", Reader{Name: "t.jsonl"}, hostile(`{"key":"A","step":1,"duration":1,"x":`, "[", n, "\n"),
			"t.jsonl:1: want a JSON object on each line: nested deeper than 10000 levels of objects and arrays, the most encoding/json reads (column 10037)", 48 * mib},
		{"a long array", Reader{Name: "t.jsonl"}, hostile(`{"key":"A","step":1,"duration":1,"x":[`, "1,", n, `1]}`),
			"", 48 * mib},
		{"a long number", Reader{Name: "t.jsonl"}, hostile(`{"key":"A","step":1,"duration":`, "9", n, "}\n"),
			`t.jsonl:1: field "duration": value "` + strings.Repeat("9", 80) + `…": want a whole number of rounds ≥ 0 that fits in an int`, 64 * mib},
		{"a long number with units", Reader{Name: "t.jsonl", Resolution: 1}, hostile(`{"key":"A","step":1,"duration":`, "9", n, "}\n"),
			`t.jsonl:1: field "duration": value "` + strings.Repeat("9", 80) + `…": want a duration ≥ 0 with a unit, like "150ms" or "2.5s", in whole nanoseconds and whole rounds of 1ns`, 96 * mib},
		// encoding/csv grows its buffers by a quarter at a time, which costs
		// five times the record's length in allocations for each of two.
		{"a long key", Reader{Name: "t.csv", MaxNameBytes: int(n)}, hostile("key,step,duration\n", "k", n, ",1,1\n"),
			"", 192 * mib},
	} {
		t.Run(tt.name, func(t *testing.T) {
			events, _, alloc, err := drain(t, tt.r, tt.src)
			if tt.want == "" && (err != nil || events != 1) || tt.want != "" && (err == nil || err.Error() != tt.want) {
				t.Fatalf("%d events, error %v\nwant %q", events, err, tt.want)
			}
			t.Logf("allocated %d MiB", alloc/mib)
			if alloc > tt.alloc {
				t.Errorf("allocated %d MiB; want at most %d MiB", alloc/mib, tt.alloc/mib)
			}
		})
	}
}

// TestMaxRecordBytes checks that the cap is exact, in both formats, at both
// ends of a record and on either side of a read buffer's size: a record of
// MaxRecordBytes bytes, its line end (LF or CRLF) not counted, is read, and one
// a byte longer is refused, at the line where it starts.
func TestMaxRecordBytes(t *testing.T) {
	// Each makes a record of n bytes, padding its key, and returns it and
	// its key.
	csvRecord := func(n int, quoted bool) (string, string) {
		if quoted { // "k…\nk",1,1 spans two lines
			key := strings.Repeat("k", n-len(`"",1,1`)-2) + "\nk"
			return `"` + key + `",1,1`, key
		}
		key := strings.Repeat("k", n-len(",1,1"))
		return key + ",1,1", key
	}
	jsonRecord := func(n int, _ bool) (string, string) {
		key := strings.Repeat("k", n-len(`{"key":"","step":1,"duration":1}`))
		return `{"key":"` + key + `","step":1,"duration":1}`, key
	}
	for _, max := range []int{40, bufferSize - 1, bufferSize + 1, 3 * bufferSize} {
		for _, f := range []struct {
			name   string
			header string
			record func(int, bool) (string, string)
		}{{"t.csv", "key,step,duration", csvRecord}, {"t.jsonl", "", jsonRecord}} {
			for _, end := range []string{"\n", "\r\n", ""} {
				for _, quoted := range []bool{false, true} {
					if quoted && f.header == "" {
						continue
					}
					name := fmt.Sprintf("%s max %d end %q quoted %v", f.name, max, end, quoted)
					t.Run(name, func(t *testing.T) {
						checkCap(t, Reader{Name: f.name, MaxRecordBytes: max, MaxNameBytes: max}, f.header, f.record, max, end, quoted)
					})
				}
			}
		}
	}
}

// checkCap reads, after a header if there is one and a short record, a
// record of max bytes and then one of max+1 bytes, each followed by end
// (and the record of max bytes by a line end in any case).
func checkCap(t *testing.T, r Reader, header string, record func(int, bool) (string, string), max int, end string, quoted bool) {
	t.Helper()
	short, shortKey := record(len(`{"key":"kk","step":1,"duration":1}`), false)
	exact, exactKey := record(max, quoted)
	over, _ := record(max+1, quoted)
	input := short + "\n" + exact + "\n"
	line := 3 // where over starts
	if header != "" {
		input = header + "\r\n" + input
		line++
	}
	if quoted {
		line++
	}
	want := []konvoy.Event{{Key: shortKey, Step: 1, Duration: 1}, {Key: exactKey, Step: 1, Duration: 1}}
	got, err := readAll(t, r, input+exact+end)
	if err != nil {
		t.Fatalf("a record of exactly %d bytes: %v", max, err)
	}
	if len(got) != 3 || !cmp.Equal(want, got[:2]) || got[2].Key != exactKey {
		t.Fatalf("a record of exactly %d bytes: read %d events, not the records written", max, len(got))
	}
	got, err = readAll(t, r, input+over+end+short+end)
	wantErr := fmt.Sprintf("%s:%d: want a record of at most %d bytes (Reader.MaxRecordBytes); this one is longer", r.Name, line, max)
	if err == nil || err.Error() != wantErr || len(got) != 2 {
		t.Fatalf("a record of %d bytes: %d events, error %v\nwant 2 events and %s", max+1, len(got), err, wantErr)
	}
}

// TestMaxRecordBytesCR checks a CR after a record of MaxRecordBytes bytes:
// it is a line end only when a LF follows it, or when it ends the input.
func TestMaxRecordBytesCR(t *testing.T) {
	for _, name := range []string{"t.csv", "t.jsonl"} {
		r := Reader{Name: name, MaxRecordBytes: 33}
		rec := `{"key":"k","step":1,"duration":1}` // 33 bytes
		if name == "t.csv" {
			rec = "key,step,duration\n" + strings.Repeat("k", 29) + ",1,1"
		}
		for input, ok := range map[string]bool{rec + "\r": true, rec + "\r\n": true, rec + "\r\r\n": false, rec + "\rx\n": false, rec + "x": false} {
			_, err := readAll(t, r, input)
			if ok != (err == nil) {
				t.Errorf("%s %q: error %v; want ok %v", name, input, err, ok)
			}
		}
	}
}

func TestMaxRecordBytesOption(t *testing.T) {
	_, err := NewDecoder(strings.NewReader(""), Reader{MaxRecordBytes: -1})
	if err == nil || err.Error() != "eventlog: MaxRecordBytes is -1; want 0 (the default, 16777216) or more" {
		t.Errorf("negative MaxRecordBytes: %v", err)
	}
	// 0 is the default: a record of DefaultMaxRecordBytes bytes is read.
	key := strings.Repeat("k", DefaultMaxRecordBytes-len(",1,1"))
	got, err := readAll(t, Reader{Name: "t.csv", MaxNameBytes: len(key)}, "key,step,duration\n"+key+",1,1\n")
	if err != nil || len(got) != 1 || got[0].Key != key {
		t.Errorf("a record of DefaultMaxRecordBytes bytes: %d events, %v", len(got), err)
	}
}

// TestFieldCounts checks rows with more fields than the header, which the
// parser counts when the row is short and plain, and the limiter otherwise,
// and headers as wide as MaxColumns allows, and wider.
func TestFieldCounts(t *testing.T) {
	header := "key,step,duration\n"
	long := strings.Repeat("k", 2*bufferSize)
	wide := strings.Repeat("x,", MaxColumns-3) + "key,step,duration"
	for _, tt := range []struct {
		name, input, want string
	}{
		{"short plain row", header + "A,1,1\nA,1,1,x,y\n", "t.csv:3: want 3 fields, as in the header; the row has 5"},
		{"short quoted row", header + "A,1,1\n\"A\",1,1,x,\"y\n\"\n", "t.csv:3: want 3 fields, as in the header; the row has 5"},
		{"long row", header + "A,1,1\n" + long + ",1,1,x,y\r\n", "t.csv:3: want 3 fields, as in the header; the row has 5"},
		{"long row at the end", header + long + ",1,1,x,y", "t.csv:2: want 3 fields, as in the header; the row has 5"},
		{"a header of MaxColumns+1 columns", "y," + wide + "\n", "t.csv:1: want a header of at most 65536 columns (eventlog.MaxColumns); it has 65537"},
		{"a header of MaxColumns columns", wide + "\n" + strings.Repeat(",", MaxColumns-3) + "A,1,1\n", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			d, err := NewDecoder(strings.NewReader(tt.input), Reader{Name: "t.csv"})
			if err != nil {
				t.Fatal(err)
			}
			for {
				_, err = d.Next()
				if err != nil {
					break
				}
			}
			if tt.want == "" {
				if err != io.EOF {
					t.Fatalf("error %v; want none", err)
				}
				return
			}
			wantError(t, d, err, tt.want)
		})
	}
}

// TestWideHeaderListed checks that a message lists at most maxListed of the
// header's columns: a header of 16 MiB of commas once made a 64 MB message.
func TestWideHeaderListed(t *testing.T) {
	_, err := readAll(t, Reader{Name: "t.csv"}, strings.Repeat("c,", 29)+"c\n")
	want := `t.csv:1: want a column "key" (the key of each event) in the header; it has ` + strings.Repeat(`"c", `, 19) + `"c", and 10 more`
	if err == nil || err.Error() != want {
		t.Errorf("error %v\nwant %s", err, want)
	}
}

// A key or a line is at most MaxNameBytes long, 4 KiB by default, in CSV and
// JSON Lines alike: one of exactly the cap is read, one byte more is an
// error naming the field, the value's start and its length.
func TestMaxNameBytes(t *testing.T) {
	for _, f := range []struct {
		file  string
		event func(key, line string) string
	}{
		{"t.csv", func(key, line string) string { return "key,line,step,duration\n" + key + "," + line + ",1,1\n" }},
		{"t.jsonl", func(key, line string) string {
			return `{"key":"` + key + `","line":"` + line + `","step":1,"duration":1}` + "\n"
		}},
	} {
		for _, set := range []int{0, 7, DefaultMaxNameBytes + 1} {
			limit := set
			if set == 0 {
				limit = DefaultMaxNameBytes
			}
			r := Reader{Name: f.file, MaxNameBytes: set}
			long, longer := strings.Repeat("k", limit), strings.Repeat("k", limit+1)
			if got, err := readAll(t, r, f.event(long, long)); err != nil || len(got) != 1 || got[0].Key != long || got[0].Line != long {
				t.Errorf("%s, MaxNameBytes %d: a key and a line of %d bytes: %v", f.file, set, limit, err)
			}
			for _, c := range []struct{ field, key, line string }{{"key", longer, "L"}, {"line", "K", longer}} {
				_, err := readAll(t, r, f.event(c.key, c.line))
				want := fmt.Sprintf(`%s:%d: field %q: value %q: want at most %d bytes (Reader.MaxNameBytes); it has %d`,
					f.file, 1+strings.Count(f.file, "csv"), c.field, shorten(longer), limit, limit+1)
				if err == nil || err.Error() != want {
					t.Errorf("%s, MaxNameBytes %d: %v\nwant %s", f.file, set, err, want)
				}
			}
		}
	}
	if _, err := NewDecoder(strings.NewReader(""), Reader{MaxNameBytes: -1}); err == nil ||
		err.Error() != "eventlog: MaxNameBytes is -1; want 0 (the default, 4096) or more" {
		t.Errorf("negative MaxNameBytes: %v", err)
	}
}

// Events of one key share one copy of its name, and of their line's: a hot
// key costs no string per event.
func TestRepeatedNamesShareTheirCopy(t *testing.T) {
	for _, input := range []string{
		"key,line,step,duration\nHOT,L,1,1\nHOT,L,2,1\nCOLD,L,1,1\nHOT,L,3,1\n",
		`{"key":"HOT","line":"L","step":1,"duration":1}` + "\n" + `{"key":"HOT","line":"L","step":2,"duration":1}` + "\n",
	} {
		got, err := readAll(t, Reader{}, input)
		if err != nil {
			t.Fatal(err)
		}
		if unsafe.StringData(got[0].Key) != unsafe.StringData(got[1].Key) || unsafe.StringData(got[0].Line) != unsafe.StringData(got[1].Line) {
			t.Errorf("%q: two events of one key hold two copies of its name", input)
		}
	}
}

// lastError reads d to its end and returns the error that ended it.
func lastError(d *Decoder) error {
	for {
		if _, err := d.Next(); err != nil {
			return err
		}
	}
}

// wantError fails t unless err, which ended d, is the *Error want, at the
// line the decoder says.
func wantError(t *testing.T, d *Decoder, err error, want string) {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) || err.Error() != want {
		t.Fatalf("error %v\nwant %s", err, want)
	}
	if e.Line != d.Line() {
		t.Errorf("Error.Line %d, Decoder.Line %d; want equal", e.Line, d.Line())
	}
}
