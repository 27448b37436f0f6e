package eventlog_test

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/eventlog"
)

// collect returns a stream's events and its error.
func collect(events func(func(konvoy.Event, error) bool)) ([]konvoy.Event, error) {
	var out []konvoy.Event
	for e, err := range events {
		if err != nil {
			return out, err
		}
		out = append(out, e)
	}
	return out, nil
}

// TestTraceReplays wants the same events from every pass, held in memory or
// read again from the file.
func TestTraceReplays(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.csv")
	if err := os.WriteFile(path, []byte("key,line,step,duration\nA,H1,1,2\nB,H1,1,1\nA,H2,2,3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	want := []konvoy.Event{{Key: "A", Line: "H1", Step: 1, Duration: 2}, {Key: "B", Line: "H1", Step: 1, Duration: 1}, {Key: "A", Line: "H2", Step: 2, Duration: 3}}
	for _, budget := range []int{1 << 20, 100} {
		tr := eventlog.NewTrace(path, eventlog.Reader{Name: "t.csv"})
		var lines []int
		if err := tr.Scan(budget, func(_ konvoy.Event, line int) error { lines = append(lines, line); return nil }); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(lines, []int{2, 3, 4}) {
			t.Errorf("budget %d: lines %v; want 2, 3, 4", budget, lines)
		}
		for pass := range 2 {
			got, err := collect(tr.Events())
			if err != nil || !cmp.Equal(got, want) {
				t.Errorf("budget %d, pass %d: %v, %v; want %v", budget, pass, got, err, want)
			}
		}
	}
}

// TestTraceErrors wants each error where it arises: a bad record's as an
// *Error, f's and the file's as they are.
func TestTraceErrors(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.csv")
	if err := os.WriteFile(path, []byte("key,step,duration\nA,1,2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path+".bad", []byte("key,step,duration\nA,x,1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	bad := eventlog.NewTrace(path+".bad", eventlog.Reader{Name: "bad.csv"})
	var le *eventlog.Error
	if _, err := collect(bad.Events()); !errors.As(err, &le) || le.Line != 2 || le.Field != "step" {
		t.Errorf("a bad trace read afresh: %v; want an *Error at line 2, field step", err)
	}
	if err := bad.Scan(1<<20, nil); !errors.As(err, &le) || le.Line != 2 {
		t.Errorf("Scan of a bad trace: %v; want an *Error at line 2", err)
	}
	stop := errors.New("stop")
	if err := eventlog.NewTrace(path, eventlog.Reader{}).Scan(1<<20, func(konvoy.Event, int) error { return stop }); err != stop {
		t.Errorf("Scan: %v; want f's error as it is", err)
	}
	if err := eventlog.NewTrace(filepath.Join(t.TempDir(), "none.csv"), eventlog.Reader{}).Scan(1<<20, nil); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a missing file: %v; want os.ErrNotExist", err)
	}
}

// Line finds the line where an event's record starts by reading the trace
// again up to it: in CSV the header is line 1 and a quoted field may span
// lines; an index past the trace's events is 0.
func TestTraceLine(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.csv")
	trace := "key,step,duration\na,1,1\n\"b\nc\",1,1\nd,1,1\n"
	if err := os.WriteFile(path, []byte(trace), 0o644); err != nil {
		t.Fatal(err)
	}
	tr := eventlog.NewTrace(path, eventlog.Reader{Name: "t.csv"})
	for i, want := range []int{2, 3, 5, 0, 0} {
		if got := tr.Line(i); got != want {
			t.Errorf("Line(%d) = %d; want %d", i, got, want)
		}
	}
	if got := eventlog.NewTrace(filepath.Join(t.TempDir(), "none.csv"), eventlog.Reader{}).Line(0); got != 0 {
		t.Errorf("Line(0) of a trace that cannot be opened = %d; want 0", got)
	}
}
