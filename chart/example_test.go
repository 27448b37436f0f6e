package chart_test

import (
	"bytes"
	"fmt"
	"io"
	"log"
	"strings"

	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/chart"
	"github.com/sirali-konvoy/konvoy/lesson"
)

// Example draws the lesson's argument: rounds against consumers for free
// consumption and the convoy, whose curve flattens at its heaviest lane. A
// program would write the picture to a file instead of a buffer.
func Example() {
	var series []chart.RoundsSeries
	work := 0
	for _, layout := range []konvoy.Layout{konvoy.Free, konvoy.Convoy} {
		s := chart.RoundsSeries{Layout: layout.String()}
		for _, c := range []int{1, 2, 4, 8} {
			r, err := konvoy.Simulate(lesson.Events(), layout, c)
			if err != nil {
				log.Fatal(err)
			}
			s.Consumers = append(s.Consumers, c)
			s.Rounds = append(s.Rounds, r.Rounds)
			s.HeaviestLane, work = r.HeaviestLane, r.Work
		}
		series = append(series, s)
	}
	var svg bytes.Buffer
	if err := chart.Rounds(&svg, chart.SVG, work, series); err != nil {
		log.Fatal(err)
	}
	fmt.Println("an SVG picture:", strings.HasPrefix(svg.String(), "<?xml"))
	fmt.Println(series[1].Layout, series[1].Rounds, "ceiling", series[1].HeaviestLane)
	// Output:
	// an SVG picture: true
	// convoy [32 17 13 9] ceiling 8
}

// ExampleSchedule draws the convoy's schedule on four consumers, from a run
// made with konvoy.WithSchedule, as a PNG of 12 by 8 centimetres at 96 dots
// per inch.
func ExampleSchedule() {
	r, err := konvoy.Simulate(lesson.Events(), konvoy.Convoy, 4, konvoy.WithSchedule(20))
	if err != nil {
		log.Fatal(err)
	}
	err = chart.Schedule(io.Discard, chart.PNG, "convoy, 4 consumers", r.Schedule, 4,
		chart.WithSize(12, 8), chart.WithDPI(96))
	fmt.Println(len(r.Schedule), "events drawn, error:", err)
	// Output: 20 events drawn, error: <nil>
}

// ExampleLatency draws the wait and response latencies of two layouts.
func ExampleLatency() {
	var series []chart.LatencySeries
	for _, layout := range []konvoy.Layout{konvoy.Free, konvoy.LineConvoy} {
		r, err := konvoy.Simulate(lesson.Events(), layout, 4, konvoy.WithSchedule(20))
		if err != nil {
			log.Fatal(err)
		}
		series = append(series, chart.LatencySeries{Layout: layout.String(), Slots: r.Schedule})
	}
	fmt.Println(chart.Latency(io.Discard, chart.SVG, series))
	// Output: <nil>
}
