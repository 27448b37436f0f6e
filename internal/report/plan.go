package report

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/sirali-konvoy/konvoy"
)

// PlanText is konvoy plan's text report: the plan for every layout and
// policy, then the selective convoy, the sensitivity to the ordered share
// and the partitions, each with the assumptions it rests on.
func PlanText(a *Plan) string {
	var b strings.Builder
	b.WriteString(planHeader(a))
	b.WriteString(planTable(a))
	if a.latency != nil {
		b.WriteString(sloText(a))
	}
	b.WriteString(selectiveText(a))
	b.WriteString(sensitivityText(a))
	b.WriteString(partitionText(a))
	return b.String()
}

// planHeader names the trace, the peak and the round.
func planHeader(a *Plan) string {
	src, o := a.src, a.o
	var b strings.Builder
	fmt.Fprintf(&b, "The capacity plan for %s: %s, %s", src.Name, plural(src.Stats.Events(), "event", "events"), plural(src.Stats.Keys(), "key", "keys"))
	if !src.Lesson {
		fmt.Fprintf(&b, " (%d out of order), %s", len(src.Stats.OutOfOrder()), plural(src.Stats.Lines(), "line", "lines"))
	}
	fmt.Fprintf(&b, ", work %s\n", plural(src.Work, "round", "rounds"))
	if src.Rounded > 0 {
		b.WriteString(RoundedNote(src.Rounded, src.Unit) + "\n")
	}
	for _, note := range src.Notes {
		b.WriteString(note + "\n")
	}
	peak := "peak " + formatRate(a.o.Peak) + " events/s"
	if a.timed() && !o.PeakGiven {
		peak += ", the trace's own mean rate (-peak sets another)"
	}
	b.WriteString(wrapText(fmt.Sprintf("%s; one round lasts %v (%s); keeping up means running the %s in at most %s rounds",
		peak, o.Round, a.roundFlag(), plural(src.Stats.Events(), "event", "events"), formatAtMost(a.budget))))
	return b.String()
}

// planTable is the plan for every layout and policy, what it cannot do, and
// the assumptions of all the plans, each once.
func planTable(a *Plan) string {
	t := &table{leftCols: 2, leftLast: true}
	t.add("layout", "policy", "consumers", "rounds", "ev/s", "ev/s", "rounds", "set by")
	t.span(2, "to keep up")
	t.span(5, "ceiling")
	var cannot []string
	for li, l := range a.layouts {
		for pi, p := range a.plans[li] {
			name := l.String()
			if pi > 0 {
				name = ""
			}
			consumers, rounds, rate := "-", "-", "-"
			if p.Consumers > 0 {
				consumers, rounds, rate = strconv.Itoa(p.Consumers), strconv.Itoa(p.Rounds), formatRate(p.Rate)
			} else if why := cannotKeepUp(a, l, p, pi == 0); why != "" {
				cannot = append(cannot, why)
			}
			t.add(name, p.Policy.String(), consumers, rounds, rate, formatRate(p.Ceiling), strconv.Itoa(p.CeilingRounds), ceilingLane(l, p))
		}
	}
	var b strings.Builder
	b.WriteString("\n" + t.String())
	b.WriteString(wrapText(fmt.Sprintf("to keep up: the fewest consumers whose run of the trace lasts at most %s rounds, "+
		"its rounds and the rate it sustains", formatAtMost(a.budget))))
	b.WriteString(wrapText("ceiling: the rate no number of consumers exceeds: with a consumer for every event, a run still " +
		"lasts as long as the lane whose events must run one after another (no lane: the event that ends last)"))
	for _, line := range cannot {
		b.WriteString(wrapText(line))
	}
	b.WriteString(planNotes(a))
	b.WriteString(assumptionList(planAssumptions(a)))
	return b.String()
}

// planNotes says what bounds every plan of a trace whose events arrive
// over time, and how the selective convoy and the partitioned layout came
// to be what they are.
func planNotes(a *Plan) string {
	var b strings.Builder
	if a.timed() {
		at := "the latency objective (-slo) plans them at the same rate"
		if a.o.SLO == nil {
			at = "the latency objective (-slo) would plan them at the same rate"
		}
		b.WriteString(wrapText(fmt.Sprintf("the trace's events arrive over rounds %d to %d (its arrival column), %s events/s at %v a round; "+
			"keeping up takes them as work at hand, their arrival times aside, and %s", a.src.FirstArrival, a.src.LastArrival, formatRate(a.ownRate()), a.o.Round, at)))
	}
	allOrdered := a.src.Stats.Ordered() == a.src.Stats.Events()
	for _, l := range a.layouts {
		switch {
		case l.Equal(konvoy.SelectiveConvoy) && allOrdered:
			fmt.Fprintf(&b, "%s runs as convoy here: every event is an ordered step, none history-only\n", l)
		case l.Partitions() == 0 || a.o.Partitions > 0 || !l.Equal(konvoy.Partitioned(a.partitions.Partitions)):
			// No partitions, or a count the user (-partitions,
			// partitioned:N) or the trace (recorded:N) gave: not the
			// search's answer.
		case a.found:
			b.WriteString(wrapText(fmt.Sprintf("%s: the fewest partitions that keep collisions within %s (see below)", l, givenPercent(a.o.Collision))))
		default:
			b.WriteString(wrapText(fmt.Sprintf("%s: the most partitions tried (-max-partitions), as none keeps collisions within %s (see below)", l, givenPercent(a.o.Collision))))
		}
	}
	return b.String()
}

