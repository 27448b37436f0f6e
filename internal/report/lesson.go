package report

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/chart"
	"github.com/sirali-konvoy/konvoy/lesson"
)

// lessonConsumerCounts are the consumer counts of the lesson's second table.
var lessonConsumerCounts = []int{1, 2, 4, 8}

// lessonShares are the lesson's ordered shares (KK1): 4 and 5 of 7 events.
var lessonShares = []float64{4.0 / 7, 5.0 / 7}

// LessonOptions say how to run the lesson report: at what consumer count,
// under which policies, and with which topic in the comparison.
type LessonOptions struct {
	Consumers  int             // the consumers of every table but the rounds table
	Policies   []konvoy.Policy // the first is the report's; more need Latency
	Partitions int             // of the layout partitioned in the comparison
	Latency    bool            // add latency by layout and policy
	Assignor   konvoy.Assignor // how static deals lanes; 0 for the default
}

// Lesson runs events, the lesson's or lesson-style, through the lesson's
// four layouts and returns the lesson's report in English, at o's consumer
// count and first policy: the measures, the derived figures, rounds by
// consumer count, the convoy's schedule, the capacity table; then every
// built-in layout compared, the selective convoy simulated beside the
// lesson's formula and, with o.Latency, latency by layout and policy.
func Lesson(events []konvoy.Event, o LessonOptions) (string, error) {
	consumers, policy := o.Consumers, o.Policies[0]
	with := Dispatch(policy, o.Assignor)
	layouts := lesson.Layouts()
	results, err := simulateEach(events, layouts, consumers, with...)
	if err != nil {
		return "", err
	}
	free, convoy, line, stamp := results[0], results[1], results[2], results[3]

	var b strings.Builder
	fmt.Fprintf(&b, "The lesson \"Sıralı Konvoy\": %s, %s, %s, work %s%s\n\n",
		plural(free.Events, "event", "events"), plural(free.Keys, "key", "keys"), consumersText(consumers), plural(free.Work, "round", "rounds"), policyNote(policy))
	b.WriteString(measureTable(layouts, results).String())

	wrong := "none"
	if len(free.WrongKeys) > 0 {
		wrong = strings.Join(free.WrongKeys, ", ")
	}
	fmt.Fprintf(&b, "\nkeys left in a wrong final state under free: %s\n", wrong)
	fmt.Fprintf(&b, "rounds relative to free: convoy %.3f, line-convoy %.3f\n", konvoy.Cost(convoy, free), konvoy.Cost(line, free))
	fmt.Fprintf(&b, "effective parallelism (work / rounds): free %.2f, convoy %.2f, line-convoy %.2f\n",
		free.Parallelism(), convoy.Parallelism(), line.Parallelism())
	fmt.Fprintf(&b, "steps missing from history under version-stamp: %d\n", stamp.Skipped)

	rounds := make(map[int][]konvoy.Result)
	for _, c := range lessonConsumerCounts {
		if rounds[c], err = simulateEach(events, layouts[:3], c, with...); err != nil {
			return "", err
		}
	}
	b.WriteString("\nrounds by consumers\n")
	b.WriteString(roundsTable(layouts[:3], lessonConsumerCounts, func(li, c int) int { return rounds[c][li].Rounds }).String())

	drawn, err := konvoy.Simulate(events, konvoy.Convoy, consumers, append(with, konvoy.WithSchedule(len(events)))...)
	if err != nil {
		return "", err
	}
	gantt, err := chart.GanttText(fmt.Sprintf("\nthe convoy's schedule at %s, %s dispatch, one column per round", consumersText(consumers), policy), drawn, consumers, policy)
	if err != nil {
		return "", err
	}
	b.WriteString(gantt)

	fmt.Fprintf(&b, "\ncapacity at a peak of %.2f events/s, costs measured at %s\n", lesson.PeakRate, consumersText(consumers))
	b.WriteString(capacityTable(konvoy.Cost(convoy, free), konvoy.Cost(line, free)).String())
	fmt.Fprintf(&b, "whole stream in lanes: convoy x%.3f, line-convoy x%.3f\n", konvoy.Cost(convoy, free), konvoy.Cost(line, free))
	ceiling, err := ceilingLine(events, 8, with...)
	if err != nil {
		return "", err
	}
	b.WriteString(ceiling)

	compared, err := lessonComparison(events, o)
	if err != nil {
		return "", err
	}
	b.WriteString(compared)
	selective, err := selectiveSection(consumers, with...)
	if err != nil {
		return "", err
	}
	b.WriteString(selective)

	if o.Latency {
		all := konvoy.AllLayouts(o.Partitions)
		runs := make([][]konvoy.Result, len(o.Policies))
		for pi, p := range o.Policies {
			if runs[pi], err = simulateEach(events, all, consumers, Dispatch(p, o.Assignor)...); err != nil {
				return "", err
			}
		}
		b.WriteString(Latency(all, o.Policies, consumers, true, func(li, pi int) konvoy.Result { return runs[pi][li] }))
	}
	return b.String(), nil
}

