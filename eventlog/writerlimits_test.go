package eventlog_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/eventlog"
)

// TestWriterOutputReadsBackWithALongKey: a zero Reader reads a Writer's
// output back to the same events, so Write refuses a key or line longer
// than DefaultMaxNameBytes, which a zero Reader refuses, and writes one of
// DefaultMaxNameBytes, which reads back.
func TestWriterOutputReadsBackWithALongKey(t *testing.T) {
	for _, f := range []eventlog.Format{eventlog.CSV, eventlog.JSONL} {
		for _, ev := range []konvoy.Event{
			{Key: strings.Repeat("k", eventlog.DefaultMaxNameBytes+1), Step: 1, Duration: 1},
			{Key: "a", Line: strings.Repeat("l", eventlog.DefaultMaxNameBytes+1), Step: 1, Duration: 1},
		} {
			var b bytes.Buffer
			w := eventlog.NewWriter(&b, f)
			if err := w.Write(ev); err != nil {
				continue // refused, as it should be
			}
			t.Errorf("%v: Write took a key of %d bytes and a line of %d", f, len(ev.Key), len(ev.Line))
			if err := w.Flush(); err != nil {
				t.Fatal(err)
			}
			var got []konvoy.Event
			for e, err := range (eventlog.Reader{}).Events(&b) {
				if err != nil {
					t.Errorf("%v: Write accepted a key of %d bytes and a line of %d, but a zero Reader refuses its output: %v",
						f, len(ev.Key), len(ev.Line), err)
					break
				}
				got = append(got, e)
			}
			if len(got) == 1 && got[0] != ev {
				t.Errorf("%v: read back %d bytes of key, want %d", f, len(got[0].Key), len(ev.Key))
			}
		}
	}
}

// A key of DefaultMaxNameBytes exactly is written and reads back.
func TestWriterWritesAKeyOfTheMostBytes(t *testing.T) {
	ev := konvoy.Event{Key: strings.Repeat("k", eventlog.DefaultMaxNameBytes), Step: 1, Duration: 1}
	for _, f := range []eventlog.Format{eventlog.CSV, eventlog.JSONL} {
		var b bytes.Buffer
		w := eventlog.NewWriter(&b, f)
		if err := w.Write(ev); err != nil {
			t.Fatalf("%v: %v", f, err)
		}
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		var got []konvoy.Event
		for e, err := range (eventlog.Reader{}).Events(&b) {
			if err != nil {
				t.Fatalf("%v: %v", f, err)
			}
			got = append(got, e)
		}
		if len(got) != 1 || got[0] != ev {
			t.Fatalf("%v: read back %d events", f, len(got))
		}
	}
}