// cannotKeepUp says why plan p of layout l has no consumer count. A
// ceiling below the peak holds under every policy, and is said once per
// layout: it returns "" for the plans after the first. The ceiling keeps
// up when its rounds are at most the budget as konvoy.PlanConsumers takes
// it, floorNear's: a budget of 9.999999999999998 rounds (3 events at 3
// events/s, rounds of 100ms) lets a ceiling of 10 keep up, where the
// report said it was below the peak (found by a review).
func cannotKeepUp(a *Plan, l konvoy.Layout, p konvoy.Plan, first bool) string {
	switch {
	case float64(p.CeilingRounds) <= floorNear(a.budget):
		return fmt.Sprintf("%s under %s does not keep up with up to %s (-max-consumers)", l, p.Policy, plural(a.o.MaxConsumers, "consumer", "consumers"))
	case !first:
		return ""
	}
	return fmt.Sprintf("%s cannot keep up: its ceiling, %s events/s, is below the peak, and no number of consumers helps",
		l, formatRate(p.Ceiling))
}

// ceilingLane names the lane that sets plan p's ceiling, a key quoted as
// laneName quotes it, so that the table keeps its rows. The keep-up
// plans take every event at hand (see Plan.keepUpEvents), so no arrival
// sets it.
func ceilingLane(l konvoy.Layout, p konvoy.Plan) string {
	switch {
	case p.CeilingLane == "":
		return "no lane"
	case l.Partitions() > 0:
		return laneName(l, p.CeilingLane)
	}
	return "lane " + laneName(l, p.CeilingLane)
}

// planAssumptions lists every plan's assumptions once each, in order of
// first appearance, each followed by the plans it holds for unless it holds
// for all of them.
func planAssumptions(a *Plan) []string {
	return assumptionsOf(a, func(li, pi int) []string { return a.plans[li][pi].Assumptions })
}

// assumptionsOf lists the assumptions of (layout, policy) of every layout
// and policy as planAssumptions does.
func assumptionsOf(a *Plan, of func(li, pi int) []string) []string {
	var texts []string
	holds := map[string][][2]int{} // text → (layout, policy) pairs
	for li := range a.layouts {
		for pi := range a.o.Policies {
			for _, s := range of(li, pi) {
				if _, ok := holds[s]; !ok {
					texts = append(texts, s)
				}
				holds[s] = append(holds[s], [2]int{li, pi})
			}
		}
	}
	for i, s := range texts {
		if of := planSet(a, s, holds[s]); of != "" {
			texts[i] += " (" + of + ")"
		}
	}
	return texts
}

// planSet names the plans of pairs, (layout, policy) indices, that the
// sentence s holds for: "" for all of them, else by layout, by policy
// unless s names its policy, or pair by pair.
func planSet(a *Plan, s string, pairs [][2]int) string {
	nl, np := len(a.layouts), len(a.o.Policies)
	if len(pairs) == nl*np {
		return ""
	}
	layouts, policies := map[int]int{}, map[int]int{}
	for _, p := range pairs {
		layouts[p[0]]++
		policies[p[1]]++
	}
	var names []string
	switch {
	case len(pairs) == len(layouts)*np: // whole layouts
		for li, l := range a.layouts {
			if layouts[li] > 0 {
				names = append(names, l.String())
			}
		}
		return strings.Join(names, ", ")
	case len(pairs) == len(policies)*nl: // whole policies
		for pi, p := range a.o.Policies {
			if policies[pi] > 0 {
				names = append(names, p.String())
			}
		}
		if of := strings.Join(names, ", "); !strings.Contains(s, "dispatched "+of+",") {
			return "under " + of
		}
		return ""
	}
	for _, p := range pairs {
		names = append(names, fmt.Sprintf("%s under %s", a.layouts[p[0]], a.o.Policies[p[1]]))
	}
	return strings.Join(names, ", ")
}

// assumptionList is the assumptions as a list under a heading.
func assumptionList(texts []string) string {
	var b strings.Builder
	b.WriteString("assumptions:\n")
	for _, s := range texts {
		b.WriteString(wrapText("- " + s))
	}
	return b.String()
}

// planWidth is the widest line of konvoy plan's prose.
const planWidth = 100

