package kafka

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	gocmp "github.com/google/go-cmp/cmp"
	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/eventlog"
	"github.com/sirali-konvoy/konvoy/live"
	"github.com/sirali-konvoy/konvoy/synth"
	"github.com/twmb/franz-go/pkg/kgo"
)

// exportRecords reads the kcat export in testdata back into the records
// it was made of, with its lines.
func exportRecords(t *testing.T) ([]*kgo.Record, [][]byte) {
	t.Helper()
	raw, err := os.ReadFile("../testdata/export.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	var rs []*kgo.Record
	var lines [][]byte
	for line := range bytes.Lines(raw) {
		var v struct {
			Topic        string
			Partition    int32
			Offset, Ts   int64
			Key, Payload *string
		}
		if err := json.Unmarshal(line, &v); err != nil {
			t.Fatal(err)
		}
		r := &kgo.Record{Topic: v.Topic, Partition: v.Partition, Offset: v.Offset, Timestamp: time.UnixMilli(v.Ts)}
		if v.Key != nil {
			r.Key = []byte(*v.Key)
		}
		if v.Payload != nil {
			r.Value = []byte(*v.Payload)
		}
		rs = append(rs, r)
		lines = append(lines, bytes.TrimSuffix(line, []byte("\n")))
	}
	return rs, lines
}

// TestAppendJSONWritesKcatsLine: each record of the export in testdata,
// written by AppendJSON, is its line byte for byte, but for the broker,
// which franz-go does not name (-1).
func TestAppendJSONWritesKcatsLine(t *testing.T) {
	rs, lines := exportRecords(t)
	var b []byte
	for i, r := range rs {
		b = AppendJSON(b[:0], r)
		want := bytes.Replace(lines[i], []byte(`"broker":1,`), []byte(`"broker":-1,`), 1)
		if !bytes.Equal(b, want) {
			t.Fatalf("record %d:\n got %s\nwant %s", i, b, want)
		}
	}
}

// TestAppendJSONWritesBytesAsKcatDoes: a null key, a binary key and
// payload, and headers are written as kcat writes them: null, the bytes
// as they are but '"', '\\' and control characters (escaped as yajl
// escapes them), and headers as names and values in turn before the key.
func TestAppendJSONWritesBytesAsKcatDoes(t *testing.T) {
	r := &kgo.Record{Topic: `t"1`, Partition: 3, Offset: 9, Timestamp: time.UnixMilli(-5),
		Headers: []kgo.RecordHeader{{Key: "h", Value: []byte("v\n")}, {Key: "nil"}},
		Value:   []byte{0xff, 'a', 0, 0x1f, '\\', '"', '\b', '\t', '\f', '\r', '/', 0x7f, 0xc3, 0xa9}}
	got := string(AppendJSON([]byte("x"), r))
	want := `x{"topic":"t\"1","partition":3,"offset":9,"tstype":"create","ts":-5,"broker":-1,"headers":["h","v\n","nil",null],"key":null,"payload":"` +
		"\xffa\\u0000\\u001F\\\\\\\"\\b\\t\\f\\r/\x7f\xc3\xa9" + `"}`
	if got != want {
		t.Errorf("\n got %q\nwant %q", got, want)
	}
	if !json.Valid([]byte(got[1:])) {
		t.Error("Go's JSON scanner refuses the line") // it takes raw invalid UTF-8, as eventlog must
	}
	if got := string(AppendJSON(nil, &kgo.Record{Key: []byte{}})); !strings.Contains(got, `"key":"","payload":null`) {
		t.Errorf("an empty key: %s; want \"\" and a null payload", got)
	}
}

// exportReader maps the export in testdata as docs/traces.md does, with
// modelled durations, leaving arrivals out (a file needs them sorted).
func exportReader() eventlog.Reader {
	model := synth.Uniform(1, 20)
	return eventlog.Reader{Name: "export.jsonl", Columns: eventlog.Columns{Key: "key", Status: "payload.status", Line: "payload.order"},
		Steps: []string{"new", "paid", "shipped", "delivered"}, Durations: &model, Seed: 9}
}

// TestAMappedRecordIsItsExportLine: the records of the export in testdata,
// mapped one by one, are the events the same Reader reads from the file,
// partitions and modelled durations included.
func TestAMappedRecordIsItsExportLine(t *testing.T) {
	rs, _ := exportRecords(t)
	f, err := os.Open("../testdata/export.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var want []konvoy.Event
	for e, err := range exportReader().Events(f) {
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, e)
	}
	m, err := NewMapper(exportReader())
	if err != nil {
		t.Fatal(err)
	}
	var got []konvoy.Event
	for _, r := range rs {
		e, err := m.Event(r)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, e)
	}
	if diff := gocmp.Diff(want, got); diff != "" || len(got) != 320 {
		t.Errorf("%d events; mapped records differ from the file (-file +records):\n%s", len(got), diff)
	}
	if got[0].Partition != 4 || got[0].Key != "order-101" || got[0].Line != "order-101" || got[0].Step != 1 {
		t.Errorf("first event %+v", got[0])
	}
}

