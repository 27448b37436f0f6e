package runs

import (
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
)

// Reread reads a stream that can be read only once, such as standard
// input, as many times as passes over it need, without waiting for its end:
// the first reader reads the stream as it arrives and copies what it reads
// to a file, and a later reader reads the copy, then goes on in the stream,
// copying, where the copy ends. A problem early in the stream is then met
// as soon as it arrives, however long the rest, and a stream read once is
// never copied whole before it is read.
//
// Without a copy (none asked for, or none could be made), a stream can be
// read once: a second reader, once the first has read anything, fails with
// an error that says why. A copy that fails partway is given up, and with
// it a later reader. Readers take turns under a lock, so that several may
// read at once. Close removes the copy; it is the caller's to call on
// every way out.
type Reread struct {
	mu      sync.Mutex
	src     io.Reader
	file    *os.File // the copy, nil without one
	remove  func(path string)
	copied  int64 // the bytes of the stream read, and copied when file is not nil
	err     error // the stream's error, io.EOF at its end, once met
	copyErr error // why there is no copy, when one was asked for
}

// NewReread returns the stream src to be read as Reread says, with a copy
// in the file create makes when copy is true, which remove removes; the
// file is made at once, so that an interrupt that removes it finds it. A
// failure to make it is no error until a second reader needs the copy.
func NewReread(src io.Reader, copy bool, create func() (*os.File, error), remove func(path string)) *Reread {
	r := &Reread{src: src, remove: remove}
	if copy {
		r.file, r.copyErr = create()
	}
	return r
}

// Open returns a reader of the stream from its start. Without a copy, it
// fails once the stream has been read from.
func (r *Reread) Open() (io.Reader, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.file == nil && r.copied > 0 {
		if r.copyErr != nil {
			return nil, fmt.Errorf("standard input cannot be read twice, and no copy of it could be made: %w", r.copyErr)
		}
		return nil, errors.New("standard input cannot be read twice")
	}
	return &rereader{r: r}, nil
}

// Close removes the copy, if any; the stream is not closed.
func (r *Reread) Close() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.dropCopy(errors.New("closed"))
}

// dropCopy closes and removes the copy, for the reason why.
func (r *Reread) dropCopy(why error) {
	if r.file == nil {
		return
	}
	r.file.Close()
	r.remove(r.file.Name())
	r.file, r.copyErr = nil, why
}

// rereader is one reader of a Reread, at offset off.
type rereader struct {
	r   *Reread
	off int64
}

func (rr *rereader) Read(p []byte) (int, error) {
	r := rr.r
	r.mu.Lock()
	defer r.mu.Unlock()
	if rr.off < r.copied {
		if r.file == nil && r.copyErr == nil { // none was asked for
			return 0, errors.New("standard input cannot be read again: it is read once, and no copy of it was kept")
		}
		if r.file == nil {
			return 0, fmt.Errorf("standard input cannot be read again: its copy was given up: %w", r.copyErr)
		}
		n, err := r.file.ReadAt(p[:min(int64(len(p)), r.copied-rr.off)], rr.off)
		rr.off += int64(n)
		if err == io.EOF && n > 0 {
			err = nil
		}
		return n, err
	}
	if r.err != nil {
		return 0, r.err
	}
	n, err := r.src.Read(p)
	if n > 0 && r.file != nil {
		if _, werr := r.file.WriteAt(p[:n], r.copied); werr != nil {
			r.dropCopy(werr)
		}
	}
	r.copied += int64(n)
	rr.off += int64(n)
	if err != nil {
		r.err = err
	}
	return n, err
}
