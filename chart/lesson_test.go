package chart_test

import (
	"testing"

	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/chart"
	"github.com/sirali-konvoy/konvoy/lesson"
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
