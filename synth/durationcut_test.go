package synth_test

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/sirali-konvoy/konvoy/synth"
)

// A duration drawn past MaxDuration is an error of the stream at that
// event, in its place, and the stream ends there: the events before it
// are yielded whole, none with a duration cut to MaxDuration.
func TestADurationDrawnPastMaxDurationIsAnErrorOfItsEvent(t *testing.T) {
	c := small(1000)
	c.Duration = synth.LogNormal(20.75, 0.05) // median about 0.96 of MaxDuration: about a fifth of draws pass it
	n, failed := 0, false
	for e, err := range synth.Events(c) {
		if failed {
			t.Fatalf("an element after the error: %v, %v", e, err)
		}
		if err != nil {
			failed = true
			want := fmt.Sprintf("synth: event %d: its duration, drawn from lognormal:20.75,0.05, passes %d rounds (MaxDuration)", n, synth.MaxDuration)
			if !strings.HasPrefix(err.Error(), want) {
				t.Errorf("error %q; want it to start %q", err, want)
			}
			continue
		}
		if e.Duration >= synth.MaxDuration {
			t.Errorf("event %d has duration %d; want one below MaxDuration, as few draws land on it exactly", n, e.Duration)
		}
		n++
	}
	if !failed || n == 0 {
		t.Fatalf("%d events and failed %v; want some events, then an error", n, failed)
	}
	c.Duration = synth.LogNormal(20.7, 0) // e^20.7 rounds, below MaxDuration: never an error
	if got := len(collect(t, c)); got != 1000 {
		t.Errorf("%d events of lognormal:20.7,0; want 1000", got)
	}
}

// DrawsChecked draws what Draws draws, and says which draws Draws cut to
// MaxDuration; a draw at MaxDuration or below is never called cut.
func TestDrawsCheckedSaysWhichDrawsDrawsCuts(t *testing.T) {
	for _, tc := range []struct {
		d    synth.Dist
		cuts bool
	}{
		{synth.LogNormal(20.75, 0.05), true}, {synth.Exponential(synth.MaxDuration), true},
		{synth.LogNormal(math.Log(synth.MaxDuration), 0), false}, // rounds to MaxDuration exactly
		{synth.Fixed(synth.MaxDuration), false}, {synth.Uniform(synth.MaxDuration-1, synth.MaxDuration), false},
	} {
		d := tc.d
		cut, whole, at := 0, 0, 0 // at: whole draws of MaxDuration
		draws, checked := d.Draws(7), d.DrawsChecked(7)
		for range 2000 {
			a := draws()
			b, ok := checked()
			if a != b || a > synth.MaxDuration || (!ok && a != synth.MaxDuration) {
				t.Fatalf("%v: Draws %d, DrawsChecked %d, %v; want the same draw, at most MaxDuration, MaxDuration when cut", d, a, b, ok)
			}
			if ok {
				whole++
				if b == synth.MaxDuration {
					at++
				}
			} else {
				cut++
			}
		}
		if (cut > 0) != tc.cuts || whole == 0 || (!tc.cuts && at == 0) {
			t.Errorf("%v: %d draws cut, %d whole, %d of them MaxDuration; want cuts %v, whole draws, and MaxDuration among them when none is cut",
				d, cut, whole, at, tc.cuts)
		}
	}
}

// CheckDurations names the event whose duration Events fails at, before a
// single event is drawn for a writer, for any seed; and nil when none
// fails (found by a review: konvoy gen wrote the events before the bad
// one, which read as a whole trace). It draws nothing for a distribution
// whose draws never pass MaxDuration.
func TestCheckDurationsNamesTheEventEventsFailsAt(t *testing.T) {
	failed := 0
	for seed := range uint64(20) {
		c := small(300)
		c.Seed, c.Duration = seed, synth.LogNormal(20.5, 0.1) // about 1 in 600 draws pass MaxDuration: some seeds' 300 events do
		failsAt := eventsFailAt(c)
		if failsAt >= 0 {
			failed++
		}
		err := c.CheckDurations()
		var ce *synth.ConfigError
		switch {
		case failsAt < 0 && err != nil:
			t.Errorf("seed %d: Events fails nowhere, CheckDurations: %v", seed, err)
		case failsAt >= 0 && (!errors.As(err, &ce) || ce.Field != "Duration" ||
			!strings.HasPrefix(err.Error(), fmt.Sprintf("synth: Duration is lognormal:20.5,0.1: event %d of Seed %d draws more than", failsAt, seed))):
			t.Errorf("seed %d: Events fails at event %d, CheckDurations: %v", seed, failsAt, err)
		}
	}
	if failed == 0 || failed == 20 {
		t.Errorf("%d of 20 seeds' streams fail; want some, not all, so that both answers are checked", failed)
	}
	c := small(300)
	for _, d := range []synth.Dist{synth.Uniform(1, synth.MaxDuration), synth.Exponential(2.9e7)} {
		c.Duration = d
		if err := c.CheckDurations(); err != nil {
			t.Errorf("%v: %v; want nil", d, err)
		}
	}
	for _, d := range []synth.Dist{synth.Exponential(synth.MaxDuration), synth.LogNormal(21, 0)} {
		c.Duration = d // a third of the draws pass; every draw passes
		if err := c.CheckDurations(); err == nil {
			t.Errorf("%v: nil; want an error", d)
		}
	}
}

// eventsFailAt returns the index of the event in whose place c's stream
// yields an error, or -1.
func eventsFailAt(c synth.Config) int {
	n := 0
	for _, err := range synth.Events(c) {
		if err != nil {
			return n
		}
		n++
	}
	return -1
}

// A Dist out of its constructor's range is a program's mistake: Draws and
// DrawsChecked panic, saying which, rather than draw durations no trace
// may hold (a review drew -5 from Fixed(-5), and ±9e18 from Uniform(5, 2),
// with ok true).
func TestDrawsOfADistOutOfRangePanic(t *testing.T) {
	for _, d := range []synth.Dist{
		synth.Fixed(-5), synth.Fixed(synth.MaxDuration + 1), synth.Uniform(5, 2), synth.Exponential(-3), synth.LogNormal(math.NaN(), 1),
	} {
		for _, draws := range []func(){func() { d.DrawsChecked(1) }, func() { d.Draws(1) }} {
			got := func() (v any) {
				defer func() { v = recover() }()
				draws()
				return nil
			}()
			msg, _ := got.(string)
			if !strings.HasPrefix(msg, "synth: Dist.Draws") {
				t.Errorf("draws of %v: panic %v; want one beginning %q", d, got, "synth: Dist.Draws")
			}
		}
	}
	if next := synth.Fixed(synth.MaxDuration).DrawsChecked(1); next == nil {
		t.Error("DrawsChecked of Fixed(MaxDuration): nil")
	}
}
