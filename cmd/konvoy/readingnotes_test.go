package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// konvoy plan and konvoy replay say what reading a trace changed, as
// konvoy's report does, so that no answer over a changed trace reads as
// one over the trace itself: events dropped as late (-late drop),
// durations modelled (-duration-model), and durations and arrivals
// rounded (-round), in the report or as a note on standard error, in
// every format.
func TestPlanAndReplaySayWhatReadingTheTraceChanged(t *testing.T) {
	dir := t.TempDir()
	late := filepath.Join(dir, "a.csv")
	rounded := filepath.Join(dir, "b.csv")
	plain := filepath.Join(dir, "c.csv")
	for file, data := range map[string]string{
		late: "key,step,duration,at\nA,1,1s,2024-01-01T00:00:05Z\nB,1,1s,2024-01-01T00:00:09Z\n" +
			"A,2,1s,2024-01-01T00:00:01Z\nC,1,1s,2024-01-01T00:00:10Z\n",
		rounded: "key,step,duration\nA,1,1.4ms\nA,2,2ms\nB,1,3.6ms\n",
		plain:   "key,step,duration\nA,1,1\nA,2,2\nB,1,3\n",
	} {
		if err := os.WriteFile(file, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	lateArgs := []string{"plan", "-events", late, "-unit", "1s", "-at-format", "rfc3339", "-reorder", "2s", "-late", "drop", "-layouts", "free"}
	for _, tt := range []struct {
		what string
		args []string
		want string
	}{
		{"-late drop, text", lateArgs, "dropped"},
		{"-late drop, json", append(lateArgs, "-format", "json"), "dropped"},
		{"-duration-model, text", []string{"plan", "-events", plain, "-duration-model", "fixed:2", "-layouts", "free"}, "modelled"},
		{"-duration-model, json", []string{"plan", "-events", plain, "-duration-model", "fixed:2", "-layouts", "free", "-format", "json"}, "modelled"},
		{"-round, json", []string{"plan", "-events", rounded, "-unit", "1ms", "-round", "-layouts", "free", "-format", "json"}, "rounded"},
		{"replay -duration-model, text", []string{"replay", "-events", plain, "-duration-model", "fixed:2", "-unit", "20us"}, "modelled"},
		{"replay -duration-model, json", []string{"replay", "-events", plain, "-duration-model", "fixed:2", "-unit", "20us", "-format", "json"}, "modelled"},
		{"replay -round, text", []string{"replay", "-events", rounded, "-unit", "1ms", "-round"}, "rounded"},
		{"replay -round, json", []string{"replay", "-events", rounded, "-unit", "1ms", "-round", "-format", "json"}, "rounded"},
	} {
		out, errOut, status := runCommand(tt.args...)
		if status != 0 {
			t.Errorf("%s: status %d: %s", tt.what, status, errOut)
			continue
		}
		if !strings.Contains(out, tt.want) && !strings.Contains(errOut, tt.want) {
			t.Errorf("%s: neither the report nor standard error says %q", tt.what, tt.want)
		}
	}
	// A JSON plan and a JSON replay count the values rounded, 2 of them
	// (1.4ms and 3.6ms), as konvoy's records do, and 0 without -round.
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"plan", "-events", rounded, "-unit", "1ms", "-round", "-layouts", "free", "-format", "json"}, `"rounded": 2,`},
		{[]string{"replay", "-events", rounded, "-unit", "1ms", "-round", "-format", "json"}, `"rounded": 2,`},
		{[]string{"plan", "-events", plain, "-layouts", "free", "-format", "json"}, `"rounded": 0,`},
		{[]string{"replay", "-events", plain, "-unit", "20us", "-format", "json"}, `"rounded": 0,`},
	} {
		out, errOut, status := runCommand(tt.args...)
		if status != 0 || !strings.Contains(out, tt.want) {
			t.Errorf("%q: status %d, stderr %q; want 0 and %s in the JSON report:\n%s", tt.args, status, errOut, tt.want, out)
		}
	}
}
