package synth_test

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/internal/seqtest"
	"github.com/sirali-konvoy/konvoy/synth"
)

// Poisson arrivals at rate r are the generator's: the same draws as a
// synthetic trace of rate r and the same seed, whatever the events were,
// the same every time, and a mean gap of about 1/r.
func TestPoissonArrivalsAreTheGenerators(t *testing.T) {
	cfg := synth.Default()
	cfg.Events, cfg.Rate, cfg.Seed = 20000, 2.5, 9
	want := seqtest.Drain(synth.Events(cfg))
	batch := make([]konvoy.Event, len(want))
	for i, e := range want {
		e.Arrival = 0
		batch[i] = e
	}
	stream := synth.PoissonArrivals(konvoy.Values(batch), cfg.Rate, cfg.Seed)
	for range 2 {
		got := seqtest.Drain(stream)
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("event %d: %+v; want %+v", i, got[i], want[i])
			}
		}
	}
	last := float64(want[len(want)-1].Arrival)
	if mean := last / float64(len(want)); math.Abs(mean-1/cfg.Rate) > 0.05/cfg.Rate {
		t.Errorf("mean gap %.4f rounds; want about %.4f", mean, 1/cfg.Rate)
	}
}

// Scaled arrivals are ⌊a·factor⌋, rounded down, and never decrease.
func TestScaledArrivalsRoundDown(t *testing.T) {
	events := []konvoy.Event{{Key: "A", Arrival: 0}, {Key: "B", Arrival: 3}, {Key: "C", Arrival: 7}, {Key: "D", Arrival: 10}}
	got := seqtest.Drain(synth.ScaledArrivals(konvoy.Values(events), 0.35))
	for i, want := range []int{0, 1, 2, 3} {
		if got[i].Arrival != want || got[i].Key != events[i].Key {
			t.Errorf("event %d: %+v; want arrival %d", i, got[i], want)
		}
	}
}

// The product is float64's before it is rounded down (see
// ScaledArrivals): 10 by 0.3 is 3, as written, though 0.3 is a little
// below three tenths and the exact product a little below 3.
func TestScaledArrivalsTakeTheFloatProduct(t *testing.T) {
	got := seqtest.Drain(synth.ScaledArrivals(konvoy.Values([]konvoy.Event{{Key: "A", Arrival: 10}}), 0.3))
	if got[0].Arrival != 3 {
		t.Errorf("10 scaled by 0.3: arrival %d; want 3", got[0].Arrival)
	}
}

// Arrivals scaled from an origin are origin + ⌊(a−origin)·factor⌋: the
// same as those scaled from 0 of the arrivals less origin, plus origin.
func TestScaledArrivalsFromTheirOrigin(t *testing.T) {
	events := []konvoy.Event{{Key: "A", Arrival: 100000}, {Key: "B", Arrival: 100003}, {Key: "C", Arrival: 100007}, {Key: "D", Arrival: 100010}}
	got := seqtest.Drain(synth.ScaledArrivalsFrom(konvoy.Values(events), 100000, 0.35))
	for i, want := range []int{100000, 100001, 100002, 100003} {
		if got[i].Arrival != want || got[i].Key != events[i].Key {
			t.Errorf("event %d: %+v; want arrival %d", i, got[i], want)
		}
	}
}

func TestArrivalsRejectBadRatesAndSpans(t *testing.T) {
	one := konvoy.Values([]konvoy.Event{{Key: "A", Arrival: 1}, {Key: "B", Arrival: 3}})
	for _, c := range []struct {
		name string
		seq  func(yield func(konvoy.Event, error) bool)
		want string
	}{
		{"rate 0", synth.PoissonArrivals(one, 0, 1), "want a positive finite rate"},
		{"rate NaN", synth.PoissonArrivals(one, math.NaN(), 1), "want a positive finite rate"},
		{"rate tiny", synth.PoissonArrivals(one, 1e-300, 1), "event 0 would arrive at round"},
		{"factor Inf", synth.ScaledArrivals(one, math.Inf(1)), "want a positive finite factor"},
		{"factor huge", synth.ScaledArrivals(one, synth.MaxSpan/2), "event 1, arriving at round 3, would arrive"},
		{"before the origin", synth.ScaledArrivalsFrom(one, 2, 1), "synth: event 0 arrives at round 1, before round 2 the arrivals are scaled from"},
		{"past the span from the origin", synth.ScaledArrivalsFrom(one, 1, synth.MaxSpan), fmt.Sprintf("event 1, arriving at round 3, would arrive at round 1+%.4g scaled by %.4g; want at most round 1+%d",
			2*float64(synth.MaxSpan), float64(synth.MaxSpan), synth.MaxSpan)},
		{"past the largest int", synth.ScaledArrivalsFrom(konvoy.Values([]konvoy.Event{{Arrival: math.MaxInt - 1}, {Arrival: math.MaxInt}}), math.MaxInt-1, 2), "want at most round"},
		// From a negative origin the rounds after it pass the largest int,
		// which an int's difference wrapped below MaxSpan (a review found
		// both arrivals taken).
		{"past the span from a negative origin", synth.ScaledArrivalsFrom(konvoy.Values([]konvoy.Event{{Arrival: math.MaxInt - 5}}), -10, 1), "event 0, arriving at round " + fmt.Sprint(math.MaxInt-5) + ", would arrive at round -10+"},
		{"past the span from the smallest int", synth.ScaledArrivalsFrom(konvoy.Values([]konvoy.Event{{Arrival: 0}}), math.MinInt, 0.5), "event 0, arriving at round 0, would arrive at round"},
	} {
		var err error
		for _, e := range c.seq {
			if e != nil {
				err = e
			}
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v; want %q", c.name, err, c.want)
		}
	}
	boom := errors.New("boom")
	failing := func(yield func(konvoy.Event, error) bool) { yield(konvoy.Event{}, boom) }
	for _, e := range synth.ScaledArrivals(failing, 2) {
		if !errors.Is(e, boom) {
			t.Errorf("error %v; want boom", e)
		}
	}
}

// A nil stream is a programmer's mistake: the retiming functions panic at
// once, with the package's prefix, rather than with a nil dereference when
// ranged over; and Memory of a Config that Check refuses returns, where
// StepsPerKey 0 divided by zero (found by a review).
func TestNilStreamsPanicWithThePackagesPrefix(t *testing.T) {
	for name, f := range map[string]func(){
		"PoissonArrivals":    func() { synth.PoissonArrivals(nil, 1, 1) },
		"ScaledArrivals":     func() { synth.ScaledArrivals(nil, 1) },
		"ScaledArrivalsFrom": func() { synth.ScaledArrivalsFrom(nil, 0, 1) },
	} {
		func() {
			defer func() {
				if r := recover(); r != "synth: "+name+": events is nil" {
					t.Errorf("%s(nil): panic %v; want synth: %s: events is nil", name, r, name)
				}
			}()
			f()
		}()
	}
	_ = synth.Config{}.Memory()
}
