package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestJSONReportsRefuseKeysThatAreNotUTF8: the reader keeps a key's bytes
// that are not UTF-8, so that two binary keys stay two, and the text
// report names them apart, quoted ("\xff", "\xfe"), as the CSV report
// writes their bytes as they are. A JSON string holds UTF-8 text alone:
// encoding/json would write both as U+FFFD, two keys that read as one, and
// a reader of the JSON could not tell which keys were left wrong. So
// konvoy -format json and konvoy plan -format json refuse such a key, as
// konvoy replay -applied does: exit 1, the command's name first, the key
// quoted, the field it would be written in, and the report that can hold
// it.
func TestJSONReportsRefuseKeysThatAreNotUTF8(t *testing.T) {
	trace := filepath.Join(t.TempDir(), "binary.csv")
	if err := os.WriteFile(trace, []byte("key,step,duration\n\xff,2,1\n\xff,1,1\n\xfe,2,1\n\xfe,1,1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		prefix, field string
		args          []string
	}{
		{"konvoy: ", "(wrong_keys)", []string{"-events", trace, "-layouts", "free", "-consumers", "4", "-format", "json"}},
		{"konvoy plan: ", "(plans.ceiling_lane)", []string{"plan", "-events", trace, "-layouts", "convoy", "-format", "json"}},
	} {
		out, errOut, status := runCommand(c.args...)
		if status != 1 || out != "" || !strings.HasPrefix(errOut, c.prefix) {
			t.Errorf("%q: status %d, %d bytes out; want 1, nothing, and an error starting %q: %s", c.args, status, len(out), c.prefix, errOut)
		}
		for _, want := range []string{`"\xff"`, c.field, "not UTF-8", "the text report names it quoted"} {
			if !strings.Contains(errOut, want) {
				t.Errorf("%q: the error does not say %q: %s", c.args, want, errOut)
			}
		}
	}
	// The text report names them apart.
	out, errOut, status := runCommand("-events", trace, "-layouts", "free", "-consumers", "4")
	if status != 0 || !strings.Contains(out, `"\xff", "\xfe"`) {
		t.Errorf("text report: status %d, want the two keys quoted apart: %s\n%s", status, errOut, out)
	}
}
