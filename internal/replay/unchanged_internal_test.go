package replay

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// A trace's file counts as unchanged, and may be read again to locate an
// event, only while it is the same file, of the same size and time: one
// that grew, was rewritten or replaced, or is gone, is not.
func TestAFileIsUnchangedOnlyAsItWasRead(t *testing.T) {
	path := filepath.Join(t.TempDir(), "trace.csv")
	write := func(s string, at time.Time) {
		t.Helper()
		if err := os.WriteFile(path, []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(path, at, at); err != nil {
			t.Fatal(err)
		}
	}
	at := time.Unix(1_700_000_000, 0)
	write("key,step,duration\nA,1,1\n", at)
	before, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if !unchanged(path, before) {
		t.Error("the file as it was read: changed")
	}
	write("key,step,duration\nB,1,1\n", at.Add(time.Second)) // the same size, rewritten
	if unchanged(path, before) {
		t.Error("a file rewritten: unchanged")
	}
	write("key,step,duration\nA,1,1\nA,2,1\n", at) // grown, at the old time
	if unchanged(path, before) {
		t.Error("a file grown: unchanged")
	}
	other := filepath.Join(t.TempDir(), "other.csv")
	if err := os.WriteFile(other, []byte("key,step,duration\nA,1,1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(other, at, at); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(other, path); err != nil {
		t.Fatal(err)
	}
	if unchanged(path, before) {
		t.Error("a file replaced by another of the same size and time: unchanged")
	}
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	if unchanged(path, before) {
		t.Error("a file gone: unchanged")
	}
}
