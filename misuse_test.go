package konvoy_test

import (
	"context"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/lesson"
)

// nilContext is a nil context.Context, which staticcheck would flag as a
// literal nil.
var nilContext context.Context

// A programmer's misuse of the API panics with a message that starts
// "konvoy: " and says what was wrong, the same way everywhere, as each
// function's documentation says; it never runs into a nil pointer.
func TestMisusePanicsWithThePrefix(t *testing.T) {
	cfg := konvoy.PlanConfig{Peak: 1, RoundSeconds: 1}
	cases := []struct {
		name string
		call func()
		want string
	}{
		{"a nil Option to Simulate", func() { konvoy.Simulate(lesson.Events(), konvoy.Free, 1, konvoy.WithPolicy(konvoy.Static), nil) },
			"konvoy: option 1 is nil"},
		{"a nil Option to NewSimulator", func() { konvoy.NewSimulator(konvoy.Free, 1, nil) }, "konvoy: option 0 is nil"},
		{"a nil sequence to PlanConsumers", func() { konvoy.PlanConsumers(nil, konvoy.Free, cfg) },
			"konvoy: PlanConsumers: events is nil"},
		{"a nil sequence to PlanLatency", func() { konvoy.PlanLatency(nil, nil, konvoy.LatencyConfig{}) },
			"konvoy: PlanLatency: events is nil"},
		{"a nil context to Sweep", func() {
			konvoy.Sweep(nilContext, konvoy.Values(lesson.Events()), []konvoy.Config{{Layout: konvoy.Free, Consumers: 1}})
		},
			"konvoy: Sweep: ctx is nil; want a context, such as context.Background()"},
		{"a nil context to CompareSelective", func() { konvoy.CompareSelective(nilContext, konvoy.Values(lesson.Events()), 1, nil) },
			"konvoy: CompareSelective: ctx is nil; want a context, such as context.Background()"},
		{"a nil sequence to PartitionsFor", func() { konvoy.PartitionsFor(nil, 0, 1) }, "konvoy: PartitionsFor: events is nil"},
		{"Add on a zero Simulator", func() { new(konvoy.Simulator).Add(konvoy.Event{Key: "A"}) }, "konvoy: Simulator not made by NewSimulator"},
		{"Result of a zero Simulator", func() { new(konvoy.Simulator).Result() }, "konvoy: Simulator not made by NewSimulator"},
		{"Add on a nil Simulator", func() { (*konvoy.Simulator)(nil).Add(konvoy.Event{Key: "A"}) }, "konvoy: Simulator not made by NewSimulator"},
		{"Partitioned(0)", func() { konvoy.Partitioned(0) }, "konvoy: Partitioned(0): want 1 to 2147483647 partitions"},
		{"AllLayouts(0)", func() { konvoy.AllLayouts(0) }, "konvoy: Partitioned(0): want 1 to 2147483647 partitions"},
		{"NewLayout with no name", func() { konvoy.NewLayout("", nil) }, "konvoy: NewLayout: the name is empty"},
		{"WithMaxBacklog(-1)", func() { konvoy.WithMaxBacklog(-1) }, "konvoy: WithMaxBacklog(-1): want 0 (no limit) or more events"},
		{"WithSchedule(0)", func() { konvoy.WithSchedule(0) }, "konvoy: WithSchedule(0): want a limit of at least 1 event"},
		{"KafkaPartition with 0 partitions", func() { konvoy.KafkaPartition("A", 0) }, "konvoy: KafkaPartition with 0 partitions: want at least 1"},
		{"SelectiveMultiplier with a share of 2", func() { konvoy.SelectiveMultiplier(2, 1) }, "konvoy: ordered share is 2; want a fraction in [0, 1]"},
		{"Add after Result", func() {
			s, _ := konvoy.NewSimulator(konvoy.Free, 1)
			s.Result()
			s.Add(konvoy.Event{Key: "A"})
		}, "konvoy: Simulator.Add called after Result"},
	}
	if math.MaxInt > konvoy.MaxPartitions {
		over64 := int64(konvoy.MaxPartitions) + 1 // a variable: beyond int on 32-bit platforms, where this is not run
		over := int(over64)
		cases = append(cases, struct {
			name string
			call func()
			want string
		}{"Partitioned(MaxPartitions+1)", func() { konvoy.Partitioned(over) }, "konvoy: Partitioned(2147483648): want 1 to 2147483647 partitions"})
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			defer func() {
				got, _ := recover().(string)
				if got != c.want {
					t.Errorf("panic %q; want %q", got, c.want)
				}
				if !strings.HasPrefix(got, "konvoy: ") {
					t.Errorf("panic %q lacks the konvoy: prefix", got)
				}
			}()
			c.call()
		})
	}
}

// Counts out of range are errors, not panics, where they can come from a
// user: consumers, the planner's limit and a partitioned layout's name.
func TestCountsOutOfRangeAreErrors(t *testing.T) {
	for _, c := range []int{0, -1, math.MinInt} {
		if _, err := konvoy.NewSimulator(konvoy.Free, c); err == nil || err.Error() != "konvoy: consumers is "+itoa(c)+"; want 1 to 2147483647" {
			t.Errorf("NewSimulator(%d): %v", c, err)
		}
	}
	for _, name := range []string{"partitioned:0", "partitioned:2147483648", "partitioned:99999999999999", "partitioned:-1", "partitioned:"} {
		if _, err := konvoy.ParseLayout(name); err == nil || err.Error() != `layout "`+name+`": want partitioned:N with N a whole number from 1 to 2147483647, in decimal digits without a sign or leading zeros` {
			t.Errorf("ParseLayout(%q): %v", name, err)
		}
	}
	if l, err := konvoy.ParseLayout("partitioned:2147483647"); err != nil || l.Partitions() != konvoy.MaxPartitions {
		t.Errorf("ParseLayout(partitioned:2147483647): %v, %v", l, err)
	}
	for _, max := range []int{-1, int(min(int64(konvoy.MaxConsumers)+1, math.MaxInt))} {
		_, err := konvoy.PlanConsumers(konvoy.Values(lesson.Events()), konvoy.Free, konvoy.PlanConfig{Peak: 1, RoundSeconds: 1, MaxConsumers: max})
		if max > konvoy.MaxConsumers || max < 0 {
			if err == nil || err.Error() != "konvoy: consumer limit "+itoa(max)+": want 0 (1024) to 2147483647" {
				t.Errorf("MaxConsumers %d: %v", max, err)
			}
		}
	}
	if math.MaxInt > konvoy.MaxConsumers {
		over64 := int64(konvoy.MaxConsumers) + 1
		over := int(over64)
		if _, err := konvoy.NewSimulator(konvoy.Free, over); err == nil {
			t.Errorf("NewSimulator(%d) succeeded", over)
		}
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
