package chart_test

import (
	"testing"
	"time"

	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/chart"
	"github.com/sirali-konvoy/konvoy/lesson"
	"github.com/sirali-konvoy/konvoy/synth"
)

// lessonLayouts are the layouts whose rounds the lesson compares.
var lessonLayouts = []konvoy.Layout{konvoy.Free, konvoy.Convoy, konvoy.LineConvoy}

// lessonRounds runs the lesson's events under each of lessonLayouts on 1 to
// 8 consumers and returns the work and one series per layout.
func lessonRounds(t testing.TB) (int, []chart.RoundsSeries) {
	t.Helper()
	work := 0
	var series []chart.RoundsSeries
	for _, l := range lessonLayouts {
		s := chart.RoundsSeries{Layout: l.String()}
		for c := 1; c <= 8; c++ {
			r, err := konvoy.Simulate(lesson.Events(), l, c)
			if err != nil {
				t.Fatal(err)
			}
			s.Consumers = append(s.Consumers, c)
			s.Rounds = append(s.Rounds, r.Rounds)
			s.HeaviestLane, work = r.HeaviestLane, r.Work
		}
		series = append(series, s)
	}
	return work, series
}

// lessonSchedule returns the schedule of the lesson's events under layout
// on the lesson's four consumers.
func lessonSchedule(t testing.TB, layout konvoy.Layout) []konvoy.Slot {
	t.Helper()
	r, err := konvoy.Simulate(lesson.Events(), layout, lesson.Consumers, konvoy.WithSchedule(20))
	if err != nil {
		t.Fatal(err)
	}
	return r.Schedule
}

// lessonLatency returns one latency series per lesson layout, on the
// lesson's four consumers.
func lessonLatency(t testing.TB) []chart.LatencySeries {
	t.Helper()
	var series []chart.LatencySeries
	for _, l := range lesson.Layouts() {
		series = append(series, chart.LatencySeries{Layout: l.String(), Slots: lessonSchedule(t, l)})
	}
	return series
}

// syntheticSLO is the latency plan of konvoy's ExamplePlanLatency, whose
// trace arrives over time: p99 of the response within 20 rounds of 10ms,
// for free consumption, the convoy and sixteen partitions, with every
// count from 1 to 24 run so that the whole curve shows.
func syntheticSLO(t testing.TB) *chart.SLOPicture {
	t.Helper()
	cfg := synth.Default()
	cfg.Events, cfg.Keys, cfg.KeySkew, cfg.Lines = 5000, 200, 0.9, 10
	cfg.Duration, cfg.Rate = synth.Uniform(1, 9), 0.8
	var counts []int
	for c := 1; c <= 24; c++ {
		counts = append(counts, c)
	}
	plans, err := konvoy.PlanLatency(synth.Events(cfg), []konvoy.Layout{konvoy.Free, konvoy.Convoy, konvoy.Partitioned(16)},
		konvoy.LatencyConfig{SLO: konvoy.SLO{Percentile: 99, Rounds: 20}, MaxConsumers: 24, Counts: counts})
	if err != nil {
		t.Fatal(err)
	}
	return chart.SLOOf(plans, 10*time.Millisecond)
}
