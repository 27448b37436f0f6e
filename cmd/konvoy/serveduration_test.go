package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sirali-konvoy/konvoy/internal/serve"
)

// A view's own duration flags win over the served file's, as the page
// says a request's trace flags do: a view asking for a duration column,
// or a model, leaves out the served file's model, or column, and a seed
// that would then seed nothing (no model, or one that draws the same
// every time), which the command refuses beside them. The served file's
// -seed failed every view asking for fixed:N (found by a review).
func TestAViewsDurationFlagsWinOverTheServedFiles(t *testing.T) {
	name := filepath.Join(t.TempDir(), "d.csv")
	if err := os.WriteFile(name, []byte("key,line,step,dur\nA,x,1,2\nB,y,1,1\nA,x,2,1\nC,y,1,3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		served []string
		query  string
		args   []string // the command line the view stands for
	}{
		{[]string{"-duration-model=uniform:1,5", "-seed=3"}, "duration-model=fixed:2", []string{"-duration-model", "fixed:2"}},
		{[]string{"-duration-model=uniform:1,5", "-seed=3"}, "duration-model=exp:2", []string{"-duration-model", "exp:2", "-seed", "3"}},
		{[]string{"-duration-model=uniform:1,5", "-seed=3"}, "duration=dur", []string{"-duration", "dur"}},
		{[]string{"-duration=dur"}, "duration-model=uniform:1,2", []string{"-duration-model", "uniform:1,2"}},
		{[]string{"-duration-model=uniform:1,5", "-seed=3"}, "", []string{"-duration-model", "uniform:1,5", "-seed", "3"}},
	} {
		cfg := serveConfig(name, serve.DefaultMaxUpload)
		cfg.EventsArgs = c.served
		got := apiGet(t, serve.New(cfg), "/api/report?"+c.query)
		args := append([]string{"-format", "json", "-events", name}, c.args...)
		want, errOut, status := runCommand(args...)
		if status != 0 { // a note of the modelled durations on standard error aside
			t.Fatalf("konvoy %s: status %d, %s", strings.Join(args, " "), status, errOut)
		}
		if got != want {
			t.Errorf("served with %q, ?%s: the API answers\n%s\nkonvoy %s prints\n%s", c.served, c.query, got, strings.Join(args, " "), want)
		}
	}
}
