package runs

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// CountLines counts a trace's lines, one more than its line breaks, across
// reads of any size, and says 0, unknown, when the trace cannot be opened
// or read to its end, or holds what a pass refuses at once: a NUL byte, or
// a line longer than the longest record, which it stops at.
func TestCountLinesCountsEveryLineOrNone(t *testing.T) {
	open := func(r io.Reader, err error) Source {
		return func(int) (io.Reader, func(), error) { return r, func() {}, err }
	}
	long := strings.Repeat("k,l,1,1,0\n", 100_000)
	for _, c := range []struct {
		src  Source
		want int
	}{
		{open(strings.NewReader(""), nil), 1},
		{open(strings.NewReader("key\nA\nB"), nil), 3},
		{open(iotest.OneByteReader(strings.NewReader("key\nA\nB\n")), nil), 4},
		{open(bytes.NewReader([]byte(long)), nil), 100_001},
		{open(nil, errors.New("no such file")), 0},
		{open(iotest.TimeoutReader(strings.NewReader(long)), nil), 0},
		{open(strings.NewReader("key\nA\x00\n"), nil), 0},
		{open(strings.NewReader("key\n"+strings.Repeat("a", 100)+"\nB"), nil), 3},
		{open(strings.NewReader("key\n"+strings.Repeat("a", 101)+"\nB"), nil), 0},
		{open(iotest.OneByteReader(strings.NewReader("key\n"+strings.Repeat("a", 101))), nil), 0},
		{open(io.MultiReader(strings.NewReader(strings.Repeat("a", 101)), neverEnds{}), nil), 0},
	} {
		if got := CountLines(c.src, 100); got != c.want {
			t.Errorf("CountLines = %d; want %d", got, c.want)
		}
	}
}

// neverEnds is a reader of endless a's, with no line break: a bomb.
type neverEnds struct{}

func (neverEnds) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'a'
	}
	return len(p), nil
}
