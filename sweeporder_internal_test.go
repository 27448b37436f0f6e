package konvoy

import (
	"slices"
	"testing"
)

// A pass's deferred runs go to the next in the order of the
// configurations, whatever their order in the pass: there fit put the
// runs it left out after those it took, and runs that give way at their
// end (results) defer those they took from that one on, before the left
// out ones, which may be earlier configurations. A pass ends its runs in
// its order and reports the first end that fails, so that order must be
// the configurations' for Sweep's error to be the first in configs whose
// end fails.
func TestDeferredRunsKeepTheConfigurationsOrder(t *testing.T) {
	p := &sweepPass{active: 1}
	for _, c := range []int{0, 2, 4, 1, 3} { // took 0, 2 and 4; left out 1 and 3
		p.runs = append(p.runs, &sweepRun{config: c})
	}
	if got := p.deferred(); !slices.Equal(got, []int{1, 2, 3, 4}) {
		t.Errorf("deferred %v after 2 and 4 gave way; want [1 2 3 4]", got)
	}
}
