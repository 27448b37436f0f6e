package runs_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"regexp"
	"testing"

	"github.com/sirali-konvoy/konvoy/internal/runs"
)

// A run that fails in the first pass is named by its line even when no
// later pass can read the trace, as standard input with no copy kept
// (TMPDIR not writable): the failed pass that Sweep tries next leaves the
// first pass's lines for the error. Here the runs need more than
// -max-memory's 1 KiB on the first pass, at event 59, line 61.
func TestAFailureIsNamedByItsLineWhenNoPassCanFollow(t *testing.T) {
	data, err := os.ReadFile("../../cmd/konvoy/testdata/arrivals.csv")
	if err != nil {
		t.Fatal(err)
	}
	src := func(pass int) (io.Reader, func(), error) {
		if pass > 1 {
			return nil, nil, errors.New("standard input cannot be read twice")
		}
		return bytes.NewReader(data), func() {}, nil
	}
	o := options("<stdin>")
	o.Consumers, o.MaxMemory = []int{1, 2}, 1<<10
	_, err = runs.Trace(context.Background(), src, o)
	if err == nil || !regexp.MustCompile(`^<stdin>:61: event 59 `).MatchString(err.Error()) {
		t.Errorf("error %v; want it at <stdin>:61, event 59", err)
	}
}