// selectiveText sets the selective convoy's simulated multiplier beside the
// lesson's formula.
func selectiveText(a *Plan) string {
	s := a.selective
	events, ordered, share := s.Free.Events, s.OrderedFree.Events, s.Share
	var b strings.Builder
	b.WriteString("\nthe selective convoy, simulated and by the lesson's formula\n")
	if a.src.Lesson {
		b.WriteString(wrapText(fmt.Sprintf("on lesson-style shipments of 7 events (4 ordered steps, 3 history-only): %d events, ordered share %.3f", events, share)))
	} else {
		fmt.Fprintf(&b, "on the trace: %s, %d of them ordered steps, ordered share %s\n", plural(events, "event", "events"), ordered, formatShare(share))
	}
	fmt.Fprintf(&b, "rounds at %s: free %d, selective-convoy %d, convoy %d\n", consumersText(a.consumers), s.Free.Rounds, s.Selective.Rounds, s.Convoy.Rounds)
	cost := konvoy.Cost(s.OrderedConvoy, s.OrderedFree)
	switch {
	case ordered == 0:
		b.WriteString(wrapText("no event is an ordered step: the selective convoy puts nothing in a lane, and the formula has no cost to charge"))
	case cost == 0 || s.Simulated == 0:
		b.WriteString(undefinedMultiplier + "\n")
	default:
		fmt.Fprintf(&b, "multiplier: simulated x%.3f; the formula s·cost + (1 − s) gives x%.3f\n", s.Simulated, s.Formula)
		fmt.Fprintf(&b, "  (s %s, the ordered share; cost x%.3f, the convoy's on the ordered steps alone)\n", formatShare(share), cost)
		fmt.Fprintf(&b, "whole stream in the convoy: x%.3f\n", konvoy.Cost(s.Convoy, s.Free))
	}
	if ordered == events {
		b.WriteString("every event is an ordered step: the selective convoy runs as the convoy\n")
	}
	b.WriteString(assumptionList(a.selectiveAssumptions()))
	return b.String()
}

// sensitivityText is the formula's multiplier over a range of ordered
// shares, for each layout that puts every event in a lane.
func sensitivityText(a *Plan) string {
	var b strings.Builder
	fmt.Fprintf(&b, "\nsensitivity to the ordered share: the lesson's formula at %s\n", consumersText(a.consumers))
	if len(a.lanes) == 0 {
		b.WriteString("no layout of -layouts puts every event in a lane (convoy, line-convoy, partitioned): nothing to estimate\n")
		return b.String()
	}
	var costs []string
	positive := false
	for i, l := range a.lanes {
		costs = append(costs, fmt.Sprintf("%s x%s", l, multiplier(a.cost(i))))
		positive = positive || a.cost(i) > 0
	}
	if !positive {
		b.WriteString(wrapText("the ordered steps alone take no time, or there are none: no cost to measure, nothing to estimate"))
		return b.String()
	}
	t := &table{}
	head := []string{"ordered share", "ordered ev/s", "unordered ev/s"}
	for _, l := range a.lanes {
		head = append(head, l.String()+" x")
	}
	t.add(head...)
	for _, r := range a.rows {
		share := formatShare(r.share)
		if len(r.labels) > 0 {
			share += " (" + strings.Join(r.labels, "; ") + ")"
		}
		ordered, unordered := konvoy.SplitRate(a.o.Peak, r.share)
		cells := []string{share, formatAmount(ordered), formatAmount(unordered)}
		for i := range a.lanes {
			cells = append(cells, multiplier(a.multiplier(i, r.share)))
		}
		t.add(cells...)
	}
	b.WriteString(t.String())
	b.WriteString(wrapText(fmt.Sprintf("costs on the ordered steps alone at %s: %s", consumersText(a.consumers), strings.Join(costs, ", "))))
	b.WriteString(assumptionList(a.sensitivityAssumptions()))
	return b.String()
}

// partitionText is the fewest partitions that keep collisions small.
func partitionText(a *Plan) string {
	p, o := a.partitions, a.o
	var b, answer strings.Builder
	b.WriteString("\npartitions of a Kafka topic\n")
	if a.found {
		fmt.Fprintf(&answer, "%s the fewest whose heaviest partition owes at most %s of its load to collisions (-collision): ",
			plural(p.Partitions, "partition is", "partitions are"), givenPercent(o.Collision))
	} else {
		fmt.Fprintf(&answer, "no topic of up to %d partitions (-max-partitions) keeps collisions within %s of its heaviest partition (-collision); at %d partitions, ",
			o.MaxPartitions, givenPercent(o.Collision), p.Partitions)
	}
	fmt.Fprintf(&answer, "partition %d carries %s, ", p.HeaviestPartition, plural(p.HeaviestLoad, "round", "rounds"))
	if p.Collision() == 0 {
		fmt.Fprintf(&answer, "all of them %s's", keyName(p.HeaviestKey))
	} else {
		fmt.Fprintf(&answer, "%d from %s, its heaviest key, and %d (%s) from other keys", p.HeaviestKeyLoad, keyName(p.HeaviestKey), p.Collision(), Percent(p.CollisionShare()))
	}
	switch {
	case p.Partitions == 1:
		answer.WriteString("; the one partition gets every key")
	case p.Used == 1:
		fmt.Fprintf(&answer, "; 1 of the %d partitions gets keys", p.Partitions)
	default:
		fmt.Fprintf(&answer, "; %d of the %d partitions get keys", p.Used, p.Partitions)
	}
	b.WriteString(wrapText(answer.String()))
	b.WriteString(assumptionList(a.partitionAssumptions()))
	return b.String()
}
