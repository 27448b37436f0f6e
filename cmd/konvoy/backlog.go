package main

import (
	"errors"
	"flag"
	"fmt"
	"strconv"

	"github.com/sirali-konvoy/konvoy"
)

// defaultMaxBacklog is -max-backlog's default: some 1 GiB of events held,
// at 56 to 64 bytes each.
const defaultMaxBacklog = 16_000_000

// backlogFlag defines -max-backlog on fs.
func backlogFlag(fs *flag.FlagSet) *int {
	n := defaultMaxBacklog
	fs.Func("max-backlog", fmt.Sprintf("the most events `N` that the runs together may hold at once, waiting for a consumer "+
		"(lane-aware), to be applied (static over lines) or for a gap (resequencer), shared equally by the runs that can hold any; "+
		"0 for no limit (default %d)", defaultMaxBacklog), func(v string) error {
		m, err := strconv.Atoi(v)
		if err != nil || m < 0 {
			return errors.New("want 0 (no limit) or more events")
		}
		n = m
		return nil
	})
	return &n
}

// backlogShare returns the backlog each of holders runs may hold, total
// shared equally, at least 1; 0, no limit, when total is 0.
func backlogShare(total, holders int) int {
	if total == 0 {
		return 0
	}
	return max(1, total/max(1, holders))
}

// backlogHint adds to err, when a run's backlog outgrew its share of total,
// shared by holders runs, what can be done about it.
func backlogHint(err error, total, holders int) error {
	if !errors.Is(err, konvoy.ErrBacklog) {
		return err
	}
	return fmt.Errorf("%w; -max-backlog %d is shared by the %d runs that can hold a backlog: raise it, or run fewer of them", err, total, holders)
}
