package kafka

import (
	"context"
	"strings"
	"testing"

	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/eventlog"
	"github.com/twmb/franz-go/pkg/kgo"
)

// A record the layout cannot place stops Run with an error that names it
// by its topic, partition and offset, as Where writes it: the executor's
// own event number counts the member's records across partitions and
// assignments, which no user can trace. Here recorded:2 takes partitions
// 0 and 1, and the record comes from partition 3.
func TestARecordTheLayoutRefusesIsNamed(t *testing.T) {
	addrs := cluster(t, 4)
	produceTo(t, addrs, []*kgo.Record{{Topic: testTopic, Partition: 3, Key: []byte("k"), Value: []byte(`{"step":1,"duration":1}`)}})
	m, err := NewMapper(eventlog.Reader{Columns: eventlog.Columns{Key: "key", Step: "payload.step", Duration: "payload.duration"}})
	if err != nil {
		t.Fatal(err)
	}
	event, handle := m.Funcs(func(context.Context, *kgo.Record) error { return nil })
	c, err := New(memberOpts(addrs), konvoy.Recorded(2), 1, event, handle)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), testWait)
	defer cancel()
	err = c.Run(ctx)
	if ctx.Err() != nil {
		t.Fatalf("Run did not stop on the record the layout refuses within %v (%v)", testWait, err)
	}
	if want := "events [3] at offset 0"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("Run: %v; want an error naming the record, %q", err, want)
	}
}
