package report

import (
	"strings"
	"testing"

	"github.com/sirali-konvoy/konvoy"
)

// TestLatencyQuotesAWorstLaneKey: the latency table's "worst lane" column
// prints a key as keyName does everywhere else in the reports, quoted when
// it holds a separator, a quote, a line break or a character that does not
// print: a key read from CSV may hold a newline ("x\ny"), which printed raw
// would split the table's row in two.
func TestLatencyQuotesAWorstLaneKey(t *testing.T) {
	for _, key := range []string{"x\ny", "l\tm", "a b"} {
		r := konvoy.Result{Rounds: 18, Work: 20, WorstLanes: []konvoy.LaneWait{{Lane: key, Events: 2, MaxWait: 9}}}
		out := Latency([]konvoy.Layout{konvoy.Convoy}, []konvoy.Policy{konvoy.HeadOfLine}, 2, false,
			func(int, int) konvoy.Result { return r })
		if want := keyName(key) + " (9)"; !strings.Contains(out, want) {
			t.Errorf("key %q: the latency table does not name the worst lane as %s:\n%s", key, want, out)
		}
	}
}