// lessonComparison runs the lesson's events through every built-in layout,
// with a topic of o.Partitions partitions, and compares them; it adds the
// fewest partitions that free the heaviest partition of collisions.
func lessonComparison(events []konvoy.Event, o LessonOptions) (string, error) {
	consumers := o.Consumers
	layouts := konvoy.AllLayouts(o.Partitions)
	results, err := simulateEach(events, layouts, consumers, Dispatch(o.Policies[0], o.Assignor)...)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\nevery layout on the same events at %s\n", consumersText(consumers))
	b.WriteString(compareTable(layouts, results).String())
	b.WriteString("\n")
	if o.Partitions == consumers {
		fmt.Fprintf(&b, "partitioned:%d is a Kafka topic with one partition per consumer, the fewest to keep them all busy\n", o.Partitions)
	}
	allOrdered := !slices.ContainsFunc(events, func(e konvoy.Event) bool { return e.Step == 0 })
	b.WriteString(compareNotes(layouts, results, allOrdered, staticAssignor(o.Policies, o.Assignor)))
	const limit = 64
	p, ok, err := konvoy.PartitionsFor(konvoy.Values(events), 0, limit)
	if err != nil {
		return "", err
	}
	if ok {
		fmt.Fprintf(&b, "the fewest partitions whose heaviest holds a single key: %d, %d of them with keys\n", p.Partitions, p.Used)
	} else {
		fmt.Fprintf(&b, "no topic of up to %d partitions leaves a single key in the heaviest partition\n", limit)
	}
	return b.String(), nil
}

// selectiveSection simulates the selective convoy on lesson-style
// shipments (konvoy.CompareSelective) and sets its multiplier beside the
// lesson's paper formula.
func selectiveSection(consumers int, opts ...konvoy.Option) (string, error) {
	events := lesson.EventsWithHistory()
	c, err := konvoy.CompareSelective(context.Background(), konvoy.Values(events), consumers, nil, opts...)
	if err != nil {
		return "", err
	}
	simulated, formula := c.Simulated, c.Formula
	var b strings.Builder
	fmt.Fprintf(&b, "\nselective convoy on lesson-style shipments of 7 events (4 ordered steps, 3 history-only): %d events\n", len(events))
	fmt.Fprintf(&b, "rounds at %s: free %d, selective-convoy %d, convoy %d\n", consumersText(consumers), c.Free.Rounds, c.Selective.Rounds, c.Convoy.Rounds)
	fmt.Fprintf(&b, "multiplier: simulated x%.3f; the lesson's formula s·cost + (1 − s) gives x%.3f\n", simulated, formula)
	fmt.Fprintf(&b, "  (s %.3f, the ordered share; cost x%.3f, the convoy's on the ordered steps alone)\n", c.Share, konvoy.Cost(c.OrderedConvoy, c.OrderedFree))
	fmt.Fprintf(&b, "whole stream in the convoy: x%.3f\n", konvoy.Cost(c.Convoy, c.Free))
	switch {
	case simulated < formula:
		b.WriteString("the formula charges the ordered steps the convoy's cost as if they ran apart; in one stream the\n" +
			"history records, free to run, keep consumers busy while ordered steps wait for their lanes\n")
	case simulated > formula:
		b.WriteString("the formula assumes the ordered and free parts do not disturb each other; in one stream ordered steps\n" +
			"also queue behind history records on the shared consumers\n")
	default:
		b.WriteString("the formula and the simulation agree here\n")
	}
	return b.String(), nil
}

