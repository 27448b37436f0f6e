package main

import (
	"slices"
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
