package eventlog

import (
	"strings"
	"testing"

	"github.com/sirali-konvoy/konvoy/synth"
)

// A column the decoder does not read is held to less than one it reads,
// at a dotted path as by a plain name: with Durations set a duration may
// be absent, and a status beside a step may be named twice, since neither
// is read; the records below are read whichever way their columns are
// named.
func TestAPathToAColumnNotReadIsHeldToWhatTheColumnIs(t *testing.T) {
	two := synth.Fixed(2)
	for _, c := range []struct {
		name string
		r    Reader
		in   string
	}{
		{"drawn duration at a path, absent", Reader{Format: JSONL, Columns: Columns{Duration: "p.d"}, Durations: &two}, `{"key":"a","step":1}`},
		{"drawn duration by name, absent", Reader{Format: JSONL, Columns: Columns{Duration: "d"}, Durations: &two}, `{"key":"a","step":1}`},
		{"status at a path, twice, with a step", Reader{Format: JSONL, Columns: Columns{Status: "p.s"}}, `{"key":"a","step":1,"duration":1,"p":{"s":"x","s":"y"}}`},
		{"status by name, twice, with a step", Reader{Format: JSONL, Columns: Columns{Status: "s"}}, `{"key":"a","step":1,"duration":1,"s":"x","s":"y"}`},
	} {
		d, err := NewDecoder(strings.NewReader(c.in+"\n"), c.r)
		if err != nil {
			t.Fatal(err)
		}
		if e, err := d.Next(); err != nil || e.Key != "a" || e.Step != 1 {
			t.Errorf("%s: %+v, %v; want the event of key a at step 1", c.name, e, err)
		}
	}
}
