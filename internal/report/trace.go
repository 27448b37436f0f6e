package report

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/chart"
	"github.com/sirali-konvoy/konvoy/eventlog"
)

// Trace is what one pass over a trace measured, which its reports render:
// its statistics and one result per (layout, policy, consumers) triple.
type Trace struct {
	Name      string          // the trace as the report names it
	Layouts   []konvoy.Layout // in report order
	Policies  []konvoy.Policy // the first is the report's
	Consumers int             // the consumer count of the first table
	Counts    []int           // the consumer counts the report shows, ascending
	// Simulated are the consumer counts run, ascending: Counts and
	// Consumers, and maybe more (nil means Counts).
	Simulated []int
	// Results are the runs by layout, then policy, then index in
	// Simulated.
	Results     []konvoy.Result
	Stats       eventlog.Stats
	Rounded     int           // durations and arrivals rounded (eventlog.Decoder.Rounded)
	Unit        time.Duration // how long one round lasts, 0 for whole rounds
	LastArrival int           // the last event's arrival: 0 for a batch
	Dropped     int           // events dropped as late for the reorder window (eventlog.Decoder.Dropped)
	Modelled    string        // the distribution durations were drawn from, "" when the trace gave them
	// StatusesUnused says that a status column or statuses were named
	// (-status, -steps, -history) and no event's step came from one: the
	// trace's step column gave them all.
	StatusesUnused bool
	Assignor       konvoy.Assignor // how static deals lanes, 0 for the default (see konvoy.WithAssignor)
	Partitioned    bool            // the trace records each event's partition (a partition column)
}

// TraceOptions say what a trace's text report adds to its tables.
type TraceOptions struct {
	Gantt    bool    // draw each layout's schedule (runs made with konvoy.WithSchedule)
	Capacity bool    // add the capacity table; Layouts must hold konvoy.Free
	Peak     float64 // the capacity table's peak rate, in events/s
	Latency  bool    // add the latency section
}

// Run returns the run of layout index li under policy index pi at c
// consumers.
func (t *Trace) Run(li, pi, c int) konvoy.Result {
	counts := t.Simulated
	if counts == nil {
		counts = t.Counts
	}
	return t.Results[(li*len(t.Policies)+pi)*len(counts)+slices.Index(counts, c)]
}

// result returns the run of layout index li at c consumers under the
// report's policy, the first.
func (t *Trace) result(li, c int) konvoy.Result { return t.Run(li, 0, c) }

// TraceText is a trace's text report, the lesson report's form for a
// trace: the header, the measures at the first consumer count, the
// derived lines, rounds by consumers and, as o asks, the schedule views,
// the capacity table and the latency section.
func TraceText(t *Trace, o TraceOptions) string {
	first, policy := t.Consumers, t.Policies[0]
	layouts := t.Layouts
	results := make([]konvoy.Result, len(layouts))
	for i := range layouts {
		results[i] = t.result(i, first)
	}

	var b strings.Builder
	fmt.Fprintf(&b, "The trace %s: %s, %s (%d out of order), %s, %s, work %s%s%s\n",
		t.Name, plural(t.Stats.Events(), "event", "events"), plural(t.Stats.Keys(), "key", "keys"),
		len(t.Stats.OutOfOrder()), plural(t.Stats.Lines(), "line", "lines"), consumersText(first), plural(results[0].Work, "round", "rounds"), resolutionNote(t.Unit), policyNote(policy))
	if t.Rounded > 0 {
		b.WriteString(RoundedNote(t.Rounded, t.Unit) + "\n")
	}
	for _, note := range ReadingNotes(t) {
		b.WriteString(note + "\n")
	}
	b.WriteString("\n")
	if hasBeyondLesson(layouts) {
		b.WriteString(compareTable(layouts, results).String())
	} else {
		b.WriteString(measureTable(layouts, results).String())
	}
	b.WriteString("\n")
	b.WriteString(traceNotes(t, results))
	b.WriteString(compareNotes(layouts, results, t.Stats.Ordered() == t.Stats.Events(), staticAssignor(t.Policies, t.Assignor)))
	b.WriteString("\nrounds by consumers\n")
	b.WriteString(roundsTable(layouts, t.Counts, func(li, c int) int { return t.result(li, c).Rounds }).String())
	for i, l := range layouts {
		if o.Gantt {
			title := fmt.Sprintf("\nthe schedule of %s at %s, %s dispatch, one column per round", l, consumersText(first), policy)
			b.WriteString(ganttView(title, results[i], first, policy))
		}
	}
	if o.Capacity {
		b.WriteString(traceCapacity(t, results, o.Peak))
	}
	if o.Latency {
		b.WriteString(Latency(layouts, t.Policies, first, t.LastArrival == 0,
			func(li, pi int) konvoy.Result { return t.Run(li, pi, first) }))
	}
	return b.String()
}

