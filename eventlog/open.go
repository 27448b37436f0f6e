package eventlog

import (
	"bufio"
	"compress/gzip"
	"io"
	"os"
)

// Open opens the trace at path for reading, standard input for "-", and
// decompresses it when it is gzip-compressed (see [Decompress]). The caller
// closes it; closing standard input's reader leaves standard input open.
func Open(path string) (io.ReadCloser, error) {
	var f io.ReadCloser
	if path == "-" {
		f = io.NopCloser(os.Stdin)
	} else {
		file, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		f = file
	}
	r, err := Decompress(f)
	if err != nil {
		f.Close()
		return nil, err
	}
	return &closers{Reader: r, close: []io.Closer{r, f}}, nil
}

// gzipMagic starts every gzip stream.
const gzipMagic = "\x1f\x8b"

// Decompress returns a reader of src's content, decompressed when src starts
// like a gzip stream (whatever its name), as is otherwise. Closing it closes
// the decompressor, not src. It returns an error when src starts like gzip
// but its header is bad.
func Decompress(src io.Reader) (io.ReadCloser, error) {
	br := bufio.NewReader(src)
	if b, _ := br.Peek(2); string(b) != gzipMagic {
		return io.NopCloser(br), nil
	}
	zr, err := gzip.NewReader(br)
	if err != nil {
		return nil, err
	}
	return zr, nil
}

// closers reads from a Reader and closes several things in order.
type closers struct {
	io.Reader
	close []io.Closer
}

func (c *closers) Close() error {
	var first error
	for _, cl := range c.close {
		if err := cl.Close(); err != nil && first == nil {
			first = err
		}
	}
	return first
}
