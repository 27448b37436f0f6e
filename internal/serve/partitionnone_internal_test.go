package serve

import (
	"net/url"
	"slices"
	"testing"
)

// A served file's -partition COLUMN is left out of a view whose layouts
// do not name recorded, which the command would refuse beside it; its
// -partition -, which reads no column, is kept for every view: without it
// the default partition column, of regions say, came back and failed the
// view (found by a review).
func TestAServedPartitionNoneIsKeptForEveryView(t *testing.T) {
	for _, c := range []struct {
		served, layouts string
		kept            bool
	}{
		{"-partition=-", "free", true},
		{"-partition=-", "", true},
		{"-partition=p", "free", false},
		{"-partition=p", "free,recorded", true},
	} {
		src := &source{args: []string{"-events=t.csv", c.served}}
		args := src.argsFor(request{query: url.Values{"layouts": {c.layouts}}})
		if kept := slices.Contains(args, c.served); kept != c.kept {
			t.Errorf("served %s, ?layouts=%s: args %q; want %s kept: %v", c.served, c.layouts, args, c.served, c.kept)
		}
	}
}
