package eventlog

import (
	"strings"
	"testing"

	"github.com/sirali-konvoy/konvoy/synth"
)

// A column the decoder does not read is held to less than one it reads,
// and a dotted path is read as a field's name is (Columns): with
// Durations set, the duration "may then be absent", and a field named
// twice is an error only when the decoder reads it ("A column the decoder
// reads named twice ... or on the way along a path"), which a status is
// not when the record has a step. findAbsent resolves every dotted name,
// read or not, so a drawn duration named "p.d" that a record lacks, and a
// status "p.s" named twice in a record with a step, are errors, where the
// same records with the plain names "d" and "s" are read.
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
