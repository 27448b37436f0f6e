package main

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/sirali-konvoy/konvoy"
)

// policy defines -policy, the dispatch policies *p, with the usage usage.
func (c *command) policy(p *[]konvoy.Policy, usage string) {
	var names stringList
	c.Var(&names, "policy", usage)
	c.rule(func() (err error) {
		*p, err = parsePolicies(c.name, names)
		return err
	})
}

// parsePolicies reads -policy of the command cmd: policy names, or "all"
// alone for every policy. No names means the lesson's head-of-line.
func parsePolicies(cmd string, names []string) ([]konvoy.Policy, error) {
	if len(names) == 0 {
		return []konvoy.Policy{konvoy.HeadOfLine}, nil
	}
	var out []konvoy.Policy
	for _, name := range names {
		name = strings.TrimSpace(name)
		if name == "all" {
			if len(names) > 1 {
				return nil, usageIn(cmd, "-policy all stands alone; it names every policy")
			}
			return konvoy.Policies(), nil
		}
		p, err := konvoy.ParsePolicy(name)
		if err != nil {
			return nil, usageIn(cmd, "-policy: unknown policy %q; want head-of-line, lane-aware, static, or all", name)
		}
		if slices.Contains(out, p) {
			return nil, usageIn(cmd, "-policy names %s twice", p)
		}
		out = append(out, p)
	}
	return out, nil
}

// policyNote is what a report's first line says of a policy other than the
// lesson's head-of-line.
func policyNote(p konvoy.Policy) string {
	if p == konvoy.HeadOfLine {
		return ""
	}
	return ", policy " + p.String()
}

// latencySection compares every (layout, policy) pair at one consumer
// count: rounds, parallelism, the wait (arrival to start) and response
// (arrival to finish) percentiles, and the lane whose events waited longest.
// result returns the run of layout li under policy pi; batch tells that every
// event arrives at round 0.
func latencySection(layouts []konvoy.Layout, policies []konvoy.Policy, consumers int, batch bool, result func(li, pi int) konvoy.Result) string {
	var b strings.Builder
	fmt.Fprintf(&b, "\nlatency by layout and dispatch policy at %d consumers, in rounds from arrival\n", consumers)
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
			t.add(name, p.String(), strconv.Itoa(r.Rounds), strconv.FormatFloat(r.Parallelism(), 'f', 2, 64),
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

// laneName is how the report names a lane of layout l: a partition's lane
// by its number, with the word.
func laneName(l konvoy.Layout, lane string) string {
	if isPartitioned(l) {
		return "partition " + lane
	}
	return lane
}

// isPartitioned tells a layout of Kafka partitions.
func isPartitioned(l konvoy.Layout) bool { return l.Partitions() > 0 }
