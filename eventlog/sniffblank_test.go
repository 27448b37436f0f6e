package eventlog

import (
	"strings"
	"testing"
)

// Auto tells a trace's format, when its name does not, from its first
// byte after white space, which it looks for in its read buffer's first
// 64 KiB: JSON Lines after 7 blank lines is read as JSON Lines, and after
// more than 64 KiB of them is an error at line 1 that asks for the format
// by name, never a CSV parse error; named, the trace is read.
func TestAutoFindsJSONLinesAfterBlankLinesOrAsksForTheFormat(t *testing.T) {
	obj := `{"key":"a","step":1,"duration":1}` + "\n"
	for _, tc := range []struct {
		blank  int
		format Format
		err    string
	}{
		{7, Auto, ""},
		{bufferSize + 1, Auto, "<stdin>:1: want the trace's first record within its first 65536 bytes, to tell its format by; the input starts with more blank space: name the format, -input csv or jsonl (Reader.Format)"},
		{bufferSize + 1, JSONL, ""},
	} {
		in := strings.Repeat("\n", tc.blank) + obj
		d, err := NewDecoder(strings.NewReader(in), Reader{Name: "-", Format: tc.format})
		if err != nil {
			t.Fatal(err)
		}
		e, err := d.Next()
		if tc.err != "" {
			if err == nil || err.Error() != tc.err {
				t.Errorf("%d blank lines, format %v: %+v, %v; want the error %q", tc.blank, tc.format, e, err, tc.err)
			}
			continue
		}
		if err != nil || e.Key != "a" || d.Format() != JSONL {
			t.Errorf("JSON Lines after %d blank lines, format %v: %+v, %v, read as %v; want the event of key a, read as jsonl", tc.blank, tc.format, e, err, d.Format())
		}
	}
}
