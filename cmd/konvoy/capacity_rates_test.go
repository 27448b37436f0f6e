package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestCapacityTablesWriteRatesAsTheReportsDo: the capacity tables, konvoy
// -events -capacity's and konvoy plan's sensitivity to the ordered share,
// write the peak and its ordered and unordered parts as every rate of the
// reports is written (report.formatAmount): a rate below 0.005 events/s
// with two significant digits, so that no rate above 0 reads as 0.00 (at
// -peak 0.001 the table splits 0.001 into 0.00075 and 0.00025); -peak -0,
// which equals 0, as 0.00 (unless the flags refuse it), never as a
// negative rate; and a rate from 1e15 on in exponent form (-peak 1e300 is
// 1e+300, not 301 digits).
func TestCapacityTablesWriteRatesAsTheReportsDo(t *testing.T) {
	trace := filepath.Join(t.TempDir(), "t.csv")
	if err := os.WriteFile(trace, []byte("key,step,duration\nA,1,1\nA,0,3\nB,1,3\nA,2,2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name, from, to, bad string // bad: a regular expression
		args                []string
	}{
		{"konvoy -capacity -peak 0.001", "capacity at a peak", "whole stream", ` 0\.00 `,
			[]string{"-events", trace, "-capacity", "-layouts", "free,convoy", "-peak", "0.001"}},
		{"konvoy -capacity -peak -0", "capacity at a peak", "whole stream", `-0\.00`,
			[]string{"-events", trace, "-capacity", "-layouts", "free,convoy", "-peak", "-0"}},
		{"konvoy plan -peak 0.001", "sensitivity to the ordered share", "costs on the ordered steps", ` 0\.00 `,
			[]string{"plan", "-peak", "0.001"}},
		{"konvoy -capacity -peak 1e300", "capacity at a peak", "whole stream", "[0-9]{40}",
			[]string{"-events", trace, "-capacity", "-layouts", "free,convoy", "-peak", "1e300"}},
	} {
		out, errOut, status := runCommand(tt.args...)
		if status == 2 && tt.name == "konvoy -capacity -peak -0" {
			continue // flags that refuse -0 as a rate's sign keep it out of the table too
		}
		if status != 0 {
			t.Errorf("%s: status %d: %s", tt.name, status, errOut)
			continue
		}
		table := out
		if i := strings.Index(table, tt.from); i >= 0 {
			table = table[i:]
		}
		if i := strings.Index(table, tt.to); i >= 0 {
			table = table[:i]
		}
		var rows []string // but the row of share 1, whose unordered rate is 0
		for _, row := range strings.Split(table, "\n") {
			if !strings.HasPrefix(row, "1.000 ") {
				rows = append(rows, row)
			}
		}
		if table = strings.Join(rows, "\n"); regexp.MustCompile(tt.bad).MatchString(table) {
			t.Errorf("%s: the table matches %s:\n%s", tt.name, tt.bad, table)
		}
	}
}
