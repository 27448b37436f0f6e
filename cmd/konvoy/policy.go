package main

import (
	"slices"
	"strings"

	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/internal/runs"
)

// policy defines -policy, the dispatch policies *p, with the usage usage,
// and -assignor, how the static policy deals lanes, *a (0: the default,
// when -assignor is left out; given empty, it is a usage error).
func (c *command) policy(p *[]konvoy.Policy, a *konvoy.Assignor, usage string) {
	var names stringList
	var assignor string
	c.Var(&names, "policy", usage)
	c.StringVar(&assignor, "assignor", "", "how the static policy deals lanes to consumers: `range` or round-robin, Kafka's assignors, for the partitions of partitioned:N and recorded, or first-seen (default: range for partitions, first-seen for other lanes)")
	c.nonEmpty(&assignor, "assignor", "range, round-robin or first-seen (leave -assignor out for the default)")
	c.rule(func() (err error) {
		if *p, err = parsePolicies(c.name, names); err != nil || assignor == "" {
			return err
		}
		if *a, err = konvoy.ParseAssignor(assignor); err != nil {
			return c.usagef("-assignor is %q; want range, round-robin or first-seen", assignor)
		}
		if !slices.Contains(*p, konvoy.Static) {
			return c.usagef("-assignor says how the static policy deals lanes; add static to -policy")
		}
		if *a != konvoy.FirstSeenAssignor && !c.namesPartitions() {
			return c.usagef("-assignor %s deals partitions, and no layout named has any (partitioned:N or recorded); other lanes are dealt first-seen", *a)
		}
		return nil
	})
}

// namesPartitions tells whether the command's layouts (-layouts, or
// replay's -layout) name one with partitions: partitioned, partitioned:N,
// recorded or recorded:N, or all of them (all); or whether it is the
// lesson's report (konvoy with neither -events nor -format), whose every
// layout includes partitioned:N, of -partitions.
func (c *command) namesPartitions() bool {
	if c.name == "konvoy" && c.Lookup("events").Value.String() == "" && c.Lookup("format").Value.String() == "text" {
		return true
	}
	f := c.Lookup("layouts")
	if f == nil {
		f = c.Lookup("layout")
	}
	if f == nil {
		return true
	}
	return runs.NamesLayout(f.Value.String(), func(name string) bool {
		l, err := konvoy.ParseLayout(name)
		return name == "partitioned" || name == "recorded" || err == nil && l.Partitions() > 0
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
		switch {
		case err != nil && cmd == "konvoy replay": // a replay runs one policy
			return nil, usageIn(cmd, "-policy: unknown policy %q; want head-of-line, lane-aware or static", name)
		case err != nil:
			return nil, usageIn(cmd, "-policy: unknown policy %q; want head-of-line, lane-aware, static, or all", name)
		}
		if slices.Contains(out, p) {
			return nil, usageIn(cmd, "-policy names %s twice", p)
		}
		out = append(out, p)
	}
	return out, nil
}