// TestBinaryAndNullKeysMapAsTheirLinesRead: a binary key maps as its kcat
// line reads, its bytes as they are; a null key does not map, as an
// export's null key does not, and the error names the record.
func TestBinaryAndNullKeysMapAsTheirLinesRead(t *testing.T) {
	m, err := NewMapper(eventlog.Reader{Columns: eventlog.Columns{Step: "payload.step", Duration: "payload.ms"}, Resolution: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	r := &kgo.Record{Topic: "t", Partition: 1, Offset: 4, Key: []byte{0xfe, 'k', '\n'}, Value: []byte(`{"step":2,"ms":"3ms"}`),
		Headers: []kgo.RecordHeader{{Key: "step", Value: []byte("9")}}}
	e, err := m.Event(r)
	if want := (konvoy.Event{Key: "\xfek\n", Step: 2, Duration: 3, Partition: 1}); err != nil || e != want {
		t.Errorf("binary key: %+v, %v; want %+v", e, err, want)
	}
	r.Key = nil
	_, err = m.Event(r)
	var ee *eventlog.Error
	if !errors.As(err, &ee) || err.Error() != `t [1] at offset 4: field "key": value "null": want a string` {
		t.Errorf("null key: %v; want an *eventlog.Error naming the record and the key", err)
	}
}

// TestFuncsMapOnceAndFailUnmappedRecords: the event function of Funcs
// maps a record once, however often asked (its drawn duration does not
// change); a record that does not map runs in no lane and its handler
// returns the mapping error without calling the caller's.
func TestFuncsMapOnceAndFailUnmappedRecords(t *testing.T) {
	model := synth.Uniform(1, 1000)
	m, err := NewMapper(eventlog.Reader{Columns: eventlog.Columns{Step: "payload.step"}, Durations: &model})
	if err != nil {
		t.Fatal(err)
	}
	called := 0
	event, handle := m.Funcs(func(context.Context, *kgo.Record) error { called++; return nil })
	good := &kgo.Record{Topic: "t", Key: []byte("a"), Value: []byte(`{"step":1}`)}
	first := event(good)
	for range 3 {
		if e := event(good); e != first {
			t.Fatalf("asked again: %+v; want %+v", e, first)
		}
	}
	if again, _ := m.Event(good); again == first {
		t.Errorf("Event draws afresh, yet drew %+v again", again) // 1 in 1000 by chance with this seed: it does not
	}
	if err := handle(context.Background(), good); err != nil || called != 1 {
		t.Errorf("handle: %v, called %d; want nil, 1", err, called)
	}
	bad := &kgo.Record{Topic: "t", Partition: 2, Offset: 7, Key: []byte("a"), Value: []byte(`{"step":"one"}`)}
	if e := event(bad); e != (konvoy.Event{}) {
		t.Errorf("an unmapped record's event %+v; want the zero Event", e)
	}
	err = handle(context.Background(), bad)
	if err == nil || !strings.HasPrefix(err.Error(), `t [2] at offset 7: field "payload.step"`) || called != 1 {
		t.Errorf("handle: %v, called %d; want the mapping error, 1", err, called)
	}
}

// TestAnUnmappedRecordStopsTheConsumer: without a dead letter, a record
// that does not map stops the consumer: Run returns its error, naming it,
// and the commit stops below it.
func TestAnUnmappedRecordStopsTheConsumer(t *testing.T) {
	addrs := cluster(t, 1)
	var rs []*kgo.Record
	for _, v := range []string{`{"step":1,"d":1}`, `{"step":2,"d":1}`, `{"step":3}`, `{"step":4,"d":1}`} {
		rs = append(rs, &kgo.Record{Key: []byte("k"), Value: []byte(v), Partition: 0})
	}
	produceTo(t, addrs, rs)
	ctx, cancel := context.WithTimeout(context.Background(), testWait)
	defer cancel()
	m, err := NewMapper(eventlog.Reader{Columns: eventlog.Columns{Step: "payload.step", Duration: "payload.d"}})
	if err != nil {
		t.Fatal(err)
	}
	var handled []int64
	event, handle := m.Funcs(func(_ context.Context, r *kgo.Record) error { handled = append(handled, r.Offset); return nil })
	c, err := New(memberOpts(addrs), konvoy.Convoy, 1, event, handle)
	if err != nil {
		t.Fatal(err)
	}
	err = c.Run(ctx)
	if !errors.Is(err, live.ErrStopped) || !strings.Contains(err.Error(), `events [0] at offset 2: want a field at the path "payload.d"`) {
		t.Errorf("Run: %v; want live.ErrStopped and the record's mapping error", err)
	}
	if !gocmp.Equal(handled, []int64{0, 1}) {
		t.Errorf("handled %v; want offsets 0 and 1", handled)
	}
	if got := committed(t, addrs); got[0] != 2 {
		t.Errorf("committed %v; want partition 0 at 2, the record that did not map", got)
	}
}

// TestTimestampTypesAreNamedAsKcatNamesThem: kgo's timestamp types, 0
// and 1, are librdkafka's "create" and "logappend"; a record without a
// timestamp (-1) has neither tstype nor ts, as kcat leaves them out.
// (kgo.RecordAttrs cannot be made outside franz-go, nor does kfake set
// LogAppendTime for a topic, so the types are given to the helper.)
func TestTimestampTypesAreNamedAsKcatNamesThem(t *testing.T) {
	at := time.UnixMilli(1717171200152)
	for tt, want := range map[int8]string{-1: "", 0: `,"tstype":"create","ts":1717171200152`, 1: `,"tstype":"logappend","ts":1717171200152`} {
		if got := string(appendTimestamp(nil, tt, at)); got != want {
			t.Errorf("type %d: %q; want %q", tt, got, want)
		}
	}
}

// validRunes is s as Go's encoding/json reads it back from a JSON string
// holding its bytes as they are: each byte that does not start a valid
// UTF-8 sequence becomes U+FFFD. (A reference written byte by byte, not
// as AppendJSON escapes.)
func validRunes(s string) string {
	var b strings.Builder
	for len(s) > 0 {
		r, n := utf8.DecodeRuneInString(s)
		b.WriteRune(r)
		s = s[n:]
	}
	return b.String()
}

// FuzzAppendJSON: whatever a record's topic, key, payload and header hold,
// its line is one JSON object that Go's scanner takes, with no raw line
// break (a line of a JSON Lines trace), whose fields read back as the
// record's, invalid UTF-8 as U+FFFD; and mapping it never panics.
func FuzzAppendJSON(f *testing.F) {
	f.Add("orders", []byte("k"), []byte(`{"step":1}`), "h", []byte("v"), int64(1717171200152), false)
	f.Add("t\n\"", []byte{0xff, 0, '\\'}, []byte{0xc3}, "\x7f", []byte(nil), int64(-1), true)
	m, err := NewMapper(eventlog.Reader{Columns: eventlog.Columns{Step: "payload.step", Duration: "payload.d"}})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, topic string, key, value []byte, hkey string, hvalue []byte, ts int64, nilKey bool) {
		if nilKey {
			key = nil
		}
		r := &kgo.Record{Topic: topic, Key: key, Value: value, Timestamp: time.UnixMilli(ts), Offset: ts,
			Headers: []kgo.RecordHeader{{Key: hkey, Value: hvalue}}}
		line := AppendJSON(nil, r)
		if !json.Valid(line) || bytes.ContainsAny(line, "\n\r") {
			t.Fatalf("line %q: want one valid JSON object on one line", line)
		}
		var v struct {
			Topic        string
			Offset, Ts   int64
			Headers      []*string
			Key, Payload *string
		}
		if err := json.Unmarshal(line, &v); err != nil {
			t.Fatal(err)
		}
		str := func(p *string) any {
			if p == nil {
				return nil
			}
			return *p
		}
		want := func(b []byte) any {
			if b == nil {
				return nil
			}
			return validRunes(string(b))
		}
		if v.Topic != validRunes(topic) || v.Offset != ts || v.Ts != ts || str(v.Key) != want(key) || str(v.Payload) != want(value) ||
			len(v.Headers) != 2 || str(v.Headers[0]) != validRunes(hkey) || str(v.Headers[1]) != want(hvalue) {
			t.Fatalf("line %q reads back as %+v", line, v)
		}
		m.Event(r)
	})
}