// measureTable is the lesson's first table: one column per layout.
func measureTable(layouts []konvoy.Layout, results []konvoy.Result) *table {
	t := &table{}
	head := []string{"measure"}
	for _, l := range layouts {
		head = append(head, l.String())
	}
	t.add(head...)
	rows := []struct {
		name  string
		value func(konvoy.Result) string
	}{
		{"backward writes", func(r konvoy.Result) string { return strconv.Itoa(r.BackwardWrites) }},
		{"wrong final states", func(r konvoy.Result) string { return strconv.Itoa(r.WrongFinal) }},
		{"skipped events", func(r konvoy.Result) string { return strconv.Itoa(r.Skipped) }},
		{"rounds", func(r konvoy.Result) string { return strconv.Itoa(r.Rounds) }},
		{"parallelism", func(r konvoy.Result) string { return formatAmount(r.Parallelism()) }},
		{"lanes", func(r konvoy.Result) string { return strconv.Itoa(r.Lanes) }},
		{"heaviest lane", func(r konvoy.Result) string { return strconv.Itoa(r.HeaviestLane) }},
	}
	for _, row := range rows {
		cells := []string{row.name}
		for _, r := range results {
			cells = append(cells, row.value(r))
		}
		t.add(cells...)
	}
	return t
}

// roundsTable is the table of rounds by consumers: one row per count of
// counts, one column per layout, rounds(li, c) the rounds of layout index
// li at c consumers.
func roundsTable(layouts []konvoy.Layout, counts []int, rounds func(li, c int) int) *table {
	t := &table{}
	head := []string{"consumers"}
	for _, l := range layouts {
		head = append(head, l.String())
	}
	t.add(head...)
	for _, c := range counts {
		cells := []string{strconv.Itoa(c)}
		for li := range layouts {
			cells = append(cells, strconv.Itoa(rounds(li, c)))
		}
		t.add(cells...)
	}
	return t
}

// capacityTable is the lesson's capacity table for its two ordered shares.
func capacityTable(convoyCost, lineCost float64) *table {
	t := &table{}
	t.add("ordered share", "ordered ev/s", "unordered ev/s", "convoy x", "line-convoy x")
	for _, s := range lessonShares {
		ordered, unordered := konvoy.SplitRate(lesson.PeakRate, s)
		t.add(strconv.FormatFloat(s, 'f', 3, 64),
			strconv.FormatFloat(ordered, 'f', 2, 64),
			strconv.FormatFloat(unordered, 'f', 2, 64),
			strconv.FormatFloat(konvoy.SelectiveMultiplier(s, convoyCost), 'f', 3, 64),
			strconv.FormatFloat(konvoy.SelectiveMultiplier(s, lineCost), 'f', 3, 64))
	}
	return t
}

// ceilingLine names the rounds each layout cannot go below with c consumers:
// the lanes' load, where adding consumers stops helping.
func ceilingLine(events []konvoy.Event, c int, opts ...konvoy.Option) (string, error) {
	layouts := []konvoy.Layout{konvoy.Convoy, konvoy.LineConvoy, konvoy.Free}
	results, err := simulateEach(events, layouts, c, opts...)
	if err != nil {
		return "", err
	}
	var parts []string
	for i, l := range layouts {
		r := results[i]
		part := l.String() + " " + plural(r.Rounds, "round", "rounds")
		if r.Lanes > 0 {
			part += fmt.Sprintf(" (heaviest lane %d)", r.HeaviestLane)
		}
		parts = append(parts, part)
	}
	return fmt.Sprintf("lane-load ceiling at %s: %s\n", consumersText(c), strings.Join(parts, ", ")), nil
}

// simulateEach runs events under each of layouts at consumers with opts,
// in one konvoy.Sweep, and returns the results in the order of layouts.
func simulateEach(events []konvoy.Event, layouts []konvoy.Layout, consumers int, opts ...konvoy.Option) ([]konvoy.Result, error) {
	configs := make([]konvoy.Config, len(layouts))
	for i, l := range layouts {
		configs[i] = konvoy.Config{Layout: l, Consumers: consumers, Options: opts}
	}
	return konvoy.Sweep(context.Background(), konvoy.Values(events), configs)
}
