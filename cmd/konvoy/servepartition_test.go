package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sirali-konvoy/konvoy/internal/serve"
)

// konvoy serve's -partition names the column the layout recorded reads:
// a view whose layouts name recorded gets it, as the command line does,
// and a view without recorded answers as the command does without it.
// Passed to every view, it failed each one without recorded (the default
// view among them) with the command's refusal of -partition beside layouts
// that do not read it.
func TestServesPartitionGoesToTheViewsOfRecorded(t *testing.T) {
	name := filepath.Join(t.TempDir(), "parts.csv")
	if err := os.WriteFile(name, []byte("key,line,step,duration,p\nA,x,1,2,0\nB,y,1,1,1\nA,x,2,1,0\nC,y,1,3,1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := serveConfig(name, serve.DefaultMaxUpload)
	cfg.EventsArgs = []string{"-partition=p"}
	s := serve.New(cfg)
	for _, c := range []struct {
		query string
		args  []string
	}{
		{"", nil},
		{"layouts=free,convoy", []string{"-layouts", "free,convoy"}},
		{"layouts=recorded,convoy", []string{"-partition", "p", "-layouts", "recorded,convoy"}},
		{"layouts=all", []string{"-partition", "p", "-layouts", "all"}},
	} {
		got := apiGet(t, s, "/api/report?"+c.query)
		args := append([]string{"-format", "json", "-events", name}, c.args...)
		want, errOut, status := runCommand(args...)
		if status != 0 || errOut != "" {
			t.Fatalf("konvoy %s: status %d, %s", strings.Join(args, " "), status, errOut)
		}
		if got != want {
			t.Errorf("?%s: the API answers\n%s\nkonvoy %s prints\n%s", c.query, got, strings.Join(args, " "), want)
		}
	}
}
