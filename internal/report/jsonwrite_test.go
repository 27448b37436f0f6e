package report

import (
	"errors"
	"strings"
	"testing"

	"github.com/sirali-konvoy/konvoy"
)

// failingWriter fails every write, counting them.
type failingWriter struct{ writes int }

func (w *failingWriter) Write([]byte) (int, error) {
	w.writes++
	return 0, errors.New("gone")
}

// A JSON report stops at its writer's first error, returning it: a client
// gone took the encoding of the whole report, each record naming every
// key in a wrong final state (found by a review).
func TestTheJSONReportStopsAtItsWritersFirstError(t *testing.T) {
	var events []konvoy.Event
	for _, step := range []int{2, 1} {
		for i := range 200 {
			events = append(events, konvoy.Event{Key: strings.Repeat("k", 100) + string(rune('a'+i%26)) + strings.Repeat("x", i), Step: step, Duration: 1})
		}
	}
	tr := &Trace{Name: "t.csv", Layouts: []konvoy.Layout{konvoy.Free}, Policies: []konvoy.Policy{konvoy.HeadOfLine}, Consumers: 1}
	for c := 1; c <= 8; c++ {
		r, err := konvoy.Simulate(events, konvoy.Free, c)
		if err != nil {
			t.Fatal(err)
		}
		tr.Counts, tr.Results = append(tr.Counts, c), append(tr.Results, r)
	}
	for _, e := range events {
		tr.Stats.Add(e)
	}
	rs := records(tr)
	if err := checkRecords(rs); err != nil {
		t.Fatal(err)
	}
	var w failingWriter
	var enc recordEncoder
	if err := enc.write(&w, rs); err == nil || err.Error() != "gone" || w.writes != 1 || enc.encoded != 1 {
		t.Errorf("a report of 8 records of about 40 KB each to a writer that fails: %v after %d writes and %d records encoded; want its error after 1 of each", err, w.writes, enc.encoded)
	}
}
