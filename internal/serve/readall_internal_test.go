package serve

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// readAll reads an upload that says its length into a buffer of that
// size, once: its capacity is the length said, where io.ReadAll's, grown
// as it reads, passes it (and took up to twice the trace for a moment,
// beside the uploads' room). A body of no length said, or longer than it
// said, is read whole all the same, and a read's error is returned.
func TestReadAllTakesTheLengthSaidOnce(t *testing.T) {
	data := bytes.Repeat([]byte("key,step\n"), 50_000) // 450,000 bytes
	for _, tc := range []struct {
		name    string
		size    int64
		wantCap int // 0: any
	}{
		{"the length said", int64(len(data)), len(data)},
		{"more than sent", int64(len(data)) + 100, len(data) + 100},
		{"less than sent", 1000, 0},
		{"no length", -1, 0},
	} {
		got, err := readAll(iotest.HalfReader(bytes.NewReader(data)), tc.size)
		if err != nil || !bytes.Equal(got, data) {
			t.Errorf("%s: %d bytes, %v; want the %d sent", tc.name, len(got), err, len(data))
		}
		if tc.wantCap > 0 && cap(got) != tc.wantCap {
			t.Errorf("%s: a buffer of %d bytes; want %d, made once", tc.name, cap(got), tc.wantCap)
		}
	}
	if got, err := readAll(strings.NewReader(""), 0); err != nil || len(got) != 0 {
		t.Errorf("an empty body: %q, %v; want nothing and no error", got, err)
	}
	boom := errors.New("boom")
	if _, err := readAll(io.MultiReader(strings.NewReader("abc"), iotest.ErrReader(boom)), 10); !errors.Is(err, boom) {
		t.Errorf("a failing body: %v; want its error", err)
	}
}
