package runs_test

import (
	"io"
	"os"
	"strings"
	"testing"

	"github.com/sirali-konvoy/konvoy/internal/runs"
)

// A second reader of standard input read with no copy kept, once the first
// has read it, gets an error that says so, not one wrapping a nil error
// ("%!w(<nil>)", found by a review).
func TestASecondReaderWithNoCopySaysSo(t *testing.T) {
	r := runs.NewReread(strings.NewReader("key\na\n"), false, func() (*os.File, error) { return nil, nil }, func(string) {})
	a, _ := r.Open()
	b, _ := r.Open()
	if _, err := io.ReadAll(a); err != nil {
		t.Fatal(err)
	}
	_, err := io.ReadAll(b)
	if err == nil || err.Error() != "standard input cannot be read again: it is read once, and no copy of it was kept" {
		t.Errorf("second reader: %v; want an error saying no copy was kept", err)
	}
}
