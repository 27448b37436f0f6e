package main

import (
	"errors"
	"slices"
	"strings"

	"github.com/sirali-konvoy/konvoy/eventlog"
	"github.com/sirali-konvoy/konvoy/internal/runs"
	"github.com/sirali-konvoy/konvoy/synth"
)

// traceFlagNames are the names of the flags that say how to read a trace,
// which mean something only with -events.
var traceFlagNames = []string{"input", "key", "line", "status", "step", "duration", "at", "partition", "steps", "history", "unit", "round",
	"at-format", "reorder", "late", "duration-model"}

// traceFlags defines the flags that say how to read a trace, shared by
// konvoy -events and konvoy plan -events, which need -events, or one of
// the other sources named (konvoy replay's -brokers). Once the command
// line is parsed, the reader returned reads the trace that events names,
// if any.
func (c *command) traceFlags(events *string, sources ...string) *eventlog.Reader {
	r := &eventlog.Reader{}
	var steps, history stringList
	hint := "a trace FILE, or - for standard input (leave -events out for the lesson)"
	switch {
	case len(sources) > 0: // no lesson: -events or another source
		hint = "a trace FILE, or - for standard input"
	case c.name == "konvoy serve": // which reads its trace again for every request
		hint = "a trace FILE (leave -events out for the lesson)"
	}
	c.nonEmpty(events, "events", hint)
	input := c.String("input", "auto", "the trace's `format`: csv, jsonl, or auto (by the file's extension, else by its first byte)")
	columns := []struct {
		p          *string
		name, what string
	}{
		{&r.Columns.Key, "key", "the key `column`"},
		{&r.Columns.Line, "line", "the line `column` (needed by the layout line-convoy, else optional unless named; - reads none)"},
		{&r.Columns.Status, "status", "the status `column`, used when there is no step column (- reads none)"},
		{&r.Columns.Step, "step", "the step `column` (whole numbers; used when present; - reads none, the steps then coming from -status)"},
		{&r.Columns.Duration, "duration", "the duration `column`"},
		{&r.Columns.At, "at", "the arrival `column` (optional unless named; - reads none)"},
		{&r.Columns.Partition, "partition", "the `column` of the partition each event was recorded in, for the layout recorded (- reads none, for a partition column that means something else)"},
	}
	for _, col := range columns {
		c.StringVar(col.p, col.name, col.name, col.what)
	}
	c.Var(&steps, "steps", "the ordered statuses `S,...`, step 1 first")
	c.Var(&history, "history", "the statuses `S,...` that only append to history (step 0)")
	c.DurationVar(&r.Resolution, "unit", 0, "read durations and arrivals with units, one round lasting `duration` (0: whole rounds)")
	c.BoolVar(&r.Round, "round", false, "round durations and arrivals that are not whole rounds of -unit to the nearest, instead of rejecting them")
	var atFormat, late, model string
	c.choice(&atFormat, "at-format", "rounds", "how the arrival column is written: `rounds`, rfc3339, unix-s, unix-ms, unix-us or unix-ns; a timestamp becomes rounds of -unit from the earliest arrival",
		"rounds, rfc3339, unix-s, unix-ms, unix-us or unix-ns", "rounds", "rfc3339", "unix-s", "unix-ms", "unix-us", "unix-ns")
	c.DurationVar(&r.Reorder, "reorder", 0, "sort arrivals within a `window` of time, releasing each event once an arrival more than the window later is read (needs -unit, and an arrival for every event)")
	c.choice(&late, "late", "error", "what an event later than the -reorder window is: `error` or drop (dropped and counted)", "error or drop", "error", "drop")
	c.StringVar(&model, "duration-model", "", "give every event a duration drawn from `DIST` (fixed:N, uniform:LO,HI, exp:MEAN, lognormal:MU,SIGMA, in rounds); the trace then needs no duration column")
	c.nonEmpty(&model, "duration-model", "a distribution DIST: fixed:N, uniform:LO,HI, exp:MEAN or lognormal:MU,SIGMA, in rounds")
	c.Uint64Var(&r.Seed, "seed", 1, "the `seed` of -duration-model's draws (and konvoy plan's -arrivals poisson)")
	c.needsOne(append([]string{"events"}, sources...), traceFlagNames...)
	c.needs("reorder", "late")
	c.rule(c.partitionNeedsRecorded)
	c.rule(func() error {
		if a := c.Lookup("arrivals"); c.given["seed"] && !c.isSet("duration-model") && (a == nil || a.Value.String() != "poisson") {
			return c.usagef("-seed needs -duration-model%s", map[bool]string{true: " or -arrivals poisson"}[a != nil])
		}
		return nil
	})
	c.rule(func() error {
		for _, col := range columns {
			switch {
			case *col.p == "":
				return c.usagef("-%s is empty; want a column name", col.name)
			case !c.given[col.name]:
				*col.p = "" // the default, which the trace may lack where it is optional, and the lesson reads none of
			}
		}
		if *events == "" {
			return nil
		}
		var err error
		r.Name, r.Steps, r.History = *events, steps, history
		if r.Format, err = eventlog.ParseFormat(*input); err != nil {
			return c.usagef("-input is %q; want csv, jsonl or auto", *input)
		}
		r.AtFormat, _ = eventlog.ParseTimeFormat(atFormat)
		r.DropLate = late == "drop"
		if model != "" {
			if r.Durations, err = c.durationModel(model); err != nil {
				return err
			}
		}
		return c.checkReader(r)
	})
	return r
}

