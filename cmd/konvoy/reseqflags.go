package main

import (
	"fmt"
	"math"
	"slices"

	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/internal/runs"
)

// resequencer defines the resequencer's flags, -start, -reseq-timeout,
// -reseq-capacity and -reject-old, into cfg (see konvoy.ResequencerConfig),
// which need the resequencer among the layouts the flag named layouts
// names.
// -start is first-seen by default, as issue 17 asks: a trace is a window of
// time, and most keys' lifecycles began before it. A key whose first steps
// arrive out of order then has its late first steps taken for old steps,
// which the report shows as backward writes (or, with -reject-old,
// rejections); -start zero is the lesson's rule.
func (c *command) resequencer(cfg *konvoy.ResequencerConfig, layouts string) {
	var start string
	c.choice(&start, "start", "first-seen", "where the resequencer takes a key's lifecycle to begin: zero, before step 1, or `first-seen`, at the step of the key's "+
		"first event in the input, so that a lifecycle cut by a trace's window is no gap", "zero or first-seen", "zero", "first-seen")
	var timeout int64 // read in 64 bits, so that a value past int32 gets the range below on every platform
	c.Int64Var(&timeout, "reseq-timeout", 0, "apply a held event `ROUNDS` rounds after it finished if its gap has not filled, skipping the gap (default 0: wait forever)")
	c.IntVar(&cfg.Capacity, "reseq-capacity", 0, "hold at most `N` events at once: one more applies the lowest step held by the key of the one held longest, skipping the steps missing before it (default 0: no bound)")
	c.wantRange("reseq-timeout", fmt.Sprintf("0 (wait forever) to %d rounds", math.MaxInt32))
	c.wantRange("reseq-capacity", fmt.Sprintf("0 (no bound) to %d events", math.MaxInt))
	c.BoolVar(&cfg.RejectOld, "reject-old", false, "reject a step at or below its key's state that the key never applied, rather than write it backward")
	c.rule(func() (err error) {
		switch {
		case timeout < 0 || timeout > math.MaxInt32:
			return c.usagef("-reseq-timeout is %d; want 0 (wait forever) to %d rounds", timeout, math.MaxInt32)
		case cfg.Capacity < 0:
			return c.usagef("-reseq-capacity is %d; want 0 (no bound) or more events", cfg.Capacity)
		}
		cfg.Timeout = int(timeout)
		cfg.Start, err = konvoy.ParseResequencerStart(start)
		return err
	})
	c.rule(func() error {
		flags := []string{"start", "reseq-timeout", "reseq-capacity", "reject-old"}
		if i := slices.IndexFunc(flags, c.isSet); i >= 0 && !namesResequencer(c.Lookup(layouts).Value.String()) {
			return c.usagef("-%s needs the resequencer in -%s (resequencer%s)", flags[i], layouts, map[bool]string{true: ", or all"}[layouts == "layouts"])
		}
		return nil
	})
}

// namesResequencer tells whether layouts, -layouts' comma-separated names,
// runs the resequencer: by its name, or as one of all.
func namesResequencer(layouts string) bool {
	return runs.NamesLayout(layouts, func(name string) bool {
		l, err := konvoy.ParseLayout(name)
		return err == nil && l.Equal(konvoy.Resequencer)
	})
}
