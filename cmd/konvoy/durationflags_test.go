package main

import (
	"strings"
	"testing"
)

// A duration flag's value written badly is refused naming the flag and
// what it wants, as every other flag's is: a number with a unit. (It was
// time's own `time: invalid duration "foo"`, which says no unit; found by
// a review.) One past what a time.Duration holds, or with a part below a
// nanosecond, keeps its own reason.
func TestADurationFlagWrittenBadlySaysWhatItWants(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-events", "x.csv", "-unit", "foo"}, `invalid value "foo" for flag -unit: ` + wantDuration},
		{[]string{"-events", "x.csv", "-unit", "5"}, `invalid value "5" for flag -unit: ` + wantDuration},
		{[]string{"-events", "x.csv", "-reorder", "x"}, `invalid value "x" for flag -reorder: ` + wantDuration},
		{[]string{"plan", "-round-time", "1 s"}, `invalid value "1 s" for flag -round-time: ` + wantDuration},
		{[]string{"replay", "-idle", "x"}, `invalid value "x" for flag -idle: ` + wantDuration},
		{[]string{"replay", "-session-timeout", "10"}, `invalid value "10" for flag -session-timeout: ` + wantDuration},
		{[]string{"-events", "x.csv", "-unit", "3000000h"}, `invalid value "3000000h" for flag -unit: duration "3000000h": want at most 2562047h47m16.854775807s either way`},
		{[]string{"-events", "x.csv", "-unit", "1.5ns"}, `invalid value "1.5ns" for flag -unit: duration "1.5ns": want whole nanoseconds`},
	} {
		out, errOut, status := runCommand(c.args...)
		first, _, _ := strings.Cut(errOut, "\n") // the usage follows
		if status != 2 || out != "" || !strings.HasPrefix(first, c.want) {
			t.Errorf("%q: status %d, stdout %q, stderr's first line %q; want 2 and %q", c.args, status, out, first, c.want)
		}
	}
}
