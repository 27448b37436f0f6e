package main

import (
	"errors"
	"fmt"
	"strconv"
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
