package main

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/sirali-konvoy/konvoy"
)

// defaultMaxBacklog is -max-backlog's default: some 8M events held, at 32
// bytes (static's queue) to 90 (a consumer's place) each, and up to twice
// that while the structures that hold them grow: at most some 1.5 GB.
const defaultMaxBacklog = 8_000_000

// backlog defines -max-backlog, which needs -events, setting *n.
func (c *command) backlog(n *int) {
	*n = defaultMaxBacklog
	c.needs("events", "max-backlog")
	c.Func("max-backlog", fmt.Sprintf("the most events `N` that the runs together may hold at once: one for each consumer "+
		"that has taken one, and those waiting for a consumer (lane-aware), to be applied (static over lines) or for a gap "+
		"(resequencer); shared equally by the runs; 0 for no limit (default %d)", defaultMaxBacklog), func(v string) error {
		m, err := strconv.Atoi(v)
		if err != nil || m < 0 {
			return errors.New("want 0 (no limit) or more events")
		}
		*n = m
		return nil
	})
}

// backlogShare returns the backlog each of runs runs may hold, total
// shared equally, at least 1; 0, no limit, when total is 0.
func backlogShare(total, runs int) int {
	if total == 0 {
		return 0
	}
	return max(1, total/max(1, runs))
}

// backlogHint adds to err, when a run's backlog outgrew its share of total,
// shared by runs runs, what can be done about it.
func backlogHint(err error, total, runs int) error {
	if !errors.Is(err, konvoy.ErrBacklog) {
		return err
	}
	return fmt.Errorf("%w; -max-backlog %d is shared by %d runs: raise it, or run fewer layouts, policies or consumer counts", err, total, runs)
}
