package kafka

import (
	"context"
	"testing"
	"time"

	"github.com/sirali-konvoy/konvoy"
	"github.com/twmb/franz-go/pkg/kgo"
)

// A transaction's marker that finished while records are still held is in
// none of Stats' counts: with two consumers, record 0 runs and waits,
// records 1 and 2 wait behind it in their lane, and the marker (no lane)
// finishes on the other consumer. Stats says 3 events, 0 done, 2 held.
func TestAMarkerFinishedIsNotSubtractedFromHeld(t *testing.T) {
	addrs := cluster(t, 1)
	ctx, cancel := context.WithTimeout(context.Background(), testWait)
	defer cancel()
	produceCommitted(ctx, t, addrs, 3)
	started, gate := make(chan struct{}, 3), make(chan struct{})
	c, err := New(memberOpts(addrs), konvoy.Convoy, 2, keyEvent, func(context.Context, *kgo.Record) error {
		started <- struct{}{}
		<-gate
		return nil
	}, WithCommitInterval(testWait))
	if err != nil {
		t.Fatal(err)
	}
	stop := start(c)
	defer func() {
		close(gate)
		if err := stop(); err != nil {
			t.Error(err)
		}
	}()
	select {
	case <-started:
	case <-ctx.Done():
		t.Fatal("record 0 did not start")
	}
	for c.markersDone.Load() == 0 { // the marker finished
		if ctx.Err() != nil {
			t.Fatal("the transaction's marker never finished")
		}
		time.Sleep(5 * time.Millisecond)
	}
	if st := c.Stats(); st.Events != 3 || st.Done != 0 || st.Held != 2 {
		t.Errorf("Stats with record 0 running, records 1 and 2 waiting, the marker finished: %d events, %d done, %d held; want 3, 0 and 2", st.Events, st.Done, st.Held)
	}
}
