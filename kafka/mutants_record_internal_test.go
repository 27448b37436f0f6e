package kafka

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/sirali-konvoy/konvoy/eventlog"
	"github.com/sirali-konvoy/konvoy/internal/memtest"
	"github.com/twmb/franz-go/pkg/kgo"
)

// Every part of a record counts toward its size before its line is
// built, the key and a header's value as the value and a header's key
// do (TestAMapperRefusesARecordTooLongBeforeBuildingItsLine): a record
// whose key, or one header's value, alone passes MaxRecordBytes is
// refused without the memory of its line, escaping making that six times
// the part, and with the error of a record too long. The test runs alone
// (memtest.Alone): what it measures counts every goroutine's allocations.
func TestAMapperRefusesAKeyOrHeaderValueTooLongBeforeBuildingItsLine(t *testing.T) {
	if !memtest.Alone(t) {
		return
	}
	m, err := NewMapper(eventlog.Reader{Columns: eventlog.Columns{Step: "payload.step"}, MaxRecordBytes: 1 << 10})
	if err != nil {
		t.Fatal(err)
	}
	huge := bytes.Repeat([]byte{1}, 8<<20) // 8 MiB, 48 MiB escaped
	for what, r := range map[string]*kgo.Record{
		"an 8 MiB key":          {Topic: "t", Key: huge, Value: []byte("{}")},
		"an 8 MiB header value": {Topic: "t", Key: []byte("k"), Value: []byte("{}"), Headers: []kgo.RecordHeader{{Key: "h", Value: huge}}},
	} {
		var herr error
		if got := memtest.Allocated(func() { _, herr = m.Event(r) }); got > 8<<20 {
			t.Errorf("refusing %s at 1 KiB allocated %d MiB; want less than it", what, got>>20)
		}
		var e *eventlog.Error
		if !errors.As(herr, &e) || e.File != "t [0] at offset 0" || !strings.Contains(e.Want, "at most 1024 bytes") {
			t.Errorf("%s: Event: %v; want the record named and refused as longer than 1024 bytes", what, herr)
		}
	}
}

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
