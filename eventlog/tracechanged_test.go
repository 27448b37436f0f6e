package eventlog_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/sirali-konvoy/konvoy/eventlog"
)

// A Trace that did not hold its events reads its file afresh for every
// pass, and a file that changed since Scan ends the stream with an error,
// one cut short at a record's end included, which reads as a well-formed
// trace of fewer events: a planner's later pass would otherwise run a part
// of the trace as if it were the whole.
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
	if err == nil || err.Error() != "t.csv: want the 3 events the trace had when first read; it has fewer now" {
		t.Errorf("a trace of 3 events cut to 1 since Scan, read afresh: %d events and %v; want an error saying the trace has fewer", len(got), err)
	}
	// Grown past what Scan read: the error is at the first event too many.
	if err := os.WriteFile(path, []byte("key,step,duration\nA,1,2\nB,1,1\nA,2,3\nC,1,1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, err = collect(tr.Events()); err == nil || err.Error() != "t.csv:5: want the 3 events the trace had when first read; it has more now" {
		t.Errorf("a trace of 3 events grown to 4 since Scan, read afresh: %d events and %v; want an error at line 5", len(got), err)
	}
}

// A file rewritten in place with as many events, but others, ends the
// stream with an error after its last event, and one read again as it was
// does not: a planner's later passes ran the new events beside the first
// passes' old ones, a mixed plan with no error (found by a review). Each
// field of an event counts, and so does their order.
func TestATraceRewrittenSinceScanIsAnError(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.csv")
	const first = "key,line,step,duration,at,partition\nA,L,1,2,0,0\nB,M,1,1,1,1\nA,L,2,3,2,0\n"
	if err := os.WriteFile(path, []byte(first), 0o644); err != nil {
		t.Fatal(err)
	}
	tr := eventlog.NewTrace(path, eventlog.Reader{Name: "t.csv"})
	if err := tr.Scan(0, nil); err != nil {
		t.Fatal(err)
	}
	if got, err := collect(tr.Events()); err != nil || len(got) != 3 {
		t.Fatalf("the trace read again as it was: %d events and %v; want 3 and no error", len(got), err)
	}
	for _, now := range []string{
		"key,line,step,duration,at,partition\nA,L,1,2,0,0\nB,M,1,1,1,1\nA,L,2,4,2,0\n", // a duration
		"key,line,step,duration,at,partition\nA,L,1,2,0,0\nC,M,1,1,1,1\nA,L,2,3,2,0\n", // a key
		"key,line,step,duration,at,partition\nA,L,1,2,0,0\nB,N,1,1,1,1\nA,L,2,3,2,0\n", // a line
		"key,line,step,duration,at,partition\nA,L,1,2,0,0\nB,M,2,1,1,1\nA,L,2,3,2,0\n", // a step
		"key,line,step,duration,at,partition\nA,L,1,2,0,0\nB,M,1,1,2,1\nA,L,2,3,2,0\n", // an arrival
		"key,line,step,duration,at,partition\nA,L,1,2,0,0\nB,M,1,1,1,2\nA,L,2,3,2,0\n", // a partition
		"key,line,step,duration,at,partition\nAL,,1,2,0,0\nB,M,1,1,1,1\nA,L,2,3,2,0\n", // a byte moved from the line to the key
	} {
		if err := os.WriteFile(path, []byte(now), 0o644); err != nil {
			t.Fatal(err)
		}
		got, err := collect(tr.Events())
		if want := "t.csv: want the 3 events the trace had when first read; it has as many, but other events now"; err == nil || err.Error() != want {
			t.Errorf("rewritten as\n%s read afresh: %d events and %v; want %q", now, len(got), err, want)
		}
	}
}
