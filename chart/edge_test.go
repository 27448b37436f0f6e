package chart_test

import (
	"fmt"
	"io"
	"math"
	"testing"

	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/chart"
)

// TestEdges draws unusual but valid input, for which every function must
// succeed: one point, no work, events that take no time or arrive late,
// huge figures, and more lanes than the palette has colours.
func TestEdges(t *testing.T) {
	const huge = min(1<<40, math.MaxInt) // the most a picture takes
	var many []konvoy.Event
	for i := range 60 {
		many = append(many, konvoy.Event{Key: fmt.Sprintf("key-%02d", i%30), Step: i/30 + 1, Duration: i % 3, Arrival: i / 4})
	}
	r, err := konvoy.Simulate(many, konvoy.Convoy, 6, konvoy.WithSchedule(len(many)))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		draw func(w io.Writer, f chart.Format) error
	}{
		{"rounds one point", func(w io.Writer, f chart.Format) error {
			return chart.Rounds(w, f, 5, []chart.RoundsSeries{{Layout: "x", Consumers: []int{3}, Rounds: []int{2}, HeaviestLane: 2}})
		}},
		{"rounds no work", func(w io.Writer, f chart.Format) error {
			return chart.Rounds(w, f, 0, []chart.RoundsSeries{{Layout: "x", Consumers: []int{1, 2}, Rounds: []int{0, 0}}})
		}},
		{"rounds huge", func(w io.Writer, f chart.Format) error {
			return chart.Rounds(w, f, huge, []chart.RoundsSeries{{Layout: "x", Consumers: []int{1, huge}, Rounds: []int{huge, huge}, HeaviestLane: huge}})
		}},
		{"rounds many series", func(w io.Writer, f chart.Format) error {
			var s []chart.RoundsSeries
			for i := range 12 {
				s = append(s, chart.RoundsSeries{Layout: fmt.Sprint(i), Consumers: []int{1, 2}, Rounds: []int{10, 5 + i%5}, HeaviestLane: i % 3})
			}
			return chart.Rounds(w, f, 10, s)
		}},
		{"schedule zero durations", func(w io.Writer, f chart.Format) error {
			return chart.Schedule(w, f, "", []konvoy.Slot{{Key: "a", Consumer: 0}, {Key: "b", Consumer: 1, Start: 0, Finish: 0}}, 2)
		}},
		{"schedule huge", func(w io.Writer, f chart.Format) error {
			return chart.Schedule(w, f, "", []konvoy.Slot{{Key: "a", Lane: "a", Arrival: huge - 1, Taken: huge - 1, Start: huge - 1, Finish: huge}}, 1)
		}},
		{"schedule many lanes and arrivals", func(w io.Writer, f chart.Format) error {
			return chart.Schedule(w, f, "thirty keys, six consumers", r.Schedule, 6)
		}},
		{"latency zero", func(w io.Writer, f chart.Format) error {
			return chart.Latency(w, f, []chart.LatencySeries{{Layout: "x", Slots: []konvoy.Slot{{}}}})
		}},
		{"latency arrivals", func(w io.Writer, f chart.Format) error {
			return chart.Latency(w, f, []chart.LatencySeries{{Layout: "convoy", Slots: r.Schedule}})
		}},
	}
	for _, tt := range tests {
		for _, f := range formats {
			t.Run(fmt.Sprintf("%s.%v", tt.name, f), func(t *testing.T) {
				if err := tt.draw(io.Discard, f); err != nil {
					t.Error(err)
				}
			})
		}
	}
}
