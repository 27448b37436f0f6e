package runs_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
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
