package replay

import (
	"context"
	"testing"
	"time"

	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/live"
)

// The Trace's Rounded counts the values rounded (-round) in the events
// added, as a file's trace counts those of its events: a copy of a record
// fetched again after its first copy was revoked unrun is that event (see
// TestARecordFetchedAgainAfterItsCopyWasRevokedIsOneEvent), so its values
// count once, while a copy of a record that ran is an event of its own
// and counts again. (Before, a topic's replay took the mapper's count,
// which counts every record mapped, fetched again or not.)
func TestARecordFetchedAgainCountsWhatWasRoundedOnce(t *testing.T) {
	c := Config{Layout: konvoy.Convoy, Policy: konvoy.LaneAware, Consumers: 1, Unit: time.Millisecond}
	s, err := NewStream("stream", c, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	e := konvoy.Event{Key: "a", Duration: 1}
	if _, err := s.Add(e, 2, 5, 1); err != nil {
		t.Fatal(err)
	}
	again, err := s.Add(e, 2, 5, 1) // its first copy revoked, not run: the same event
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Handle(context.Background(), again); err != nil {
		t.Fatal(err)
	}
	dup, err := s.Add(e, 2, 5, 2) // fetched once more, after it ran: an event of its own
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Handle(context.Background(), dup); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Add(konvoy.Event{Key: "b", Duration: 1}, 0, 0, 0); err != nil {
		t.Fatal(err)
	}
	tr, run, _, err := s.Close(live.Stats{Events: 4, Done: 4})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { tr.Close(); run.Close() }()
	if tr.Events != 3 || tr.Rounded != 3 {
		t.Errorf("trace of %d events, %d values rounded; want 3 events, and 1 + 2 values rounded: the copy fetched again after its first was revoked is not an event", tr.Events, tr.Rounded)
	}
}
