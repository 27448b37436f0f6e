package main

import (
	"strings"
	"testing"
)

// -max-memory's help says what each command does with it (docs/limits.md):
// konvoy's runs give way to further passes; konvoy plan's share three
// quarters for their backlogs unless -max-backlog bounds them.
func TestMaxMemoryHelpSaysItsUse(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-h"}, "runs that would not fit at once run in further passes over the trace"},
		{[]string{"plan", "-h"}, "without -max-backlog, three quarters shared by the runs' backlogs at 128 bytes an event"},
	} {
		_, errOut, _ := runCommand(tc.args...)
		if !strings.Contains(strings.Join(strings.Fields(errOut), " "), tc.want) {
			t.Errorf("konvoy %s: -max-memory's help does not say %q:\n%s", strings.Join(tc.args, " "), tc.want, errOut)
		}
	}
}
