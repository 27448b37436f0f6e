package eventlog

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"slices"
	"strings"
	"testing"
)

// gzipped returns s compressed as one gzip stream.
func gzipped(t *testing.T, s string) []byte {
	t.Helper()
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	if _, err := io.WriteString(w, s); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// Decompress reads gzip streams one after another as one, and its errors
// say what is wrong: gzip's own said "unexpected EOF" both of a file cut
// short and of a few bytes after the last stream, and the reader named a
// line past the trace's last (found by a review).
func TestDecompressSaysWhatIsWrongWithTheStream(t *testing.T) {
	one := gzipped(t, "key,step,duration\na,1,1\n")
	two := gzipped(t, "b,2,1\n")
	for _, c := range []struct {
		name string
		in   []byte
		want string // the content read, or the error
		err  bool
	}{
		{"one stream", one, "key,step,duration\na,1,1\n", false},
		{"two streams", slices.Concat(one, two), "key,step,duration\na,1,1\nb,2,1\n", false},
		{"cut short", one[:len(one)-6], "the gzip stream is cut short: unexpected EOF", true},
		{"garbage after", slices.Concat(one, []byte("garbage!")), "bytes follow the gzip stream that are not another gzip stream", true},
		{"a second stream cut short", slices.Concat(one, two[:12]), "the gzip stream is cut short: unexpected EOF", true},
		{"a damaged checksum", slices.Concat(one[:len(one)-8], []byte{0, 0, 0, 0}, one[len(one)-4:]), "the gzip stream is damaged: gzip: invalid checksum", true},
	} {
		r, err := Decompress(bytes.NewReader(c.in))
		if err != nil {
			t.Fatalf("%s: Decompress: %v", c.name, err)
		}
		got, err := io.ReadAll(r)
		switch {
		case c.err && (err == nil || !strings.HasSuffix(err.Error(), c.want)):
			t.Errorf("%s: read %q, error %v; want the error %q", c.name, got, err, c.want)
		case !c.err && (err != nil || string(got) != c.want):
			t.Errorf("%s: read %q, error %v; want %q", c.name, got, err, c.want)
		}
	}
}

// failAfter reads b, then fails with err.
type failAfter struct {
	b   []byte
	err error
}

func (f *failAfter) Read(p []byte) (int, error) {
	if len(f.b) == 0 {
		return 0, f.err
	}
	n := copy(p, f.b)
	f.b = f.b[n:]
	return n, nil
}

// An error of the source just after a gzip stream is the source's, not
// bytes that are not another stream: a connection cut one byte into the
// next stream's header said so (found by a review).
func TestDecompressPassesOnTheSourcesError(t *testing.T) {
	cut := errors.New("connection reset")
	r, err := Decompress(&failAfter{append(gzipped(t, "a,b\n"), 0x1f), cut})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.ReadAll(r); !errors.Is(err, cut) {
		t.Errorf("ReadAll: %v; want the source's error", err)
	}
}

// A gzip header cut short, or damaged, says so, as a stream's body does:
// gzip's own said only "unexpected EOF" of a file cut within its first
// 10 bytes (found by a review).
func TestDecompressSaysWhatIsWrongWithTheHeader(t *testing.T) {
	one := gzipped(t, "key,step,duration\na,1,1\n")
	for _, c := range []struct {
		name string
		in   []byte
		want string
	}{
		{"cut after the magic", one[:2], "the gzip header: the gzip stream is cut short: unexpected EOF"},
		{"cut within the header", one[:9], "the gzip header: the gzip stream is cut short: unexpected EOF"},
		{"an unknown method", slices.Concat(one[:2], []byte{7}, one[3:]), "the gzip header: the gzip stream is damaged: gzip: invalid header"},
	} {
		if _, err := Decompress(bytes.NewReader(c.in)); err == nil || err.Error() != c.want {
			t.Errorf("%s: Decompress: %v; want the error %q", c.name, err, c.want)
		}
	}
}
