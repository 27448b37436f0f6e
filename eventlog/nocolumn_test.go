package eventlog_test

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/eventlog"
	"github.com/sirali-konvoy/konvoy/synth"
)

// A trace's column may have a role's default name and mean something else:
// a "partition" column of regions, a "step" column of statuses. NoColumn
// for the role reads no column for it, and a column named for another role
// is not read as a step, arrival or partition, in CSV and JSON Lines
// alike; the events are then as a trace without that column gives them.
func TestAColumnThatMeansSomethingElseIsNotRead(t *testing.T) {
	statuses := eventlog.Reader{Steps: []string{"created", "paid"}}
	for _, c := range []struct {
		name  string
		r     eventlog.Reader
		trace string
		want  []konvoy.Event
	}{
		{"csv partition of regions, NoColumn", eventlog.Reader{Name: "t.csv", Columns: eventlog.Columns{Partition: eventlog.NoColumn}},
			"key,step,duration,partition\nA,1,2,eu\nB,1,1,us\n",
			[]konvoy.Event{{Key: "A", Step: 1, Duration: 2}, {Key: "B", Step: 1, Duration: 1}}},
		{"jsonl partition of regions, NoColumn", eventlog.Reader{Name: "t.jsonl", Columns: eventlog.Columns{Partition: eventlog.NoColumn}},
			`{"key":"A","step":1,"duration":2,"partition":"eu"}` + "\n" + `{"key":"B","step":1,"duration":1,"partition":"us"}` + "\n",
			[]konvoy.Event{{Key: "A", Step: 1, Duration: 2}, {Key: "B", Step: 1, Duration: 1}}},
		{"csv step column of statuses, named the status", eventlog.Reader{Name: "t.csv", Steps: statuses.Steps, Columns: eventlog.Columns{Status: "step"}},
			"key,step,duration\nA,created,1\nA,paid,1\n",
			[]konvoy.Event{{Key: "A", Step: 1, Duration: 1}, {Key: "A", Step: 2, Duration: 1}}},
		{"jsonl step field of statuses, named the status", eventlog.Reader{Name: "t.jsonl", Steps: statuses.Steps, Columns: eventlog.Columns{Status: "step"}},
			`{"key":"A","step":"created","duration":1}` + "\n" + `{"key":"A","step":"paid","duration":1}` + "\n",
			[]konvoy.Event{{Key: "A", Step: 1, Duration: 1}, {Key: "A", Step: 2, Duration: 1}}},
		{"csv step column, NoColumn, statuses from status", eventlog.Reader{Name: "t.csv", Steps: statuses.Steps, Columns: eventlog.Columns{Step: eventlog.NoColumn}},
			"key,step,status,duration\nA,x,created,1\nA,y,paid,1\n",
			[]konvoy.Event{{Key: "A", Step: 1, Duration: 1}, {Key: "A", Step: 2, Duration: 1}}},
		{"csv at column of places, NoColumn", eventlog.Reader{Name: "t.csv", Columns: eventlog.Columns{At: eventlog.NoColumn}},
			"key,step,duration,at\nA,1,1,depot\nB,1,1,7\n",
			[]konvoy.Event{{Key: "A", Step: 1, Duration: 1}, {Key: "B", Step: 1, Duration: 1}}},
		{"jsonl line field, NoColumn", eventlog.Reader{Name: "t.jsonl", Columns: eventlog.Columns{Line: eventlog.NoColumn}},
			`{"key":"A","line":"L","step":1,"duration":1}` + "\n",
			[]konvoy.Event{{Key: "A", Step: 1, Duration: 1}}},
		{"csv key column named partition", eventlog.Reader{Name: "t.csv", Columns: eventlog.Columns{Key: "partition"}},
			"partition,step,duration\neu,1,1\n",
			[]konvoy.Event{{Key: "eu", Step: 1, Duration: 1}}},
		// A line, text as a key is, is read from a column named for the
		// key: -key line keys by line, and the line convoy still runs.
		{"csv key column named line, read as the line too", eventlog.Reader{Name: "t.csv", Columns: eventlog.Columns{Key: "line"}},
			"line,step,duration\nL,1,1\n",
			[]konvoy.Event{{Key: "L", Line: "L", Step: 1, Duration: 1}}},
		{"csv a column named - is no column's", eventlog.Reader{Name: "t.csv", Columns: eventlog.Columns{Line: eventlog.NoColumn}},
			"key,-,step,duration\nA,L,1,1\n",
			[]konvoy.Event{{Key: "A", Step: 1, Duration: 1}}},
		{"csv an empty header cell is no role's", eventlog.Reader{Name: "t.csv", Columns: eventlog.Columns{Partition: eventlog.NoColumn}},
			"key,,step,duration\nA,eu,1,1\n",
			[]konvoy.Event{{Key: "A", Step: 1, Duration: 1}}},
		{"jsonl an empty field name is no role's", eventlog.Reader{Name: "t.jsonl", Columns: eventlog.Columns{Partition: eventlog.NoColumn}},
			`{"key":"A","":"eu","step":1,"duration":1}` + "\n",
			[]konvoy.Event{{Key: "A", Step: 1, Duration: 1}}},
	} {
		events, _, err := read(t, c.r, c.trace)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if diff := cmp.Diff(c.want, events); diff != "" {
			t.Errorf("%s: events (-want +got):\n%s", c.name, diff)
		}
	}
}

