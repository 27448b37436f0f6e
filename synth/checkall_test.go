package synth_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/sirali-konvoy/konvoy/synth"
)

// Config.Check lists every field out of range. OrderedSteps −1 is out of
// range whatever StepsPerKey holds (OrderedSteps is 0 to StepsPerKey, and
// StepsPerKey is 1 or more), so Check must name it beside StepsPerKey 0,
// rather than only once StepsPerKey is fixed.
func TestCheckListsEveryFieldOutOfRange(t *testing.T) {
	for _, c := range []struct {
		change func(*synth.Config)
		want   []string
	}{
		{func(c *synth.Config) { c.StepsPerKey, c.OrderedSteps = 0, -1 }, []string{"StepsPerKey", "OrderedSteps"}},
	} {
		cfg := synth.Default()
		c.change(&cfg)
		var got []string
		if err := cfg.Check(); err != nil {
			for _, e := range err.(interface{ Unwrap() []error }).Unwrap() {
				var ce *synth.ConfigError
				if errors.As(e, &ce) {
					got = append(got, ce.Field)
				}
			}
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("Check names the fields %q; want %q, every field out of range\nerror: %v", got, c.want, cfg.Check())
		}
	}
}
