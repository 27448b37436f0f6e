package report

import (
	"errors"
	"fmt"

	"github.com/sirali-konvoy/konvoy"
)

// BacklogShare returns the backlog each of runs runs may hold, total
// shared equally, at least 1; 0, no limit, when total is 0.
func BacklogShare(total, runs int) int {
	if total == 0 {
		return 0
	}
	return max(1, total/max(1, runs))
}

// BacklogTooSmall returns the error of a total (-max-backlog) shared by
// runs runs that cannot give each run one event, the least a run holds
// once a consumer has taken one, in the words of the command cmd
// ("konvoy", "konvoy plan"); nil for 0 (no limit) or enough.
func BacklogTooSmall(cmd string, total, runs int) error {
	if total == 0 || total >= runs {
		return nil
	}
	return fmt.Errorf("%s: -max-backlog %d is shared by %d runs: want 0 (no limit) or at least %d, one event a run", cmd, total, runs, runs)
}

// PlanBacklogRuns returns the runs that share -max-backlog in a plan of
// layouts layouts under policies policies: the most it makes at once,
// every layout's plan and free consumption's under each policy, or the
// selective runs, up to five and one a layout.
func PlanBacklogRuns(layouts, policies int) int {
	return max((layouts+1)*policies, layouts+5)
}

// BacklogHint adds to err, when a run's backlog outgrew its share of total
// (-max-backlog), shared by runs runs, what can be done about it; it
// returns any other error as it is.
func BacklogHint(err error, total, runs int) error {
	if !errors.Is(err, konvoy.ErrBacklog) {
		return err
	}
	return fmt.Errorf("%w; -max-backlog %d is shared by %s: raise it, or run fewer layouts, policies or consumer counts", err, total, plural(runs, "run", "runs"))
}
