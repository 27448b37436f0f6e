package kafka

import (
	"bytes"
	"errors"
	"runtime"
	"strings"
	"testing"

	"github.com/sirali-konvoy/konvoy/eventlog"
	"github.com/twmb/franz-go/pkg/kgo"
)

// A record whose value alone passes MaxRecordBytes is refused before its
// kcat line is built: its memory is not the line's, which escaping makes
// up to six times the value (found by a review: an 8 MiB value of control
// bytes, refused at 1 KiB, cost 247 MiB). A record whose line passes the
// limit only once escaped is refused as before, with the same error.
func TestAMapperRefusesARecordTooLongBeforeBuildingItsLine(t *testing.T) {
	m, err := NewMapper(eventlog.Reader{Columns: eventlog.Columns{Step: "payload.step"}, MaxRecordBytes: 1 << 10})
	if err != nil {
		t.Fatal(err)
	}
	huge := &kgo.Record{Topic: "t", Key: []byte("k"), Value: bytes.Repeat([]byte{1}, 8<<20)}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, herr := m.Event(huge)
	runtime.ReadMemStats(&after)
	if got := after.TotalAlloc - before.TotalAlloc; got > 8<<20 {
		t.Errorf("refusing an 8 MiB value at 1 KiB allocated %d MiB; want less than the value", got>>20)
	}
	escaped := &kgo.Record{Topic: "t", Key: []byte("k"), Value: bytes.Repeat([]byte{1}, 500)} // 500 bytes, 3000 escaped
	_, eerr := m.Event(escaped)
	for _, err := range []error{herr, eerr} {
		var e *eventlog.Error
		if !errors.As(err, &e) || e.File != "t [0] at offset 0" || !strings.Contains(e.Want, "at most 1024 bytes") {
			t.Errorf("Event: %v; want the record named and refused as longer than 1024 bytes", err)
		}
	}
}
