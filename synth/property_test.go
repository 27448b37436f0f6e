package synth_test

import (
	"testing"

	"github.com/sirali-konvoy/konvoy/internal/seqtest"

	"github.com/google/go-cmp/cmp"
	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/lesson"
	"github.com/sirali-konvoy/konvoy/synth"
	"pgregory.net/rapid"
)

// configs draws valid configurations of up to 400 events over every setting.
var configs = rapid.Custom(func(t *rapid.T) synth.Config {
	steps := rapid.IntRange(1, 8).Draw(t, "steps")
	c := synth.Config{
		Seed:         rapid.Uint64().Draw(t, "seed"),
		Events:       rapid.IntRange(0, 400).Draw(t, "events"),
		Keys:         rapid.IntRange(1, 30).Draw(t, "keys"),
		KeySkew:      rapid.SampledFrom([]float64{0, 0.3, 1, 2.5}).Draw(t, "keySkew"),
		Lines:        rapid.IntRange(1, 6).Draw(t, "lines"),
		LineSkew:     rapid.SampledFrom([]float64{0, 0.5, 1.5}).Draw(t, "lineSkew"),
		StepsPerKey:  steps,
		OrderedSteps: rapid.IntRange(0, steps).Draw(t, "ordered"),
		InFlight:     rapid.IntRange(1, 40).Draw(t, "inFlight"),
		OutOfOrder:   rapid.SampledFrom([]float64{0, 0.1, 0.5, 1}).Draw(t, "outOfOrder"),
		Duration: rapid.SampledFrom([]synth.Dist{
			synth.Fixed(0), synth.Fixed(2), synth.Uniform(0, 4),
			synth.Exponential(1.5), synth.LogNormal(0, 1),
		}).Draw(t, "duration"),
		Rate: rapid.SampledFrom([]float64{0, 0.2, 1, 7}).Draw(t, "rate"),
	}
	if rapid.Bool().Draw(t, "bursts") {
		c.BurstEvery = rapid.IntRange(1, 10).Draw(t, "burstEvery")
		c.BurstLen = rapid.IntRange(1, c.BurstEvery).Draw(t, "burstLen")
		c.BurstFactor = rapid.SampledFrom([]float64{0.5, 3}).Draw(t, "burstFactor")
	}
	return c
})

// Every stream is valid input for konvoy under every layout, and the same
// config gives it again.
func TestStreamsAreValidKonvoyInput(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := configs.Draw(t, "config")
		if err := c.Check(); err != nil {
			t.Fatalf("Check: %v", err)
		}
		events := seqtest.Drain(synth.Events(c))
		if len(events) != c.Events {
			t.Fatalf("%d events; want %d", len(events), c.Events)
		}
		if again := seqtest.Drain(synth.Events(c)); !cmp.Equal(events, again) {
			t.Fatalf("second run differs:\n%s", cmp.Diff(events, again))
		}
		consumers := rapid.IntRange(1, 6).Draw(t, "consumers")
		for _, l := range lesson.Layouts() {
			if _, err := konvoy.Simulate(events, l, consumers); err != nil {
				t.Fatalf("Simulate(%s, %d): %v", l, consumers, err)
			}
		}
	})
}

// Every key keeps one line; each key's ordered steps are 1, 2, 3, … with at
// most some neighbours swapped, each step off its place by at most one, and
// exactly in order without disorder.
func TestStreamShape(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := configs.Draw(t, "config")
		events := seqtest.Drain(synth.Events(c))
		keys, _ := byKey(events)
		for key, es := range keys {
			for _, e := range es {
				if e.Line != es[0].Line {
					t.Fatalf("key %s on lines %s and %s", key, es[0].Line, e.Line)
				}
			}
			for i, s := range orderedSteps(es) {
				want := i + 1
				if s != want && (c.OutOfOrder == 0 || s < want-1 || s > want+1) {
					t.Fatalf("key %s: ordered steps %v; want 1, 2, 3, … (OutOfOrder %v)", key, orderedSteps(es), c.OutOfOrder)
				}
			}
		}
		for i := 1; i < len(events); i++ {
			if events[i].Arrival < events[i-1].Arrival {
				t.Fatalf("event %d arrives at %d, before %d", i, events[i].Arrival, events[i-1].Arrival)
			}
		}
	})
}
