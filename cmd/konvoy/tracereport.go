package main

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/chart"
)

// maxGanttEvents is the most events -gantt draws: beyond them the picture
// stops being readable, and a run keeps its schedule in memory.
const maxGanttEvents = 200

// maxNamedKeys is how many keys a line of the text report names before it
// says how many more there are.
const maxNamedKeys = 10

// textReport is the lesson report's form for a trace: the header, the
// measures at the first consumer count, the derived lines, rounds by
// consumers and, when asked, the schedule views, the capacity table and the
// latency table.
func textReport(t *trace) string {
	first, policy := t.opt.consumers[0], t.opt.policies[0]
	layouts := t.opt.layouts
	results := make([]konvoy.Result, len(layouts))
	for i := range layouts {
		results[i] = t.result(i, first)
	}
	res := resolutionNote(t.opt.reader.Resolution)

	var b strings.Builder
	fmt.Fprintf(&b, "The trace %s: %s, %s (%d out of order), %s, %d consumers, work %d rounds%s%s\n",
		t.name, plural(t.stats.Events(), "event", "events"), plural(t.stats.Keys(), "key", "keys"),
		len(t.stats.OutOfOrder()), plural(t.stats.Lines(), "line", "lines"), first, results[0].Work, res, policyNote(policy))
	if t.rounded > 0 {
		fmt.Fprintf(&b, "%s rounded to whole rounds%s\n", plural(t.rounded, "duration or arrival", "durations and arrivals"), res)
	}
	b.WriteString("\n")
	if hasBeyondLesson(layouts) {
		b.WriteString(compareTable(layouts, results).String())
	} else {
		b.WriteString(measureTable(layouts, results).String())
	}
	b.WriteString("\n")
	b.WriteString(traceNotes(t, results))
	b.WriteString(compareNotes(layouts, results, t.stats.Ordered() == t.stats.Events()))
	b.WriteString("\nrounds by consumers\n")
	b.WriteString(roundsTable(layouts, t.shown, func(li, c int) int { return t.result(li, c).Rounds }).String())
	for i, l := range layouts {
		if t.opt.gantt {
			title := fmt.Sprintf("\nthe schedule of %s at %d consumers, %s dispatch, one column per round", l, first, policy)
			b.WriteString(chart.GanttText(title, results[i], first, policy))
		}
	}
	if t.opt.capacity {
		b.WriteString(traceCapacity(t, results))
	}
	if t.opt.latency {
		b.WriteString(latencySection(layouts, t.opt.policies, first, t.lastArrival == 0,
			func(li, pi int) konvoy.Result { return t.run(li, pi, first) }))
	}
	return b.String()
}

// traceNotes are the lines under a trace's first table: the keys left in a
// wrong final state, those whose steps arrive out of order, the rounds
// relative to free, the effective parallelism and the steps version-stamp
// skipped.
func traceNotes(t *trace, results []konvoy.Result) string {
	var b strings.Builder
	layouts := t.opt.layouts
	for i, l := range layouts {
		if r := results[i]; r.WrongFinal > 0 {
			fmt.Fprintf(&b, "keys left in a wrong final state under %s: %s\n", l, names(r.WrongKeys))
		}
	}
	if b.Len() == 0 {
		b.WriteString("keys left in a wrong final state: none under any layout\n")
	}
	if ooo := t.stats.OutOfOrder(); len(ooo) > 0 {
		fmt.Fprintf(&b, "keys whose steps arrive out of order: %s; a convoy keeps input order, so their backward steps count under every layout (the version stamp skips them)\n", names(ooo))
	}
	free := slices.IndexFunc(layouts, konvoy.Free.Equal)
	var costs, parallelism []string
	for i, l := range layouts {
		if free >= 0 && i != free {
			costs = append(costs, fmt.Sprintf("%s %.3f", l, konvoy.Cost(results[i], results[free])))
		}
		parallelism = append(parallelism, fmt.Sprintf("%s %.2f", l, results[i].Parallelism()))
	}
	if len(costs) > 0 {
		fmt.Fprintf(&b, "rounds relative to free: %s\n", strings.Join(costs, ", "))
	}
	fmt.Fprintf(&b, "effective parallelism (work / rounds): %s\n", strings.Join(parallelism, ", "))
	if i := slices.IndexFunc(layouts, konvoy.VersionStamp.Equal); i >= 0 {
		fmt.Fprintf(&b, "steps missing from history under version-stamp: %d\n", results[i].Skipped)
	}
	return b.String()
}

// traceCapacity is the capacity table for the trace's own ordered share: the
// events with a nonzero step.
func traceCapacity(t *trace, results []konvoy.Result) string {
	freeIndex := slices.IndexFunc(t.opt.layouts, konvoy.Free.Equal)
	share := 0.0
	if t.stats.Events() > 0 {
		share = float64(t.stats.Ordered()) / float64(t.stats.Events())
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\ncapacity at a peak of %.2f events/s, costs measured at %d consumers\n", t.opt.peak, t.opt.consumers[0])
	capacity := &table{}
	head := []string{"ordered share", "ordered ev/s", "unordered ev/s"}
	ordered, unordered := konvoy.SplitRate(t.opt.peak, share)
	row := []string{strconv.FormatFloat(share, 'f', 3, 64), strconv.FormatFloat(ordered, 'f', 2, 64), strconv.FormatFloat(unordered, 'f', 2, 64)}
	var whole []string
	for i, l := range t.opt.layouts {
		if i == freeIndex {
			continue
		}
		cost := konvoy.Cost(results[i], results[freeIndex])
		head = append(head, l.String()+" x")
		row = append(row, strconv.FormatFloat(konvoy.SelectiveMultiplier(share, cost), 'f', 3, 64))
		whole = append(whole, fmt.Sprintf("%s x%.3f", l, cost))
	}
	capacity.add(head...)
	capacity.add(row...)
	b.WriteString(capacity.String())
	if len(whole) > 0 {
		fmt.Fprintf(&b, "whole stream in lanes: %s\n", strings.Join(whole, ", "))
	}
	return b.String()
}

// keyName is a key as the report prints it: quoted when it holds a
// separator, a quote or nothing.
func keyName(k string) string {
	if strings.ContainsAny(k, ",; \t\r\n\"") || k == "" {
		return strconv.Quote(k)
	}
	return k
}

// names lists keys, up to maxNamedKeys of them.
func names(keys []string) string {
	quoted := func(ks []string) string {
		q := make([]string, len(ks))
		for i, k := range ks {
			q[i] = keyName(k)
		}
		return strings.Join(q, ", ")
	}
	if len(keys) <= maxNamedKeys {
		return quoted(keys)
	}
	return fmt.Sprintf("%s and %d more", quoted(keys[:maxNamedKeys]), len(keys)-maxNamedKeys)
}