// durationModel reads -duration-model, model, beside the flags it rules
// out: -duration, and -seed beside a distribution whose parameters make
// every draw the same (synth.Dist.Constant), such as fixed:N (but beside
// konvoy plan's -arrivals poisson, which -seed seeds too).
func (c *command) durationModel(model string) (*synth.Dist, error) {
	if c.given["duration"] && c.Lookup("duration").Value.String() != eventlog.NoColumn {
		return nil, c.usagef("-duration names a column and -duration-model draws the durations; give one")
	}
	d, err := synth.ParseDist(model)
	if err != nil {
		return nil, c.usagef("-duration-model: %v", errors.Unwrap(err))
	}
	if a := c.Lookup("arrivals"); c.given["seed"] && d.Constant() && (a == nil || a.Value.String() != "poisson") {
		return nil, c.usagef("-seed draws -duration-model's durations, and %v draws the same every time; leave -seed out", d)
	}
	return &d, nil
}

// partitionNeedsRecorded refuses -partition COLUMN where nothing reads
// the column: beside -layouts that do not name recorded, and in konvoy
// replay beside a -layout other than recorded:N unless -applied writes
// each event's recorded partition (a file's; a topic's records have their
// own). -partition -, which reads none, is recordedNeedsPartitions' to
// check.
func (c *command) partitionNeedsRecorded() error {
	if !c.given["partition"] {
		return nil
	}
	if c.Lookup("partition").Value.String() == eventlog.NoColumn {
		return c.recordedNeedsPartitions()
	}
	if f := c.Lookup("layouts"); f != nil && !runs.NamesRecorded(f.Value.String()) {
		return c.usagef("-partition names the column the layout recorded reads; add recorded (or all) to -layouts")
	}
	if f := c.Lookup("layout"); f != nil && !runs.NamesRecorded(f.Value.String()) {
		switch {
		case c.isSet("brokers"):
			return c.usagef("-partition names the column the layout recorded reads; replay -layout recorded:N, or leave -partition out")
		case !c.isSet("applied"):
			return c.usagef("-partition names the column the layout recorded reads, and -applied writes; replay -layout recorded:N, or give -applied FILE")
		}
	}
	return nil
}

// recordedNeedsPartitions refuses -partition -, which reads no
// partitions, beside a layout named recorded (-layouts all leaves it out
// of a trace without partitions).
func (c *command) recordedNeedsPartitions() error {
	recorded := func(name string) bool { return name == "recorded" || strings.HasPrefix(name, "recorded:") }
	if flag := c.layoutsNaming(recorded, false); flag != "" {
		return c.usagef("-partition - reads no partitions, and the layout recorded runs each event in its recorded partition; name the partition column, or leave recorded out of -%s", flag)
	}
	return nil
}

// lineNeedsLines refuses -line -, which reads no lines, beside the layout
// line-convoy, which runs a lane per line: named in -layouts (or replay's
// -layout), by all, or among the default layouts.
func (c *command) lineNeedsLines() error {
	flag := c.layoutsNaming(func(name string) bool { return name == "line-convoy" }, true)
	if flag == "" {
		return nil
	}
	among := ""
	if !c.given[flag] {
		among = " (the default -" + flag + " name it)"
	}
	return c.usagef("-line - reads no lines, and the layout line-convoy runs a lane per line; leave line-convoy out of -%s%s", flag, among)
}

