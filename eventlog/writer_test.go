package eventlog

import (
	"bytes"
	"errors"
	"io"
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/sirali-konvoy/konvoy"
)

func TestWriterRoundTrip(t *testing.T) {
	events := []konvoy.Event{
		{Key: "TR-1", Line: "H1", Step: 1, Duration: 3},
		{Key: "a,\"b\"\nc", Line: "", Step: 0, Duration: 0, Arrival: 2},
		{Key: " lead", Line: "ünï\tcode\u2028", Step: 12, Duration: math.MaxInt32, Arrival: 7},
		{Key: `\.`, Line: "<&>", Step: 2, Duration: 1, Arrival: 7},
	}
	for _, f := range []Format{CSV, JSONL} {
		var buf bytes.Buffer
		if err := WriteAll(&buf, f, konvoy.Values(events)); err != nil {
			t.Fatal(err)
		}
		got, err := readAll(t, Reader{Format: f}, buf.String())
		if err != nil {
			t.Fatalf("%v: %v\n%s", f, err, buf.String())
		}
		if d := cmp.Diff(events, got); d != "" {
			t.Errorf("%v round trip (-want +got):\n%s", f, d)
		}
	}
}

func TestWriterOutput(t *testing.T) {
	events := konvoy.Values([]konvoy.Event{{Key: "A", Line: "H1", Step: 1, Duration: 3, Arrival: 1}})
	for f, want := range map[Format]string{
		CSV:   "key,line,step,duration,at\nA,H1,1,3,1\n",
		JSONL: `{"key":"A","line":"H1","step":1,"duration":3,"at":1}` + "\n",
	} {
		var buf bytes.Buffer
		if err := WriteAll(&buf, f, events); err != nil || buf.String() != want {
			t.Errorf("%v: %q, %v; want %q", f, buf.String(), err, want)
		}
	}
	var buf bytes.Buffer
	if err := NewWriter(&buf, CSV).Flush(); err != nil || buf.String() != "key,line,step,duration,at\n" {
		t.Errorf("empty CSV: %q, %v; want the header alone", buf.String(), err)
	}
}

func TestWriterRejects(t *testing.T) {
	for _, e := range []konvoy.Event{{Key: "", Step: 1}, {Key: "A", Step: -1}, {Key: "A", Duration: -1}, {Key: "A", Arrival: -1}, {Key: "\xf9"}, {Key: "A", Line: "\xff"}} {
		if err := NewWriter(&bytes.Buffer{}, JSONL).Write(e); err == nil {
			t.Errorf("Write(%+v): no error", e)
		}
	}
	for _, e := range []konvoy.Event{{Key: "A\x00"}, {Key: "A", Line: "\x00H1"}} {
		if err := NewWriter(&bytes.Buffer{}, CSV).Write(e); err == nil || !strings.Contains(err.Error(), "NUL byte") {
			t.Errorf("CSV Write(%+v): %v; want an error about the NUL byte", e, err)
		}
	}
	if err := NewWriter(&bytes.Buffer{}, Auto).Write(konvoy.Event{Key: "A"}); err == nil || !strings.Contains(err.Error(), "want csv or jsonl") {
		t.Errorf("Auto writer: %v", err)
	}
	w := NewWriter(failing{}, JSONL)
	w.Write(konvoy.Event{Key: "A"})
	if err := w.Flush(); err == nil {
		t.Error("a failing destination flushed without an error")
	}
}

type failing struct{}

func (failing) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestStats(t *testing.T) {
	var s Stats
	for _, e := range []konvoy.Event{
		{Key: "A", Line: "H1", Step: 1}, {Key: "A", Line: "H1", Step: 0}, {Key: "A", Line: "H1", Step: 3},
		{Key: "B", Line: "H2", Step: 2}, {Key: "B", Step: 1}, {Key: "B", Step: 0}, {Key: "B", Step: 1},
		{Key: "C", Step: 0}, {Key: "C", Step: 2}, {Key: "C", Step: 2},
		{Key: "D", Step: 4}, {Key: "D", Step: 1}, {Key: "A", Step: 2},
	} {
		s.Add(e)
	}
	if s.Events() != 13 || s.Ordered() != 10 || s.Keys() != 4 || s.Lines() != 2 {
		t.Errorf("events %d ordered %d keys %d lines %d; want 13 10 4 2", s.Events(), s.Ordered(), s.Keys(), s.Lines())
	}
	if d := cmp.Diff([]string{"B", "D", "A"}, s.OutOfOrder()); d != "" {
		t.Errorf("out of order (-want +got):\n%s", d)
	}
}

// failingOutput takes no byte: every write fails.
type failingOutput struct{}

func (failingOutput) Write([]byte) (int, error) { return 0, errors.New("disk full") }

// WriteAll returns the stream's first error, which stopped it, even when
// flushing what came before fails too, as its doc says: the cause, not
// its consequence.
func TestWriteAllReturnsTheStreamsErrorFirst(t *testing.T) {
	stop := errors.New("the trace broke")
	events := func(yield func(konvoy.Event, error) bool) {
		if yield(konvoy.Event{Key: "a", Step: 1, Duration: 1}, nil) {
			yield(konvoy.Event{}, stop)
		}
	}
	if err := WriteAll(failingOutput{}, CSV, events); !errors.Is(err, stop) {
		t.Errorf("WriteAll: %v; want the stream's error", err)
	}
}

// WriteAll of a nil stream panics with the package's prefix, a
// programmer's mistake, rather than with a nil dereference (found by a
// review).
func TestWriteAllOfANilStreamPanicsWithThePackagesPrefix(t *testing.T) {
	defer func() {
		if r := recover(); r != "eventlog: WriteAll: events is nil" {
			t.Errorf("WriteAll(nil): panic %v; want eventlog: WriteAll: events is nil", r)
		}
	}()
	_ = WriteAll(io.Discard, CSV, nil)
}
