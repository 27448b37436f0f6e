package main

import (
	"fmt"
	"strings"
	"testing"
)

// TestReorderMemoryErrorNamesTheRunsShare: a run that alone outgrows the
// runs' memory is an error naming the budget it broke; the command says it
// is "the sweep's N (three quarters of -max-memory)" and "-max-memory 1MiB,
// three quarters of it for the runs, is too little". With -reorder, the
// window takes half of those three quarters (docs/traces.md: "it may take
// half of the runs' three quarters"; runs.Options.MaxMemory), so the runs
// have three eighths, 393216 bytes of 1 MiB, and the message names that
// number as three quarters: a user who reads it raises -max-memory by the
// wrong amount, or thinks the window took nothing.
func TestReorderMemoryErrorNamesTheRunsShare(t *testing.T) {
	var b strings.Builder
	b.WriteString("key,step,duration,at\n")
	for i := range 20000 { // a key each: the run's keys outgrow 1 MiB's share
		fmt.Fprintf(&b, "k%d,1,1ms,%dms\n", i, i)
	}
	args := []string{"-events", "-", "-unit", "1ms", "-reorder", "1ms", "-layouts", "free", "-consumers", "1", "-max-memory", "1MiB"}
	_, errOut, status := runWithInput(b.String(), args...)
	if status != 1 {
		t.Fatalf("%q: status %d, stderr %q; want 1, the run over its memory", args, status, errOut)
	}
	const threeQuarters = 1 << 20 / 4 * 3 // 786432
	if strings.Contains(errOut, "(three quarters of -max-memory)") && !strings.Contains(errOut, fmt.Sprintf("the sweep's %d (three quarters", threeQuarters)) {
		t.Errorf("%q: stderr %q; want the budget it names as three quarters of -max-memory to be %d bytes, or the runs' share under -reorder named as what it is", args, errOut, threeQuarters)
	}
}
