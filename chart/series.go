package chart

import (
	"context"
	"fmt"

	"github.com/sirali-konvoy/konvoy"
)

// RoundsOf returns what Rounds draws from runs already made: the work, and
// one series per layout of its rounds at each of counts, which must rise.
// result returns the run of layouts[li] at counts[ci] consumers; the work
// and each series' heaviest lane are those of its last run.
func RoundsOf(layouts []konvoy.Layout, counts []int, result func(li, ci int) konvoy.Result) (work int, series []RoundsSeries) {
	for li, l := range layouts {
		s := RoundsSeries{Layout: l.String()}
		for ci, c := range counts {
			r := result(li, ci)
			s.Consumers = append(s.Consumers, c)
			s.Rounds = append(s.Rounds, r.Rounds)
			s.HeaviestLane, work = r.HeaviestLane, r.Work
		}
		series = append(series, s)
	}
	return work, series
}

// SimulateRounds runs events under each of layouts at each of counts
// consumers, which must rise (an error otherwise), with opts, in one
// [konvoy.Sweep], and returns what Rounds draws (see RoundsOf).
func SimulateRounds(events []konvoy.Event, layouts []konvoy.Layout, counts []int, opts ...konvoy.Option) (int, []RoundsSeries, error) {
	for i := 1; i < len(counts); i++ {
		if counts[i] <= counts[i-1] {
			return 0, nil, fmt.Errorf("chart: SimulateRounds: counts %d then %d: want counts that rise", counts[i-1], counts[i])
		}
	}
	var configs []konvoy.Config
	for _, l := range layouts {
		for _, c := range counts {
			configs = append(configs, konvoy.Config{Layout: l, Consumers: c, Options: opts})
		}
	}
	results, err := konvoy.Sweep(context.Background(), konvoy.Values(events), configs)
	if err != nil {
		return 0, nil, err
	}
	work, series := RoundsOf(layouts, counts, func(li, ci int) konvoy.Result { return results[li*len(counts)+ci] })
	return work, series, nil
}

// SimulateLatency runs events under each of layouts at consumers with opts,
// keeping every event's slot ([konvoy.WithSchedule]), and returns one
// series per layout: what Latency draws, and, in each series' Slots, what
// Schedule draws. No events give series of no slots, as konvoy.Simulate
// gives them a Result of none.
func SimulateLatency(events []konvoy.Event, layouts []konvoy.Layout, consumers int, opts ...konvoy.Option) ([]LatencySeries, error) {
	opts = append(opts[:len(opts):len(opts)], konvoy.WithSchedule(max(len(events), 1))) // WithSchedule(0) panics
	var series []LatencySeries
	for _, l := range layouts {
		r, err := konvoy.Simulate(events, l, consumers, opts...)
		if err != nil {
			return nil, err
		}
		series = append(series, LatencySeries{Layout: l.String(), Slots: r.Schedule})
	}
	return series, nil
}
