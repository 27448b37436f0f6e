package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// A count of one round is "1 round" wherever a plan writes one: a lane
// that carries 1 round of work, a floor of 1 round, the work of 1 round
// that needs more consumers than one, the 1 round events take to arrive,
// a budget of at most 1 round. (The latency plan's reasons and
// assumptions, and the capacity plan's budget, wrote "1 rounds"; found
// by two reviews.)
func TestAPlanWritesOneRoundInTheSingular(t *testing.T) {
	dir := t.TempDir()
	trace := func(name, text string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	two := trace("two.csv", "key,line,step,duration,at\nA,x,1,1,0\nB,y,1,1,0\n")
	tenOverOne := trace("ten.csv", "key,line,step,duration,at\nA,x,1,5,0\nA,x,2,5,0\n")
	oneOfWork := trace("one.csv", "key,line,step,duration,at\nA,x,1,1,0\nB,y,1,0,0\n")
	plural := regexp.MustCompile(`(^|[^0-9.])1 rounds\b`) // not "0.1 rounds"
	for _, c := range []struct {
		args  []string
		wants []string
	}{
		{[]string{"plan", "-events", two, "-arrivals", "poisson", "-slo", "p99=1s", "-peak", "1000000"},
			[]string{"A carries 1 round of work over", "p99 1 round (10ms) is the floor"}},
		{[]string{"plan", "-events", tenOverOne, "-arrivals", "poisson", "-slo", "p99=1s", "-peak", "200"},
			[]string{"A carries 10 rounds of work over the 1 round its 2 events take to arrive", "keeping up means at most 1 round"}},
		{[]string{"plan", "-events", oneOfWork, "-arrivals", "poisson", "-slo", "p99=1s", "-peak", "1000000"},
			[]string{"the work, 1 round, arrives over"}},
	} {
		out, errOut, status := runCommand(c.args...)
		if status != 0 {
			t.Fatalf("%q: status %d, stderr %q", c.args, status, errOut)
		}
		flat := strings.Join(strings.Fields(out), " ") // the report wraps its lines
		if m := plural.FindStringIndex(flat); m != nil {
			t.Errorf("%q writes %q; want \"1 round\"", c.args, flat[max(0, m[0]-60):m[1]])
		}
		for _, want := range c.wants {
			if !strings.Contains(flat, want) {
				t.Errorf("%q does not say %q:\n%s", c.args, want, out)
			}
		}
	}
}
