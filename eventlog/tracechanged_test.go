package eventlog_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/sirali-konvoy/konvoy/eventlog"
)

// A Trace that did not hold its events reads its file afresh for every
// pass, and that file's errors, "such as those of a file that changed
// since", end the stream (Trace.Events). A file cut short since Scan, at
// a record's end, is still a well-formed trace: read afresh it yields
// fewer events than Scan read and no error, so a planner's later pass
// runs a part of the trace as if it were the whole. The stream must end
// with an error when it yields other than the events Scan counted.
func TestATraceCutShortSinceScanIsAnError(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.csv")
	if err := os.WriteFile(path, []byte("key,step,duration\nA,1,2\nB,1,1\nA,2,3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tr := eventlog.NewTrace(path, eventlog.Reader{Name: "t.csv"})
	if err := tr.Scan(0, nil); err != nil { // a budget of 0 holds nothing
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("key,step,duration\nA,1,2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := collect(tr.Events())
	if err == nil {
		t.Errorf("a trace of 3 events cut to 1 since Scan, read afresh: %d events and no error; want an error saying the trace changed", len(got))
	}
}
