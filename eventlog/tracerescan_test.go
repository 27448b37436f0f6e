package eventlog_test

import (
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/sirali-konvoy/konvoy/eventlog"
)

// A Scan that fails counts nothing of the Scan before it: Rounded, Dropped
// and StatusSteps all describe the last Scan, and one that read no trace
// read no status step. StatusSteps kept the earlier Scan's count (found
// while reading the code).
func TestAFailedScanKeepsNoCountOfTheOneBefore(t *testing.T) {
	in := `{"key":"A","status":"paid","duration":"1s"}` + "\n"
	opened := 0
	open := func() (io.ReadCloser, error) {
		if opened++; opened > 1 {
			return nil, errors.New("gone")
		}
		return io.NopCloser(strings.NewReader(in)), nil
	}
	tr := eventlog.NewTraceOf(open, eventlog.Reader{Name: "t.jsonl", Resolution: time.Second, Steps: []string{"paid"}})
	if err := tr.Scan(1<<20, nil); err != nil {
		t.Fatal(err)
	}
	if n := tr.StatusSteps(); n != 1 {
		t.Fatalf("first Scan: %d status steps; want 1", n)
	}
	if err := tr.Scan(1<<20, nil); err == nil {
		t.Fatal("second Scan of a trace that cannot be opened: no error")
	}
	if n, r, d := tr.StatusSteps(), tr.Rounded(), tr.Dropped(); n != 0 || r != 0 || d != 0 {
		t.Errorf("after a failed Scan: %d status steps, %d rounded, %d dropped; want 0 of each", n, r, d)
	}
}