// A partition read from no column is no partition: the decoder says the
// trace records none, so that -layouts all leaves the layout recorded out.
func TestNoColumnRecordsNoPartitions(t *testing.T) {
	for _, name := range []string{"t.csv", "t.jsonl"} {
		trace := "key,step,duration,partition\nA,1,1,3\n"
		if name == "t.jsonl" {
			trace = `{"key":"A","step":1,"duration":1,"partition":3}` + "\n"
		}
		d, err := eventlog.NewDecoder(strings.NewReader(trace), eventlog.Reader{Name: name, Columns: eventlog.Columns{Partition: eventlog.NoColumn}})
		if err != nil {
			t.Fatal(err)
		}
		e, err := d.Next()
		if err != nil || e.Partition != 0 || d.Partitions() {
			t.Errorf("%s: %+v, %v, Partitions %v; want partition 0 and no partitions recorded", name, e, err, d.Partitions())
		}
	}
}

// A value with no digit in a column read by default, which may mean
// something else, is an error that says how to read no column for the
// role; a value with digits, or in a column named explicitly, is one
// that says only what was expected.
func TestABadValueOfADefaultColumnSaysHowToReadNone(t *testing.T) {
	for _, c := range []struct {
		name  string
		r     eventlog.Reader
		trace string
		want  string
	}{
		{"region as a partition", eventlog.Reader{Name: "t.csv"}, "key,step,duration,partition\nA,1,1,eu\n",
			`t.csv:2: field "partition": value "eu": want a partition number, a whole number from 0 to 2147483646; if this column is not the partition, -partition - (NoColumn) reads none`},
		{"jsonl region as a partition", eventlog.Reader{Name: "t.jsonl"}, `{"key":"A","step":1,"duration":1,"partition":"eu"}` + "\n",
			`t.jsonl:1: field "partition": value "eu": want a partition number, a whole number from 0 to 2147483646, as a JSON number; if this column is not the partition, -partition - (NoColumn) reads none`},
		{"status as a step", eventlog.Reader{Name: "t.csv"}, "key,step,duration\nA,created,1\n",
			`t.csv:2: field "step": value "created": want a whole number ≥ 0 (0 for a history-only record); if this column is not the step, -step - (NoColumn) reads none`},
		{"jsonl status as a step", eventlog.Reader{Name: "t.jsonl"}, `{"key":"A","step":"created","duration":1}` + "\n",
			`t.jsonl:1: field "step": value "created": want a whole number ≥ 0 (0 for a history-only record), as a JSON number, not a string; if this column is not the step, -step - (NoColumn) reads none`},
		{"jsonl place as an arrival", eventlog.Reader{Name: "t.jsonl"}, `{"key":"A","step":1,"duration":1,"at":"depot"}` + "\n",
			`t.jsonl:1: field "at": value "depot": want a whole number of rounds ≥ 0, as a JSON number, not a string; if this column is not the arrival, -at - (NoColumn) reads none`},
		{"region with digits as a partition", eventlog.Reader{Name: "t.csv"}, "key,step,duration,partition\nA,1,1,eu-west-1\n",
			`t.csv:2: field "partition": value "eu-west-1": want a partition number, a whole number from 0 to 2147483646; if this column is not the partition, -partition - (NoColumn) reads none`},
		// A step column of the statuses -steps names: -status step reads
		// them, where -step - would leave them unread (found by a review).
		{"named status as a step", eventlog.Reader{Name: "t.csv", Steps: []string{"created"}}, "key,step,duration\nA,created,1\n",
			`t.csv:2: field "step": value "created": want a whole number ≥ 0 (0 for a history-only record); it is a status -steps or -history names: -status step reads this column's statuses`},
		{"jsonl named status as a step", eventlog.Reader{Name: "t.jsonl", Steps: []string{"created"}}, `{"key":"A","step":"created","duration":1}` + "\n",
			`t.jsonl:1: field "step": value "created": want a whole number ≥ 0 (0 for a history-only record), as a JSON number, not a string; it is a status -steps or -history names: -status step reads this column's statuses`},
		{"a partition with digits", eventlog.Reader{Name: "t.csv"}, "key,step,duration,partition\nA,1,1,-1\n",
			`t.csv:2: field "partition": value "-1": want a partition number, a whole number from 0 to 2147483646`},
		{"a partition column named", eventlog.Reader{Name: "t.csv", Columns: eventlog.Columns{Partition: "p"}}, "key,step,duration,p\nA,1,1,eu\n",
			`t.csv:2: field "p": value "eu": want a partition number, a whole number from 0 to 2147483646`},
		{"an arrival in a format", eventlog.Reader{Name: "t.csv", AtFormat: eventlog.RFC3339, Resolution: time.Second}, "key,step,duration,at\nA,1,1s,soon\n",
			`t.csv:2: field "at": value "soon": want an RFC 3339 timestamp, like "2024-05-01T12:00:00.25Z", in whole nanoseconds, between the years 1678 and 2261 in UTC`},
		{"no step column read, no statuses", eventlog.Reader{Name: "t.csv", Columns: eventlog.Columns{Step: eventlog.NoColumn}}, "key,step,status,duration\nA,1,new,1\n",
			`t.csv:2: field "status": value "new": want the statuses named as ordered (-steps) or history (-history); none are named, and no step column is read`},
		{"no step column read, no status column", eventlog.Reader{Name: "t.csv", Columns: eventlog.Columns{Step: eventlog.NoColumn}}, "key,step,duration\nA,1,1\n",
			`t.csv:1: want a column "status" in the header; it has "key", "step", "duration"`},
		{"no step column read, the status twice beside an empty name", eventlog.Reader{Name: "t.csv", Steps: []string{"new"}, Columns: eventlog.Columns{Step: eventlog.NoColumn}}, "key,,status,status,duration\nA,1,new,new,1\n",
			`t.csv:1: want each column once; the header names "status" twice, as columns 3 and 4`},
		{"jsonl no step field read, no status", eventlog.Reader{Name: "t.jsonl", Columns: eventlog.Columns{Step: eventlog.NoColumn}}, `{"key":"A","step":1,"duration":1}` + "\n",
			`t.jsonl:1: want a field "status"`},
		{"empty, status named step", eventlog.Reader{Name: "t.csv", Columns: eventlog.Columns{Status: "step"}}, "",
			`t.csv:1: want a header row naming the columns key, step, and duration; the trace is empty`},
	} {
		_, _, err := read(t, c.r, c.trace)
		if err == nil || err.Error() != c.want {
			t.Errorf("%s:\n got %v\nwant %s", c.name, err, c.want)
		}
	}
}