// layoutsNaming returns the command's layouts flag, -layouts or replay's
// -layout, given or by its default, when it names a layout that match
// takes, or all when all is true (all leaves recorded out of a trace
// without partitions, not line-convoy); "" otherwise.
func (c *command) layoutsNaming(match func(name string) bool, all bool) string {
	for _, flag := range []string{"layouts", "layout"} {
		f := c.Lookup(flag)
		if f == nil {
			continue
		}
		for _, name := range strings.Split(f.Value.String(), ",") {
			if name = strings.TrimSpace(name); match(name) || all && name == "all" {
				return flag
			}
		}
	}
	return ""
}

// checkReader checks what the trace flags set in r beyond their syntax: a
// unit of time, a -reorder window for -late drop, no "-" for a column
// every event needs, and statuses that are neither empty nor named twice.
func (c *command) checkReader(r *eventlog.Reader) error {
	if err := c.checkTime(r); err != nil {
		return err
	}
	if err := c.checkNoColumns(r); err != nil {
		return err
	}
	return c.checkStatuses(r)
}

// checkNoColumns refuses "-" (eventlog.NoColumn, no column) for a role
// every event needs, as eventlog.NewDecoder would, in the flags' words:
// the key, the duration (-duration-model draws durations with none), both
// the step and the status, and the arrival that -at-format or -reorder
// reads.
func (c *command) checkNoColumns(r *eventlog.Reader) error {
	cols, none := r.Columns, eventlog.NoColumn
	switch {
	case cols.Key == none:
		return c.usagef("-key - reads no key; every event needs one, from a column")
	case cols.Duration == none && r.Durations == nil:
		return c.usagef("-duration - reads no duration; every event needs one, from a column or drawn by -duration-model")
	case cols.Status == none && cols.Step == none:
		return c.usagef("-step - and -status - read no step; every event needs one, from a step or a status column")
	case cols.Status == none && cols.Step == "" && slices.Contains([]string{cols.Key, cols.Line, cols.Duration, cols.At, cols.Partition}, "step"):
		return c.usagef("-status - reads no status, and the column \"step\" is named for another role, not read as the step; every event needs a step, from a step or a status column")
	case cols.Line == none:
		return c.lineNeedsLines()
	case cols.At == none && r.AtFormat != eventlog.Rounds:
		return c.usagef("-at - reads no arrivals, and -at-format %v reads them from a column; leave one out", r.AtFormat)
	case cols.At == none && r.Reorder > 0:
		return c.usagef("-at - reads no arrivals, and -reorder sorts them; leave one out")
	}
	return nil
}

// checkTime checks r's unit of time and what needs one: -round,
// -at-format and -reorder, and -late drop's -reorder window.
func (c *command) checkTime(r *eventlog.Reader) error {
	if r.Resolution < 0 {
		return c.usagef("-unit is %v; want the length of one round, or 0 for whole rounds", r.Resolution)
	}
	switch {
	case r.Round && r.Resolution == 0:
		return c.usagef("-round needs -unit: whole rounds are never rounded")
	case r.AtFormat != eventlog.Rounds && r.Resolution == 0:
		return c.usagef("-at-format %v needs -unit, the length of one round, such as 1ms", r.AtFormat)
	case r.Reorder < 0:
		return c.usagef("-reorder is %v; want a window of 0 (arrivals in order) or more", r.Reorder)
	case r.Reorder > 0 && r.Resolution == 0:
		return c.usagef("-reorder needs -unit: a window of time over arrivals in whole rounds has no length")
	case r.DropLate && r.Reorder == 0:
		return c.usagef("-late drop needs a -reorder window above 0: an event is late for a window, and without one (-reorder 0) arrivals must come in order")
	}
	return nil
}

// checkStatuses checks that r's statuses, -steps and -history, are
// neither empty nor named twice.
func (c *command) checkStatuses(r *eventlog.Reader) error {
	all := append(slices.Clone(r.Steps), r.History...)
	for i, s := range all {
		switch {
		case s == "" && i < len(r.Steps):
			return c.usagef("-steps, -history: an empty status in the ordered statuses")
		case s == "":
			return c.usagef("-steps, -history: an empty status in the history statuses")
		case slices.Contains(all[:i], s):
			first, this := "-steps", "-history"
			if !slices.Contains(r.Steps, s) {
				first = "-history"
			}
			if i < len(r.Steps) {
				this = "-steps"
			}
			if first == this {
				return c.usagef("%s names status %q twice", this, s)
			}
			return c.usagef("status %q is in both -steps and -history: a status is ordered or history, not both", s)
		}
	}
	return nil
}
