package main

import (
	"strconv"
	"strings"
	"testing"
)

// The report makes at most 4,096 runs, counting recorded among -layouts
// all's layouts for a trace file, which it joins when the trace has
// partitions: 7 layouts × 3 policies × 195 counts, 4,095 runs, become 8 ×
// 3 × 195, 4,680, and are refused before anything runs.
func TestTheRunLimitCountsRecordedAmongAll(t *testing.T) {
	counts := make([]string, 195)
	for i := range counts {
		counts[i] = strconv.Itoa(i + 1)
	}
	status, _, errOut := runUsage(t, "-events", "testdata/arrivals.csv", "-layouts", "all", "-policy", "all", "-consumers", strings.Join(counts, ","))
	if status != 2 || !strings.Contains(errOut, "ask for 4680 runs (8 × 3 × 195, recorded among them if the trace has partitions); want at most 4096") {
		t.Errorf("status %d, stderr %q; want a usage error counting recorded", status, errOut)
	}
}
