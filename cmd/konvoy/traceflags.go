package main

import (
	"flag"
	"strings"
	"time"

	"github.com/sirali-konvoy/konvoy/eventlog"
)

// traceFlags are the flags that say how to read a trace, shared by konvoy
// -events and konvoy plan -events.
type traceFlags struct {
	input   *string
	cols    eventlog.Columns
	steps   stringList
	history stringList
	unit    *time.Duration
	round   *bool
}

// traceFlagNames are the names of traceFlags, which mean something only
// with -events.
var traceFlagNames = []string{"input", "key", "line", "status", "step", "duration", "at", "steps", "history", "unit", "round"}

// register defines the flags on fs.
func (t *traceFlags) register(fs *flag.FlagSet) {
	t.input = fs.String("input", "auto", "the trace's `format`: csv, jsonl, or auto (by the file's extension, else by its first byte)")
	fs.StringVar(&t.cols.Key, "key", "key", "the key `column`")
	fs.StringVar(&t.cols.Line, "line", "line", "the line `column`")
	fs.StringVar(&t.cols.Status, "status", "status", "the status `column`, used when there is no step column")
	fs.StringVar(&t.cols.Step, "step", "step", "the step `column` (whole numbers; used when present)")
	fs.StringVar(&t.cols.Duration, "duration", "duration", "the duration `column`")
	fs.StringVar(&t.cols.At, "at", "at", "the arrival `column` (optional)")
	fs.Var(&t.steps, "steps", "the ordered statuses `S,...`, step 1 first")
	fs.Var(&t.history, "history", "the statuses `S,...` that only append to history (step 0)")
	t.unit = fs.Duration("unit", 0, "read durations and arrivals with units, one round lasting `duration` (0: whole rounds)")
	t.round = fs.Bool("round", false, "round durations and arrivals that are not whole rounds of -unit to the nearest, instead of rejecting them")
}

// reader checks the flags and returns the reader of the trace name. Its
// errors are usageError, their messages starting with cmd.
func (t *traceFlags) reader(name, cmd string) (eventlog.Reader, error) {
	fail := func(format string, args ...any) (eventlog.Reader, error) {
		return eventlog.Reader{}, usageIn(cmd, format, args...)
	}
	f, err := eventlog.ParseFormat(*t.input)
	if err != nil {
		return fail("-input is %q; want csv, jsonl or auto", *t.input)
	}
	if *t.unit < 0 {
		return fail("-unit is %v; want the length of one round, or 0 for whole rounds", *t.unit)
	}
	if *t.round && *t.unit == 0 {
		return fail("-round needs -unit: whole rounds are never rounded")
	}
	for _, c := range []struct{ flag, value string }{
		{"key", t.cols.Key}, {"line", t.cols.Line}, {"status", t.cols.Status},
		{"step", t.cols.Step}, {"duration", t.cols.Duration}, {"at", t.cols.At},
	} {
		if c.value == "" {
			return fail("-%s is empty; want a column name", c.flag)
		}
	}
	r := eventlog.Reader{
		Name:       name,
		Format:     f,
		Columns:    t.cols,
		Steps:      t.steps,
		History:    t.history,
		Resolution: *t.unit,
		Round:      *t.round,
	}
	if _, err := eventlog.NewDecoder(strings.NewReader(""), r); err != nil {
		return fail("-steps, -history: %s", strings.TrimPrefix(err.Error(), "eventlog: "))
	}
	return r, nil
}
