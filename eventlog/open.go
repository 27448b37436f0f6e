package eventlog

import (
	"bufio"
	"compress/gzip"
	"errors"
	"fmt"
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
// but its header is bad; its reads' errors say what is wrong with the
// compressed streams (several, one after another, are read as one): cut
// short, damaged, or followed by bytes that are not another gzip stream.
func Decompress(src io.Reader) (io.ReadCloser, error) {
	br := bufio.NewReader(src)
	if b, _ := br.Peek(2); string(b) != gzipMagic {
		return io.NopCloser(br), nil
	}
	zr, err := gzip.NewReader(br)
	if err != nil {
		return nil, fmt.Errorf("the gzip header: %w", gzipError(err))
	}
	zr.Multistream(false)
	return &gzipReader{zr, br}, nil
}

// gzipReader reads the gzip streams of br one after another, as gzip's own
// multistream reading does, with errors that say what they mean for a
// trace: gzip's say "unexpected EOF" both of a file cut short and of a
// few bytes after the last stream.
type gzipReader struct {
	*gzip.Reader
	br *bufio.Reader
}

func (g *gzipReader) Read(p []byte) (int, error) {
	for {
		n, err := g.Reader.Read(p)
		if err != io.EOF {
			return n, gzipError(err)
		}
		if _, err := g.br.Peek(1); err != nil {
			return n, err // io.EOF: the end of the last stream
		}
		if b, err := g.br.Peek(2); string(b) != gzipMagic {
			if err != nil && err != io.EOF {
				return n, err // the source's own, after the stream
			}
			return n, errors.New("bytes follow the gzip stream that are not another gzip stream")
		}
		if err := g.Reset(g.br); err != nil {
			return n, fmt.Errorf("the next gzip stream: %w", gzipError(err))
		}
		g.Multistream(false)
		if n > 0 {
			return n, nil
		}
	}
}

// gzipError returns err, a gzip reader's, saying what it means.
func gzipError(err error) error {
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF):
		return fmt.Errorf("the gzip stream is cut short: %w", err)
	case errors.Is(err, gzip.ErrChecksum), errors.Is(err, gzip.ErrHeader):
		return fmt.Errorf("the gzip stream is damaged: %w", err)
	}
	return err
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
