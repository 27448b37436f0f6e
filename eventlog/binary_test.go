package eventlog

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/sirali-konvoy/konvoy"
)

// TestBinaryInput checks that binary input is refused at its first bytes,
// with what it looks like, and that text that merely looks odd is not.
func TestBinaryInput(t *testing.T) {
	const want = "want a CSV or JSON Lines trace; the input starts with "
	for _, tt := range []struct {
		name, file, input string
		want              string // the whole message
	}{
		{"zeros", "t.csv", "\x00\x00\x00", "t.csv:1: " + want + "binary data (a NUL byte at byte 0)"},
		{"a NUL in the header", "t.csv", "key,st\x00ep,duration\nA,1,1\n", "t.csv:1: " + want + "binary data (a NUL byte at byte 6)"},
		{"a NUL after a BOM", "t.csv", "\uFEFF\x00", "t.csv:1: " + want + "binary data (a NUL byte at byte 3)"},
		{"a NUL in a row", "t.csv", "key,step,duration\nA,1,1\nB\x00,1,1\n", "t.csv:3: want a CSV or JSON Lines trace; the input has binary data (a NUL byte at byte 25)"},
		{"a NUL in a quoted field", "t.csv", "key,step,duration\n\"A\n\x00\",1,1\n", "t.csv:2: want a CSV or JSON Lines trace; the input has binary data (a NUL byte at byte 21)"},
		{"a NUL in a JSON line", "t.jsonl", `{"key":"A","step":1,"duration":1}` + "\n" + `{"key":"B` + "\x00", "t.jsonl:2: want a CSV or JSON Lines trace; the input has binary data (a NUL byte at byte 43)"},
		{"a NUL of unknown format", "-", "\n\n\x00", "<stdin>:3: want a CSV or JSON Lines trace; the input has binary data (a NUL byte at byte 2)"},
		{"gzip", "t.csv", "\x1f\x8b\x08\x00", "t.csv:1: " + want + "gzip-compressed data (bytes 1f 8b); decompress it first (Open and Decompress undo one layer of gzip)"},
		{"zip", "t.jsonl", "PK\x03\x04\x14\x00", "t.jsonl:1: " + want + "a zip archive (bytes 50 4b 03 04); extract the trace first"},
		{"bzip2", "t.csv", "BZh91AY&SY\x12", "t.csv:1: " + want + "bzip2-compressed data (bytes 42 5a 68 39); decompress it first"},
		{"empty bzip2", "t.csv", "BZh9\x17rE8P\x90", "t.csv:1: " + want + "bzip2-compressed data (bytes 42 5a 68 39); decompress it first"},
		{"xz", "t.csv", "\xfd7zXZ\x00\x00", "t.csv:1: " + want + "xz-compressed data (bytes fd 37 7a 58 5a 00); decompress it first"},
		{"zstd", "-", "\x28\xb5\x2f\xfd\x04", "<stdin>:1: " + want + "zstd-compressed data (bytes 28 b5 2f fd); decompress it first"},
		{"lz4", "t.csv", "\x04\x22\x4d\x18", "t.csv:1: " + want + "lz4-compressed data (bytes 04 22 4d 18); decompress it first"},
		{"7z", "t.csv", "7z\xbc\xaf\x27\x1c", "t.csv:1: " + want + "a 7z archive (bytes 37 7a bc af 27 1c); extract the trace first"},
		{"compress", "t.csv", "\x1f\x9d\x90", "t.csv:1: " + want + "compress (.Z) data (bytes 1f 9d); decompress it first"},
		{"UTF-16", "t.csv", "\xff\xfek\x00e\x00y\x00", "t.csv:1: " + want + "a UTF-16 or UTF-32 byte-order mark (bytes ff fe); convert it to UTF-8 first"},
		{"UTF-16 big-endian", "t.csv", "\xfe\xff\x00k", "t.csv:1: " + want + "a UTF-16 byte-order mark (bytes fe ff); convert it to UTF-8 first"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			d, err := NewDecoder(strings.NewReader(tt.input), Reader{Name: tt.file})
			if err != nil {
				t.Fatal(err)
			}
			wantError(t, d, lastError(d), tt.want)
		})
	}
}

