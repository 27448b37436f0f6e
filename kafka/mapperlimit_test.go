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

// A record whose value, key, or a header's key or value, alone passes
// MaxRecordBytes is refused before its kcat line is built (the key and a
// header's value found by mutation testing, their sizes taken off rather
// than added): its memory is not the line's,
// which escaping makes up to six times the value (found by a review: an 8
// MiB value of control bytes, refused at 1 KiB, cost 247 MiB). A record
// whose line passes the limit only once escaped is refused as before, with
// the same error. The test runs alone (memtest.Alone): what it measures
// counts every goroutine's allocations.
func TestAMapperRefusesARecordTooLongBeforeBuildingItsLine(t *testing.T) {
	if !memtest.Alone(t) {
		return
	}
	m, err := NewMapper(eventlog.Reader{Columns: eventlog.Columns{Step: "payload.step"}, MaxRecordBytes: 1 << 10})
	if err != nil {
		t.Fatal(err)
	}
	var errs []error
	for what, huge := range map[string]*kgo.Record{
		"an 8 MiB value":        {Topic: "t", Key: []byte("k"), Value: bytes.Repeat([]byte{1}, 8<<20)},
		"an 8 MiB header key":   {Topic: "t", Key: []byte("k"), Value: []byte("{}"), Headers: []kgo.RecordHeader{{Key: strings.Repeat("h", 8<<20), Value: []byte("v")}}},
		"an 8 MiB key":          {Topic: "t", Key: bytes.Repeat([]byte{1}, 8<<20), Value: []byte("{}")},
		"an 8 MiB header value": {Topic: "t", Key: []byte("k"), Value: []byte("{}"), Headers: []kgo.RecordHeader{{Key: "h", Value: bytes.Repeat([]byte{1}, 8<<20)}}},
	} {
		var herr error
		if got := memtest.Allocated(func() { _, herr = m.Event(huge) }); got > 8<<20 {
			t.Errorf("refusing %s at 1 KiB allocated %d MiB; want less than it", what, got>>20)
		}
		errs = append(errs, herr)
	}
	escaped := &kgo.Record{Topic: "t", Key: []byte("k"), Value: bytes.Repeat([]byte{1}, 500)} // 500 bytes, 3000 escaped
	_, eerr := m.Event(escaped)
	for _, err := range append(errs, eerr) {
		var e *eventlog.Error
		if !errors.As(err, &e) || e.File != "t [0] at offset 0" || !strings.Contains(e.Want, "at most 1024 bytes") {
			t.Errorf("Event: %v; want the record named and refused as longer than 1024 bytes", err)
		}
	}
}
