package eventlog_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/eventlog"
)

// A CSV export with its own column names and statuses, read as a stream and
// fed to a simulator.
func ExampleReader_Events() {
	trace := `tracking_no,route,status,took,comment
TR-1,H1,accepted,2,
TR-1,H1,scanned,0,"dock 4, gate B"
TR-2,H2,accepted,1,
TR-1,H1,delivered,3,
`
	r := eventlog.Reader{
		Name:    "export.csv",
		Columns: eventlog.Columns{Key: "tracking_no", Line: "route", Duration: "took"},
		Steps:   []string{"accepted", "transfer", "delivered"},
		History: []string{"scanned"},
	}
	sim, _ := konvoy.NewSimulator(konvoy.Convoy, 2)
	for e, err := range r.Events(strings.NewReader(trace)) {
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("%+v\n", e)
		sim.Add(e)
	}
	res, _ := sim.Result()
	fmt.Println("rounds:", res.Rounds)
	// Output:
	// {Key:TR-1 Line:H1 Step:1 Duration:2 Arrival:0 Partition:0}
	// {Key:TR-1 Line:H1 Step:0 Duration:0 Arrival:0 Partition:0}
	// {Key:TR-2 Line:H2 Step:1 Duration:1 Arrival:0 Partition:0}
	// {Key:TR-1 Line:H1 Step:3 Duration:3 Arrival:0 Partition:0}
	// rounds: 5
}

// A bad value is an *Error naming the file, the line and the field.
func ExampleError() {
	trace := "key,step,duration\nTR-1,1,2\nTR-1,2,1.5\n"
	for _, err := range (eventlog.Reader{Name: "t.csv"}).Events(strings.NewReader(trace)) {
		if err != nil {
			fmt.Println(err)
		}
	}
	// Output:
	// t.csv:3: field "duration": value "1.5": want a whole number of rounds ≥ 0
}

// Writing events as JSON Lines, which a zero Reader reads back.
func ExampleWriteAll() {
	events := []konvoy.Event{{Key: "TR-1", Line: "H1", Step: 1, Duration: 2}, {Key: "TR-1", Line: "H1", Step: 2, Duration: 1, Arrival: 3}}
	eventlog.WriteAll(os.Stdout, eventlog.JSONL, konvoy.Values(events))
	// Output:
	// {"key":"TR-1","line":"H1","step":1,"duration":2,"at":0}
	// {"key":"TR-1","line":"H1","step":2,"duration":1,"at":3}
}

// A trace file planned for: konvoy.PlanConsumers ranges over the trace once
// for every consumer count it tries, and a Trace yields it each time, from
// memory when it fits in the budget Scan is given.
func ExampleTrace() {
	dir, _ := os.MkdirTemp("", "trace")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "orders.csv")
	os.WriteFile(path, []byte("key,step,duration\nA,1,2\nB,1,2\nA,2,2\nC,1,2\n"), 0o644)

	trace := eventlog.NewTrace(path, eventlog.Reader{Name: "orders.csv"})
	if err := trace.Scan(1<<20, nil); err != nil {
		fmt.Println(err)
		return
	}
	cfg := konvoy.PlanConfig{Peak: 100, RoundSeconds: 0.01}
	plan, err := konvoy.PlanConsumers(trace.Events(), konvoy.Convoy, cfg)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("consumers:", plan.Consumers, "rounds:", plan.Rounds)
	// Output:
	// consumers: 2 rounds: 4
}
