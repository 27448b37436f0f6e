package main

import (
	"errors"
	"strconv"
)

// backlog defines -max-backlog, which needs -events, setting *n: no limit
// unless given, since -max-memory counts what the runs' backlogs hold.
func (c *command) backlog(n *int) {
	*n = 0
	c.needs("events", "max-backlog")
	c.Func("max-backlog", "the most events `N` that the runs together may hold at once: one for each consumer "+
		"that has taken one, and those waiting for a consumer (lane-aware), to be applied (static over lines) or for a gap "+
		"(resequencer); shared equally by the runs; 0 for no limit (default 0: -max-memory counts what the runs hold)", func(v string) error {
		m, err := strconv.Atoi(v)
		if err != nil || m < 0 {
			return errors.New("want 0 (no limit) or more events")
		}
		*n = m
		return nil
	})
}
