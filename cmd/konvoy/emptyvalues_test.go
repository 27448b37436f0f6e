package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestAnEmptyFlagValueIsAUsageError: a string flag given an empty value is
// a usage error (status 2) naming the flag, "-F is empty; want ...", and
// never the flag left out. An empty value most likely comes from an unset
// shell variable; taken as no flag, it would let the rules between flags
// pass (-duration-model "" -seed 5 would accept a -seed that draws
// nothing, where -seed 5 alone is refused; -assignor "" with a -policy
// lacking static would escape "add static to -policy") or drop what was
// asked without a word (replay -applied "" would write no file).
func TestAnEmptyFlagValueIsAUsageError(t *testing.T) {
	trace := filepath.Join(t.TempDir(), "t.csv")
	if err := os.WriteFile(trace, []byte("key,step,duration\nA,1,1\nA,2,3\nB,1,2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"-events", trace, "-layouts", "free", "-duration-model", "", "-seed", "5"}, "konvoy: -duration-model is empty; want a distribution"},
		{[]string{"plan", "-events", trace, "-layouts", "free", "-duration-model", "", "-seed", "5"}, "konvoy plan: -duration-model is empty; want a distribution"},
		{[]string{"-events", trace, "-layouts", "free", "-policy", "static", "-assignor", ""}, "konvoy: -assignor is empty; want range, round-robin or first-seen"},
		{[]string{"-events", trace, "-layouts", "free", "-assignor", ""}, "konvoy: -assignor is empty; want range, round-robin or first-seen"},
		{[]string{"replay", "-events", trace, "-unit", "10us", "-applied", ""}, "konvoy replay: -applied is empty; want the FILE"},
	} {
		if _, errOut, status := runCommand(tt.args...); status != 2 || !strings.HasPrefix(errOut, tt.want) {
			t.Errorf("%q: status %d, stderr %q; want 2, a usage error beginning %q", tt.args, status, errOut, tt.want)
		}
	}
}
