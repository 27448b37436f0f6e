package runs

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"
)

// onceReader fails when read after its end, as a stream that cannot be
// read twice would give nothing.
type onceReader struct {
	r    io.Reader
	done bool
}

func (o *onceReader) Read(p []byte) (int, error) {
	if o.done {
		return 0, errors.New("read after the end")
	}
	n, err := o.r.Read(p)
	o.done = err == io.EOF
	return n, err
}

// newTestReread is a Reread of text, read a byte at a time, copied into dir
// when copy is true.
func newTestReread(t *testing.T, text, dir string, copy bool) *Reread {
	t.Helper()
	create := func() (*os.File, error) { return os.CreateTemp(dir, "copy-*") }
	return NewReread(&onceReader{r: iotest.OneByteReader(strings.NewReader(text))}, copy, create, func(path string) { os.Remove(path) })
}

// readN reads at most n bytes of r, all of them for n < 0.
func readN(t *testing.T, r *Reread, n int64) string {
	t.Helper()
	in, err := r.Open()
	if err != nil {
		t.Fatal(err)
	}
	if n >= 0 {
		in = io.LimitReader(in, n)
	}
	b, err := io.ReadAll(in)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// A stream copied as it is read reads whole again and again, whether the
// first reader read it to its end or stopped partway (a later reader goes
// on in the stream where the copy ends), and Close removes the copy.
func TestRereadReadsTheStreamAgain(t *testing.T) {
	const text = "key,step,duration\nA,1,1\nB,2,3\n"
	for _, first := range []int64{-1, 0, 5, int64(len(text))} {
		dir := t.TempDir()
		r := newTestReread(t, text, dir, true)
		if got := readN(t, r, first); first >= 0 && got != text[:first] || first < 0 && got != text {
			t.Errorf("first reader of %d bytes: %q", first, got)
		}
		for range 3 {
			if got := readN(t, r, -1); got != text {
				t.Errorf("after a first reader of %d bytes: %q; want %q", first, got, text)
			}
		}
		if files, _ := os.ReadDir(dir); len(files) != 1 {
			t.Errorf("%d files in the directory; want the copy", len(files))
		}
		r.Close()
		if files, _ := os.ReadDir(dir); len(files) != 0 {
			t.Errorf("Close left %v", files[0].Name())
		}
	}
}

// Without a copy, a stream reads once, from a reader opened before anything
// was read too; a second reader after that fails and says why, the
// failure to make the copy included.
func TestRereadWithoutACopyReadsOnce(t *testing.T) {
	const text = "key,step,duration\nA,1,1\n"
	for _, c := range []struct {
		dir  string
		copy bool
		want string
	}{
		{"", false, "standard input cannot be read twice"},
		{filepath.Join(t.TempDir(), "nonexistent"), true, "standard input cannot be read twice, and no copy of it could be made: open "},
	} {
		r := newTestReread(t, text, c.dir, c.copy)
		unused, err := r.Open() // opened, never read: a later reader still starts at the start
		if err != nil || unused == nil {
			t.Fatal(err)
		}
		if got := readN(t, r, -1); got != text {
			t.Errorf("%q: the one reader read %q", c.want, got)
		}
		if _, err := r.Open(); err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("a second reader: %v; want %q", err, c.want)
		}
		r.Close()
	}
}
