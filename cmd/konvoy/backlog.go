package main

import (
	"errors"

	"github.com/sirali-konvoy/konvoy/internal/report"
)

// backlog defines -max-backlog, which needs -events, setting *n: no limit
// unless given, since -max-memory counts what the runs' backlogs hold.
func (c *command) backlog(n *int) {
	*n = 0
	c.needs("events", "max-backlog")
	c.Func("max-backlog", "the most events `N` that the runs together may hold at once: one for each consumer "+
		"that has taken one, and those waiting for a consumer (lane-aware), to be applied (static over lines) or for a gap "+
		"(resequencer); shared equally by the runs; 0 for no limit (default 0: -max-memory counts what the runs hold)", func(v string) error {
		m, err := decimalInt(v)
		if errors.Is(err, errNotDecimal) {
			return err
		}
		if err != nil || m < 0 {
			return errors.New("want 0 (no limit) or more events")
		}
		*n = m
		return nil
	})
}

// backlogShared returns the usage error of -max-backlog n shared by runs
// runs, the runs the flags alone make (report.BacklogTooSmall), so that
// it is refused before anything runs; nil for 0 (no limit) or enough. A
// trace may still add runs (the layout recorded joins -layouts all when
// it has partitions), which the runs' own check then refuses.
func (c *command) backlogShared(n, runs int) error {
	if err := report.BacklogTooSmall(c.name, n, runs); err != nil {
		return usageError{err.Error()}
	}
	return nil
}