// TestTextThatLooksBinary reads traces whose first bytes are the start of a
// magic number, but not all of it, and a JSON key with an escaped NUL.
func TestTextThatLooksBinary(t *testing.T) {
	for _, input := range []string{
		"BZh9,key,step,duration\nA,A,1,1\n",
		"BZh91AY&S,key,step,duration\nA,A,1,1\n",
		"PK,key,step,duration\nA,A,1,1\n",
		"7z,key,step,duration\nA,A,1,1\n",
		"\uFEFFkey,step,duration\r\n\"A\r\nB\",1,1\r\n",
	} {
		if _, err := readAll(t, Reader{Name: "t.csv"}, input); err != nil {
			t.Errorf("%q: %v", input, err)
		}
	}
	got, err := readAll(t, Reader{Name: "t.jsonl"}, `{"key":"A\u0000","step":1,"duration":1}`)
	if want := []konvoy.Event{{Key: "A\x00", Step: 1, Duration: 1}}; err != nil || !cmp.Equal(want, got) {
		t.Errorf("an escaped NUL in JSON: %v, %v; want %v", got, err, want)
	}
}

// TestCompressedTwice checks that Open undoes one layer of gzip, and that the
// decoder refuses a second at once.
func TestCompressedTwice(t *testing.T) {
	gz := func(b []byte) []byte {
		var buf bytes.Buffer
		zw := gzip.NewWriter(&buf)
		zw.Write(b)
		zw.Close()
		return buf.Bytes()
	}
	path := filepath.Join(t.TempDir(), "t.csv.gz")
	if err := os.WriteFile(path, gz(gz([]byte("key,step,duration\nA,1,1\n"))), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	_, err = readAllFrom(Reader{Name: path}, f)
	if err == nil || !strings.HasSuffix(err.Error(), ":1: want a CSV or JSON Lines trace; the input starts with gzip-compressed data (bytes 1f 8b); decompress it first (Open and Decompress undo one layer of gzip)") {
		t.Errorf("got %v; want gzip-compressed data refused at line 1", err)
	}
}

// readAllFrom reads every event of src with r, or the first error.
func readAllFrom(r Reader, src io.Reader) ([]konvoy.Event, error) {
	var events []konvoy.Event
	for e, err := range r.Events(src) {
		if err != nil {
			return events, err
		}
		events = append(events, e)
	}
	return events, nil
}

// TestCorruptGzip reads a gzip-compressed trace cut short, or with a byte
// changed, at many places: each read must end, without a panic, either with
// the trace's events or with an *Error that names the file and a line.
func TestCorruptGzip(t *testing.T) {
	for _, f := range []Format{CSV, JSONL} {
		trace := sampleTrace(f, 2000)
		var buf bytes.Buffer
		zw := gzip.NewWriter(&buf)
		zw.Write(trace)
		zw.Close()
		zipped := buf.Bytes()
		name := "t." + f.String() + ".gz"
		errs := 0
		for i := 20; i < len(zipped); i += len(zipped) / 40 {
			flipped := bytes.Clone(zipped)
			flipped[i] ^= 0x40
			for _, input := range [][]byte{zipped[:i], flipped} {
				src, err := Decompress(bytes.NewReader(input))
				if err != nil {
					continue // a bad header: Open and Decompress report it
				}
				_, err = readAllFrom(Reader{Name: name}, src)
				if err == nil {
					continue
				}
				errs++
				var e *Error
				if !errors.As(err, &e) || e.Line < 1 || !strings.HasPrefix(err.Error(), fmt.Sprintf("%s:%d: ", name, e.Line)) {
					t.Errorf("%v cut or changed at %d: error %T %v; want an *Error naming %s and a line", f, i, err, err, name)
				}
			}
		}
		if errs < 40 {
			t.Errorf("%v: only %d corruptions found; want most", f, errs)
		}
	}
}