// ganttView is chart.GanttText's view of the run r at consumers under
// policy, headed by title, or, should r not fit itself (a run konvoy made
// always does), the title and a line saying why it is not drawn, so that
// the rest of the report is still written.
func ganttView(title string, r konvoy.Result, consumers int, policy konvoy.Policy) string {
	s, err := chart.GanttText(title, r, consumers, policy)
	if err != nil {
		return title + "\nnot drawn: " + err.Error() + "\n"
	}
	return s
}

// traceNotes are the lines under a trace's first table: the keys left in a
// wrong final state, those whose steps arrive out of order, the rounds
// relative to free ("-" where undefined, and said so), the effective
// parallelism and the steps version-stamp skipped.
func traceNotes(t *Trace, results []konvoy.Result) string {
	var b strings.Builder
	layouts := t.Layouts
	for i, l := range layouts {
		if r := results[i]; r.WrongFinal > 0 {
			fmt.Fprintf(&b, "keys left in a wrong final state under %s: %s\n", l, names(r.WrongKeys))
		}
	}
	if b.Len() == 0 {
		b.WriteString("keys left in a wrong final state: none under any layout\n")
	}
	if ooo := t.Stats.OutOfOrder(); len(ooo) > 0 {
		fmt.Fprintf(&b, "keys whose steps arrive out of order: %s; a convoy keeps input order, so their backward steps count under every layout (the version stamp skips them)\n", names(ooo))
	}
	free := slices.IndexFunc(layouts, konvoy.Free.Equal)
	var costs, parallelism []string
	undefined := false
	for i, l := range layouts {
		if free >= 0 && i != free {
			cost := konvoy.Cost(results[i], results[free])
			costs = append(costs, fmt.Sprintf("%s %s", l, multiplier(cost)))
			undefined = undefined || cost == 0
		}
		parallelism = append(parallelism, l.String()+" "+formatAmount(results[i].Parallelism()))
	}
	if len(costs) > 0 {
		fmt.Fprintf(&b, "rounds relative to free: %s\n", strings.Join(costs, ", "))
	}
	if undefined {
		b.WriteString(undefinedMultiplier + "\n")
	}
	fmt.Fprintf(&b, "effective parallelism (work / rounds): %s\n", strings.Join(parallelism, ", "))
	if i := slices.IndexFunc(layouts, konvoy.VersionStamp.Equal); i >= 0 {
		fmt.Fprintf(&b, "steps missing from history under version-stamp: %d\n", results[i].Skipped)
	}
	return b.String()
}

// traceCapacity is the capacity table for the trace's own ordered share: the
// events with a nonzero step. A multiplier whose cost is undefined (no
// event takes any time) is written "-", and said to be so under the table.
func traceCapacity(t *Trace, results []konvoy.Result, peak float64) string {
	freeIndex := slices.IndexFunc(t.Layouts, konvoy.Free.Equal)
	share := 0.0
	if t.Stats.Events() > 0 {
		share = float64(t.Stats.Ordered()) / float64(t.Stats.Events())
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\ncapacity at a peak of %s events/s, costs measured at %s\n", formatAmount(peak), consumersText(t.Consumers))
	capacity := &table{}
	head := []string{"ordered share", "ordered ev/s", "unordered ev/s"}
	ordered, unordered := konvoy.SplitRate(peak, share)
	row := []string{formatShare(share), formatAmount(ordered), formatAmount(unordered)}
	var whole []string
	undefined := false
	for i, l := range t.Layouts {
		if i == freeIndex {
			continue
		}
		cost, selective := konvoy.Cost(results[i], results[freeIndex]), 0.0
		if cost > 0 {
			selective = konvoy.SelectiveMultiplier(share, cost)
		}
		head = append(head, l.String()+" x")
		row = append(row, multiplier(selective))
		whole = append(whole, fmt.Sprintf("%s x%s", l, multiplier(cost)))
		undefined = undefined || cost == 0
	}
	capacity.add(head...)
	capacity.add(row...)
	b.WriteString(capacity.String())
	if len(whole) > 0 {
		fmt.Fprintf(&b, "whole stream in lanes: %s\n", strings.Join(whole, ", "))
	}
	if undefined {
		b.WriteString(undefinedMultiplier + "\n")
	}
	return b.String()
}
