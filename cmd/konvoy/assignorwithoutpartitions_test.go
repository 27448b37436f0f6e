package main

import (
	"strings"
	"testing"
)

// -assignor range and round-robin are Kafka's assignors, for the
// partitions of partitioned:N and recorded; other lanes, which have no
// numbers, are always dealt first-seen. Given with layouts that hold no
// partitions, the flag would mean nothing: it is a usage error naming it,
// as -assignor without static in -policy is.
func TestAnAssignorWithoutPartitionsIsNotIgnored(t *testing.T) {
	for _, tt := range []struct {
		args     []string
		assignor string
	}{
		{[]string{"-events", "testdata/arrivals.csv", "-layouts", "convoy,line-convoy", "-policy", "static", "-assignor", "range"}, "range"},
		{[]string{"-events", "testdata/arrivals.csv", "-layouts", "convoy", "-policy", "static", "-assignor", "round-robin", "-format", "json"}, "round-robin"},
		{[]string{"plan", "-layouts", "free,convoy", "-policy", "static", "-assignor", "round-robin"}, "round-robin"},
	} {
		_, errOut, status := runCommand(tt.args...)
		if status == 0 && !strings.Contains(errOut, "-assignor") {
			t.Errorf("%q: status 0 and stderr %q: -assignor %s was ignored without a word; want a usage error (status 2) or a note naming -assignor",
				tt.args, errOut, tt.assignor)
		}
	}
}

// The lesson's report, which runs partitioned:N (of -partitions) among
// its every layout, takes -assignor range and round-robin, and deals that
// layout's partitions by it. (Found by a review: both were refused, as if
// no layout had partitions.)
func TestTheLessonsReportTakesKafkasAssignors(t *testing.T) {
	for _, assignor := range []string{"range", "round-robin"} {
		out, errOut, status := runCommand("-policy", "static", "-assignor", assignor, "-partitions", "3")
		if status != 0 || !strings.Contains(out, "the "+assignor+" assignor deals the partitions") {
			t.Errorf("-assignor %s: status %d, %q; want the lesson's report, the partitions dealt %s", assignor, status, errOut, assignor)
		}
	}
}
