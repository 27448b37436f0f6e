package eventlog

import (
	"strings"
	"testing"
)

// Auto tells a trace's format, when its name does not, "from its first
// byte after white space: '{' is JSON Lines", and a JSON Lines trace may
// have blank lines. sniff peeks at most the read buffer's 64 KiB, and
// calls CSV whatever it cannot see: standard input of JSON Lines whose
// first object comes after 64 KiB of blank lines is read as CSV, and
// refused with a CSV parse error, where the same trace with fewer blank
// lines is read.
func TestAutoFindsJSONLinesAfterManyBlankLines(t *testing.T) {
	obj := `{"key":"a","step":1,"duration":1}` + "\n"
	for _, blank := range []int{7, bufferSize + 1} {
		in := strings.Repeat("\n", blank) + obj
		d, err := NewDecoder(strings.NewReader(in), Reader{Name: "-"})
		if err != nil {
			t.Fatal(err)
		}
		e, err := d.Next()
		if err != nil || e.Key != "a" || d.Format() != JSONL {
			t.Errorf("JSON Lines after %d blank lines: %+v, %v, read as %v; want the event of key a, read as jsonl", blank, e, err, d.Format())
		}
	}
}
