package runs_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/sirali-konvoy/konvoy/eventlog"
	"github.com/sirali-konvoy/konvoy/internal/runs"
)

// countingReader counts the bytes read from r.
type countingReader struct {
	r io.Reader
	n *int
}

func (c countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	*c.n += n
	return n, err
}

// The pass over a trace with partitions that finds the layout recorded
// stops with its context, as the runs do: konvoy serve's request past its
// 2 minutes, or gone, read the whole trace first (some 40 MB a second),
// holding one of the server's two run tokens meanwhile. Here the context
// is done before the pass: it reads a few thousand events of 200,000, not
// the trace.
func TestTheRecordedPassStopsWithItsContext(t *testing.T) {
	var b bytes.Buffer
	b.WriteString("key,step,duration,partition\n")
	for i := range 200_000 {
		fmt.Fprintf(&b, "K%d,1,1,%d\n", i%5000, i%8)
	}
	read := 0
	src := func(int) (io.Reader, func(), error) {
		return countingReader{bytes.NewReader(b.Bytes()), &read}, func() {}, nil
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	o := runs.Options{Name: "t.csv", All: true, Reader: eventlog.Reader{Name: "t.csv"}}
	if _, err := runs.WithRecorded(ctx, src, o); !errors.Is(err, context.Canceled) || read > b.Len()/4 {
		t.Errorf("WithRecorded, its context done: %v after %d bytes of %d; want context.Canceled, early", err, read, b.Len())
	}
	read = 0
	if got, err := runs.WithRecorded(context.Background(), src, o); err != nil || read != b.Len() || len(got.Layouts) != 1 || got.Layouts[0].String() != "recorded:8" {
		t.Errorf("WithRecorded: %v, layouts %v after %d bytes of %d; want recorded:8 of the whole trace", err, got.Layouts, read, b.Len())
	}
}

// The same with a Reorder window that holds every event until the trace
// ends: the decoder hands none back meanwhile, and a look at the context
// at each event handed back would come only once the whole trace was read.
func TestTheRecordedPassStopsWithItsContextWhateverTheDecoderHolds(t *testing.T) {
	var b bytes.Buffer
	b.WriteString("key,step,duration,partition,at\n")
	for i := range 200_000 {
		fmt.Fprintf(&b, "K%d,1,1ms,%d,%dms\n", i%5000, i%8, i)
	}
	read := 0
	src := func(int) (io.Reader, func(), error) {
		return countingReader{bytes.NewReader(b.Bytes()), &read}, func() {}, nil
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	o := runs.Options{Name: "t.csv", All: true, Reader: eventlog.Reader{Name: "t.csv", Reorder: 1000 * time.Hour, Resolution: time.Millisecond}}
	if _, err := runs.WithRecorded(ctx, src, o); !errors.Is(err, context.Canceled) || read > b.Len()/4 {
		t.Errorf("WithRecorded, its context done: %v after %d bytes of %d; want context.Canceled, early", err, read, b.Len())
	}
	read = 0
	if got, err := runs.WithRecorded(context.Background(), src, o); err != nil || read != b.Len() || len(got.Layouts) != 1 || got.Layouts[0].String() != "recorded:8" {
		t.Errorf("WithRecorded: %v, layouts %v after %d bytes of %d; want recorded:8 of the whole trace", err, got.Layouts, read, b.Len())
	}
}

// The pass that finds the layout recorded bounds its Reorder window as
// Trace bounds the runs' (Memory's window): konvoy serve runs it first,
// and, bound by the reader's default of 256 MiB, a view of -layouts all
// over a wide -reorder ended the server in Go's fatal out-of-memory error
// where -layouts free refused the view at its share (found by a review).
// Here the window would hold 20,000 events against 393,216 bytes.
func TestTheRecordedPassBoundsItsWindowAsTheRuns(t *testing.T) {
	var b bytes.Buffer
	b.WriteString("key,step,duration,partition,at\n")
	for i := range 20_000 {
		fmt.Fprintf(&b, "k%d,1,1ms,%d,%dms\n", i, i%8, i)
	}
	src := func(int) (io.Reader, func(), error) { return bytes.NewReader(b.Bytes()), func() {}, nil }
	o := runs.Options{Name: "t.csv", All: true, MaxMemory: 1 << 20,
		Reader: eventlog.Reader{Name: "t.csv", Reorder: 1000 * time.Hour, Resolution: time.Millisecond}}
	if _, err := runs.WithRecorded(context.Background(), src, o); err == nil || !strings.Contains(err.Error(), "393216") {
		t.Errorf("WithRecorded: %v; want the window's error at 393216 bytes, Memory's bound", err)
	}
}
