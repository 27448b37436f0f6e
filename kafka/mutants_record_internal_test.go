package kafka

import (
	"strings"
	"testing"

	"github.com/sirali-konvoy/konvoy/eventlog"
	"github.com/twmb/franz-go/pkg/kgo"
)

// A Mapper keeps the room of the lines it builds for the next record,
// but not a large record's: after a line of over 1 MiB, what it keeps is
// 1 MiB at most, whatever the records before.
func TestAMapperDoesNotKeepALargeRecordsRoom(t *testing.T) {
	m, err := NewMapper(eventlog.Reader{Columns: eventlog.Columns{Step: "payload.step", Duration: "payload.duration"}, MaxRecordBytes: 16 << 20})
	if err != nil {
		t.Fatal(err)
	}
	small := &kgo.Record{Topic: "t", Key: []byte("k"), Value: []byte(`{"step":1,"duration":1}`)}
	large := &kgo.Record{Topic: "t", Key: []byte("k"), Value: []byte(`{"step":1,"duration":1,"pad":"` + strings.Repeat("x", 2<<20) + `"}`)}
	for i, r := range []*kgo.Record{small, large, small, large} {
		if _, err := m.Event(r); err != nil {
			t.Fatalf("record %d: %v", i, err)
		}
		m.mu.Lock()
		kept := cap(m.buf)
		m.mu.Unlock()
		if kept > 1<<20 {
			t.Fatalf("after record %d (%d bytes of value), the Mapper keeps %d bytes of room; want 1 MiB at most", i, len(r.Value), kept)
		}
	}
}
