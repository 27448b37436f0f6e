package main

import (
	"os"
	"path/filepath"
	"testing"
)

// A time below a nanosecond, which Go's durations and timestamps cannot
// hold, is an error wherever konvoy reads one, as a fraction of a round
// is without -round: in a duration (1.5ns, 1.0000000005s), in an RFC 3339
// arrival, and in the flags of time (-unit 1.5ns, -unit 0.5ns), rather
// than the part below a nanosecond dropped without a word.
func TestTimesBelowANanosecondAreRefused(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct {
		name, trace string
		args        []string
	}{
		{"a duration of 1.5ns at -unit 1ns", "key,step,duration\nA,1,1.5ns\n", []string{"-unit", "1ns"}},
		{"a duration of 0.4ns at -unit 1ns", "key,step,duration\nA,1,0.4ns\n", []string{"-unit", "1ns"}},
		{"a duration of 1.0000000005s at -unit 1s", "key,step,duration\nA,1,1.0000000005s\n", []string{"-unit", "1s"}},
		{"an rfc3339 arrival 1.5ns after the first at -unit 1ns",
			"key,step,duration,at\nA,1,1ns,2024-01-01T00:00:00Z\nA,2,1ns,2024-01-01T00:00:00.0000000015Z\n",
			[]string{"-unit", "1ns", "-at-format", "rfc3339"}},
		{"-unit 1.5ns", "key,step,duration\nA,1,3ns\n", []string{"-unit", "1.5ns"}},
		{"-unit 0.5ns", "key,step,duration\nA,1,3\n", []string{"-unit", "0.5ns"}},
	} {
		file := filepath.Join(dir, "t.csv")
		if err := os.WriteFile(file, []byte(tt.trace), 0o644); err != nil {
			t.Fatal(err)
		}
		out, errOut, status := runCommand(append([]string{"-events", file, "-layouts", "free", "-format", "csv", "-consumers", "1"}, tt.args...)...)
		if status == 0 {
			t.Errorf("%s: read without a word (stderr %q):\n%s", tt.name, errOut, out)
		}
	}
}
