package report

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/sirali-konvoy/konvoy"
)

// Latency is the latency section of the lesson and trace reports: every
// (layout, policy) pair at one consumer count, its rounds, parallelism,
// wait (arrival to start) and response (arrival to finish) percentiles, and
// the lane whose events waited longest. result returns the run of layouts[li]
// under policies[pi]; batch tells that every event arrives at round 0.
func Latency(layouts []konvoy.Layout, policies []konvoy.Policy, consumers int, batch bool, result func(li, pi int) konvoy.Result) string {
	var b strings.Builder
	fmt.Fprintf(&b, "\nlatency by layout and dispatch policy at %s, in rounds from arrival\n", consumersText(consumers))
	t := &table{leftCols: 2, leftLast: true}
	t.add("layout", "policy", "rounds", "parallelism", "p50", "p95", "p99", "max", "p50", "p99", "max", "worst lane")
	t.span(4, "wait")
	t.span(8, "response")
	for li, l := range layouts {
		for pi, p := range policies {
			r := result(li, pi)
			name := l.String()
			if pi > 0 {
				name = "" // the layout's name heads its group of rows
			}
			t.add(name, p.String(), strconv.Itoa(r.Rounds), formatAmount(r.Parallelism()),
				strconv.Itoa(r.Wait.P50), strconv.Itoa(r.Wait.P95), strconv.Itoa(r.Wait.P99), strconv.Itoa(r.Wait.Max),
				strconv.Itoa(r.Response.P50), strconv.Itoa(r.Response.P99), strconv.Itoa(r.Response.Max),
				worstLane(l, r))
		}
	}
	b.WriteString(t.String())
	b.WriteString("wait runs from an event's arrival to its start, response to its finish; p50 is the median\n")
	if batch {
		b.WriteString("every event arrives at round 0, a batch: wait is the round an event starts, response the round it ends\n")
	}
	b.WriteString("worst lane: the lane whose event waited longest, and that wait in brackets\n")
	return b.String()
}

// worstLane names the lane whose events waited longest in r, and that wait.
func worstLane(l konvoy.Layout, r konvoy.Result) string {
	if len(r.WorstLanes) == 0 {
		return "-"
	}
	w := r.WorstLanes[0]
	return fmt.Sprintf("%s (%d)", laneName(l, w.Lane), w.MaxWait)
}