// NoColumn for a role every event needs, or for arrivals the options read,
// is an error before anything is read.
func TestNoColumnForANeededRoleIsAnOptionError(t *testing.T) {
	for _, c := range []struct {
		name string
		r    eventlog.Reader
		want string
	}{
		{"key", eventlog.Reader{Columns: eventlog.Columns{Key: eventlog.NoColumn}}, "eventlog: Columns.Key is NoColumn; every event needs a key, from a column"},
		{"duration", eventlog.Reader{Columns: eventlog.Columns{Duration: eventlog.NoColumn}}, "eventlog: Columns.Duration is NoColumn; every event needs a duration, from a column or drawn from Durations"},
		{"step and status", eventlog.Reader{Columns: eventlog.Columns{Step: eventlog.NoColumn, Status: eventlog.NoColumn}}, "eventlog: no column gives the step: Columns.Step is NoColumn, and Columns.Status is NoColumn; every event needs a step, from a step or a status column"},
		// The step column named for another role leaves the status alone to
		// give the step: NoColumn for it too leaves none (found by a review).
		{"step named for the key, no status", eventlog.Reader{Columns: eventlog.Columns{Key: "step", Status: eventlog.NoColumn}}, `eventlog: no column gives the step: the column "step" is named for another role, and Columns.Status is NoColumn; every event needs a step, from a step or a status column`},
		{"timestamps", eventlog.Reader{Columns: eventlog.Columns{At: eventlog.NoColumn}, AtFormat: eventlog.UnixMS, Resolution: time.Millisecond}, "eventlog: AtFormat unix-ms reads arrivals from a column, and Columns.At is NoColumn"},
		{"reorder", eventlog.Reader{Columns: eventlog.Columns{At: eventlog.NoColumn}, Reorder: time.Second, Resolution: time.Millisecond}, "eventlog: Reorder sorts arrivals, and Columns.At is NoColumn: there are none"},
	} {
		_, err := eventlog.NewDecoder(strings.NewReader(""), c.r)
		if err == nil || err.Error() != c.want {
			t.Errorf("%s:\n got %v\nwant %s", c.name, err, c.want)
		}
	}
	// A duration drawn needs no column: NoColumn for it is no error then.
	two := synth.Fixed(2)
	events, _, err := read(t, eventlog.Reader{Name: "t.csv", Durations: &two, Columns: eventlog.Columns{Duration: eventlog.NoColumn}}, "key,step\nA,1\n")
	if err != nil || len(events) != 1 || events[0].Duration != 2 {
		t.Errorf("NoColumn for a drawn duration: %+v, %v; want one event of 2 rounds", events, err)
	}
}

// A status named twice is an option error naming the list, or both lists,
// it is in (found by a review: "-steps new,new" was said to be named in
// the ordered and history statuses, with no history given).
func TestAStatusNamedTwiceNamesItsLists(t *testing.T) {
	for _, c := range []struct {
		r    eventlog.Reader
		want string
	}{
		{eventlog.Reader{Steps: []string{"new", "new"}}, `eventlog: status "new" is named twice in the ordered statuses`},
		{eventlog.Reader{History: []string{"h", "h"}}, `eventlog: status "h" is named twice in the history statuses`},
		{eventlog.Reader{Steps: []string{"new", "h"}, History: []string{"h"}}, `eventlog: status "h" is named in the ordered statuses and in the history statuses`},
	} {
		if _, err := eventlog.NewDecoder(strings.NewReader(""), c.r); err == nil || err.Error() != c.want {
			t.Errorf("%+v: %v; want %s", c.r, err, c.want)
		}
	}
}
