package replay

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/live"
)

// TestAStreamCoversOnlyTheEventsItsExecutorTook: a source adds each event
// as its executor places it, and an executor closed while it placed a
// batch turns the rest away; those events were added, never ran, and are
// not committed (package kafka's next member reads them again). Here three
// events are added and the executor took two: the comparison covers the
// two, as a file's replay stopped early does, not the three in its
// prediction beside the two measured.
func TestAStreamCoversOnlyTheEventsItsExecutorTook(t *testing.T) {
	c := Config{Layout: konvoy.Convoy, Policy: konvoy.LaneAware, Consumers: 2, Unit: time.Microsecond}
	s, err := NewStream("topic t", c, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	var items []StreamItem
	for i, k := range []string{"a", "b", "c"} {
		it, err := s.Add(konvoy.Event{Key: k, Step: 1, Duration: 10}, 0, int64(i), 0)
		if err != nil {
			t.Fatal(err)
		}
		items = append(items, it)
	}
	for _, it := range items[:2] {
		if err := s.Handle(context.Background(), it); err != nil {
			t.Fatal(err)
		}
	}
	trace, run, notRun, err := s.Close(live.Stats{Events: 2, Done: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer trace.Close()
	defer run.Close()
	if run.Submitted != 2 || run.Total != 3 || notRun != 0 {
		t.Errorf("run of %d submitted of %d, %d not run; want 2 of 3, 0 not run", run.Submitted, run.Total, notRun)
	}
	cmp, err := Compare(trace, c, run)
	if err != nil {
		t.Fatal(err)
	}
	if cmp.Of != 2 || !strings.Contains(cmp.Text(), "stopped early: 2 of 3 events submitted") {
		t.Errorf("comparison of %d events:\n%s\nwant it to cover the 2 taken, stopped early", cmp.Of, cmp.Text())
	}
}
