package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sirali-konvoy/konvoy/internal/serve"
)

// TestFlagValuesTheOtherFlagsRuleOutAreUsageErrors: a flag value that the
// other flags alone make impossible is a usage error, status 2, found
// before anything is read or run, with a message that begins with the
// command's name, as "-layouts, -policy and -consumers ask for 5000 runs
// ...; want at most 4096" is; status 1 is kept for a failed run or bad
// input. So are -max-backlog below one event for each of the runs that
// share it, as many as -layouts, -policy and -consumers make (for konvoy
// plan, the most it makes at once), and an -slo target of more whole
// rounds of -round-time than the latency planner counts, and -duration
// beside -duration-model.
func TestFlagValuesTheOtherFlagsRuleOutAreUsageErrors(t *testing.T) {
	trace := filepath.Join(t.TempDir(), "t.csv")
	if err := os.WriteFile(trace, []byte("key,line,step,duration\nA,x,1,1\nA,x,2,3\nB,y,1,2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"-events", trace, "-max-backlog", "1", "-consumers", "1,2"},
			"konvoy: -max-backlog 1 is shared by 8 runs: want 0 (no limit) or at least 8, one event a run\n"},
		{[]string{"-events", "testdata/arrivals.csv", "-max-backlog", "3", "-layouts", "all", "-policy", "lane-aware"},
			"konvoy: -max-backlog 3 is shared by 28 runs: want 0 (no limit) or at least 28, one event a run\n"},
		{[]string{"plan", "-events", trace, "-max-backlog", "1"},
			"konvoy plan: -max-backlog 1 is shared by 10 runs: want 0 (no limit) or at least 10, one event a run\n"},
		{[]string{"plan", "-events", trace, "-max-backlog", "11", "-policy", "all"},
			"konvoy plan: -max-backlog 11 is shared by 18 runs: want 0 (no limit) or at least 18, one event a run\n"},
		{[]string{"plan", "-slo", "max=1h", "-round-time", "1ns", "-arrivals", "poisson"},
			"konvoy plan: -slo: 1h0m0s is 3600000000000 rounds of 1ns; want at most 2147483647\n"},
		// A column named for durations beside drawn ones: one would be ignored.
		{[]string{"-events", trace, "-duration", "duration", "-duration-model", "fixed:2"},
			"konvoy: -duration names a column and -duration-model draws the durations; give one\n"},
		{[]string{"replay", "-events", trace, "-duration", "duration", "-duration-model", "fixed:2"},
			"konvoy replay: -duration names a column and -duration-model draws the durations; give one\n"},
	} {
		if out, errOut, status := runCommand(tt.args...); status != 2 || out != "" || errOut != tt.want {
			t.Errorf("%q: status %d, stdout %q, stderr %q; want 2 and %q", tt.args, status, out, errOut, tt.want)
		}
	}
}

// A flag given twice on a command line is an error naming both values: the
// flag package keeps the last, and "-layouts free -layouts convoy" ran
// convoy alone without a word (found by a review). konvoy serve, whose
// views' flags win over the served trace's, lets them repeat.
func TestAFlagGivenTwiceIsAnError(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-events", "testdata/arrivals.csv", "-layouts", "free", "-layouts", "convoy"}, `konvoy: -layouts is given twice, as "free" and as "convoy"; give each flag once`},
		{[]string{"-layouts=free", "--layouts=convoy"}, `konvoy: -layouts is given twice, as "free" and as "convoy"; give each flag once`},
		{[]string{"-gantt", "-gantt=false"}, `konvoy: -gantt is given twice, as "true" and as "false"; give each flag once`},
		{[]string{"plan", "-slo", "p50=1s", "-slo", "p99=2s"}, `konvoy plan: -slo is given twice, as "p50=1s" and as "p99=2s"; give each flag once`},
		{[]string{"gen", "-events", "5", "-events", "6"}, `konvoy gen: -events is given twice, as "5" and as "6"; give each flag once`},
	} {
		_, errOut, status := runCommand(tc.args...)
		if status != 2 || strings.TrimSpace(errOut) != tc.want {
			t.Errorf("%q: status %d, stderr %q; want 2 and %q", tc.args, status, errOut, tc.want)
		}
	}
	if _, err := parseArgs([]string{"-format", "json", "-layouts", "free", "-layouts", "convoy"}, io.Discard, true); err != nil {
		t.Errorf("parseArgs for konvoy serve: %v; want the last value kept", err)
	}
}

// A bool flag's bad value says what it wants, true or false, on the
// command line and in konvoy serve's query alike, where the flag package
// says only "parse error"; -name alone still sets it.
func TestABadBoolSaysTrueOrFalse(t *testing.T) {
	status, _, errOut := runUsage(t, "-gantt=yes")
	if want := `invalid boolean value "yes" for -gantt: want true or false`; status != 2 || !strings.Contains(errOut, want) {
		t.Errorf("-gantt=yes: status %d, stderr %q; want 2 and %q", status, errOut, want)
	}
	s := serve.New(serveConfig("", serve.DefaultMaxUpload))
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/api/report?round=yes", nil))
	if want := `invalid boolean value \"yes\" for -round: want true or false`; rec.Code/100 != 4 || !strings.Contains(rec.Body.String(), want) {
		t.Errorf("?round=yes: status %d, body %s; want a 4xx and %s", rec.Code, rec.Body, want)
	}
	if _, errOut, status := runCommand("-events", "testdata/arrivals.csv", "-layouts", "free,convoy", "-capacity"); status != 0 {
		t.Errorf("-capacity alone: status %d, stderr %q", status, errOut)
	}
}
