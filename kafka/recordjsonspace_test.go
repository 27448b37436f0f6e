package kafka

import (
	"bytes"
	"context"
	"testing"

	"github.com/sirali-konvoy/konvoy/eventlog"
	"github.com/twmb/franz-go/pkg/kgo"
)

// A space is written as it is, as kcat writes it: only bytes below 0x20
// are escaped.
func TestAppendJSONWritesASpaceAsItIs(t *testing.T) {
	r := &kgo.Record{Topic: "a b", Key: []byte("k y"), Value: []byte(" ")}
	r.Attrs = kgo.RecordAttrs{}
	got := string(AppendJSON(nil, r))
	for _, want := range []string{`"topic":"a b"`, `"key":"k y"`, `"payload":" "`} {
		if !bytes.Contains([]byte(got), []byte(want)) {
			t.Errorf("AppendJSON: %s; want it to hold %s", got, want)
		}
	}
}

// Mapped keeps what the record's Context held: it wraps it.
func TestMappedKeepsTheRecordsContext(t *testing.T) {
	m, err := NewMapper(eventlog.Reader{Columns: eventlog.Columns{Key: "key"}})
	if err != nil {
		t.Fatal(err)
	}
	type key struct{}
	r := &kgo.Record{Topic: "t", Key: []byte("k"), Value: []byte(`{}`), Context: context.WithValue(context.Background(), key{}, "mine")}
	m.Mapped(r) // mapped or not, the result is kept in r's Context
	if v := r.Context.Value(key{}); v != "mine" {
		t.Errorf("the record's Context holds %v after Mapped; want what it held, \"mine\"", v)
	}
}
