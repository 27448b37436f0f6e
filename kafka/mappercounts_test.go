package kafka

import (
	"testing"
	"time"

	"github.com/sirali-konvoy/konvoy/eventlog"
	"github.com/twmb/franz-go/pkg/kgo"
)

// A record the Mapper refuses counts among neither its status steps nor
// its rounded values, which say what the records mapped so far did: a
// record refused for its partition after its duration was rounded, or for
// an unknown status, left them counted (found by a review). A record
// mapped counts, as before.
func TestARefusedRecordCountsForNothing(t *testing.T) {
	m, err := NewMapper(eventlog.Reader{Columns: eventlog.Columns{Status: "payload.s", Duration: "payload.d", Partition: "payload.p"},
		Steps: []string{"a"}, Resolution: time.Millisecond, Round: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []string{`{"s":"zz","d":"1.5ms","p":0}`, `{"s":"a","d":"1.5ms","p":"x"}`} {
		if _, err := m.Event(&kgo.Record{Topic: "t", Key: []byte("k"), Value: []byte(v)}); err == nil {
			t.Fatalf("%s: mapped; want it refused", v)
		}
	}
	if s, r := m.StatusSteps(), m.Rounded(); s != 0 || r != 0 {
		t.Errorf("after two records refused: %d status steps, %d rounded; want 0 and 0", s, r)
	}
	if _, err := m.Event(&kgo.Record{Topic: "t", Key: []byte("k"), Value: []byte(`{"s":"a","d":"1.5ms","p":0}`)}); err != nil {
		t.Fatal(err)
	}
	if s, r := m.StatusSteps(), m.Rounded(); s != 1 || r != 1 {
		t.Errorf("after one record mapped: %d status steps, %d rounded; want 1 and 1", s, r)
	}
}
