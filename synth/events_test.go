package synth_test

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/sirali-konvoy/konvoy/internal/seqtest"

	"github.com/google/go-cmp/cmp"
	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/synth"
)

// busy returns a configuration that uses every feature.
func busy(events int) synth.Config {
	c := small(events)
	c.KeySkew, c.LineSkew = 0.9, 0.7
	c.OutOfOrder = 0.2
	c.Duration = synth.LogNormal(0.5, 0.8)
	c.Rate, c.BurstEvery, c.BurstLen, c.BurstFactor = 3, 20, 4, 2.5
	return c
}

func TestSameConfigSameEvents(t *testing.T) {
	for _, c := range []synth.Config{small(20_000), busy(20_000)} {
		a, b := collect(t, c), collect(t, c)
		if diff := cmp.Diff(a, b); diff != "" {
			t.Fatalf("two runs of one config differ (-first +second):\n%s", diff)
		}
		// Ranging over one sequence twice gives the same events too.
		seq := synth.Events(c)
		if diff := cmp.Diff(seqtest.Drain(seq), seqtest.Drain(seq)); diff != "" {
			t.Fatalf("two ranges over one sequence differ:\n%s", diff)
		}
		c.Seed++
		other := collect(t, c)
		same := 0
		for i := range a {
			if a[i] == other[i] {
				same++
			}
		}
		if same > len(a)/2 {
			t.Errorf("seeds %d and %d share %d of %d events; want different traces", c.Seed-1, c.Seed, same, len(a))
		}
	}
}

// Each concern draws from its own generator: turning producer disorder on
// swaps some steps and changes nothing else.
func TestOutOfOrderChangesOnlySteps(t *testing.T) {
	c := busy(20_000)
	c.OutOfOrder = 0
	calm := collect(t, c)
	c.OutOfOrder = 0.5
	wild := collect(t, c)
	ignoreStep := cmp.Transformer("noStep", func(e konvoy.Event) konvoy.Event { e.Step = 0; return e })
	if diff := cmp.Diff(calm, wild, ignoreStep); diff != "" {
		t.Fatalf("OutOfOrder changed more than steps:\n%s", diff)
	}
	if cmp.Equal(calm, wild) {
		t.Fatal("OutOfOrder 0.5 swapped no step")
	}
}

func TestEventCount(t *testing.T) {
	for _, n := range []int{0, 1, 6, 7, 8, 1000, 12_345} {
		for _, c := range []synth.Config{small(n), busy(n)} {
			if got := len(collect(t, c)); got != n {
				t.Errorf("Events %d gave %d events", n, got)
			}
		}
	}
}

func TestStopsWhenYieldReturnsFalse(t *testing.T) {
	n := 0
	for range synth.Events(small(1000)) {
		if n++; n == 10 {
			break
		}
	}
	if n != 10 {
		t.Fatalf("ranged over %d events; want 10", n)
	}
}

// Without disorder every key's events follow its lifecycles exactly: 1 0 2 0
// 3 0 4, then 5 0 6 0 7 0 8, …, cut short only at the end of the stream.
func TestStepsFollowLifecycles(t *testing.T) {
	for _, c := range []synth.Config{small(50_000), busy(50_000)} {
		c.OutOfOrder = 0
		c.InFlight = 300 // more than enough for keys to meet themselves with skew
		events, _ := byKey(collect(t, c))
		life := []int{1, 0, 2, 0, 3, 0, 4}
		for key, es := range events {
			for i, e := range es {
				want := 0
				if life[i%7] != 0 {
					want = i/7*4 + life[i%7]
				}
				if e.Step != want {
					t.Fatalf("KeySkew %v: key %s event %d has step %d; want %d", c.KeySkew, key, i, e.Step, want)
				}
			}
		}
	}
}

func TestPattern(t *testing.T) {
	for _, tc := range []struct {
		steps, ordered int
		want           []int
	}{
		{7, 4, []int{1, 0, 2, 0, 3, 0, 4}},
		{3, 3, []int{1, 2, 3}},
		{5, 4, []int{1, 2, 3, 0, 4}},
		{4, 1, []int{1, 0, 0, 0}},
		{3, 0, []int{0, 0, 0}},
	} {
		c := small(tc.steps)
		c.StepsPerKey, c.OrderedSteps, c.InFlight = tc.steps, tc.ordered, 1
		var got []int
		for e := range synth.Events(c) {
			got = append(got, e.Step)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%d steps, %d ordered: %v; want %v", tc.steps, tc.ordered, got, tc.want)
		}
	}
}

func TestOneLinePerKey(t *testing.T) {
	events, _ := byKey(collect(t, busy(50_000)))
	for key, es := range events {
		for _, e := range es {
			if e.Line != es[0].Line {
				t.Fatalf("key %s is on lines %s and %s", key, es[0].Line, e.Line)
			}
		}
	}
}

func TestNames(t *testing.T) {
	c := small(20)
	c.Keys, c.Lines, c.InFlight = 1_500_000, 100, 1
	events := collect(t, c)
	if events[0].Key != "K0000001" || events[7].Key != "K0000002" {
		t.Errorf("keys %q, %q; want K0000001, K0000002", events[0].Key, events[7].Key)
	}
	for _, e := range events {
		if len(e.Line) != 4 || e.Line < "L001" || e.Line > "L100" {
			t.Errorf("line %q; want L001 to L100", e.Line)
		}
	}
}

// With InFlight 1 the stream is one lifecycle after another.
func TestInFlightOneIsSequential(t *testing.T) {
	c := busy(7_000)
	c.InFlight, c.OutOfOrder = 1, 0
	events := collect(t, c)
	for i := 0; i < len(events); i += 7 {
		block := events[i:min(i+7, len(events))]
		for _, e := range block {
			if e.Key != block[0].Key {
				t.Fatalf("events %d–%d mix keys %s and %s", i, i+6, block[0].Key, e.Key)
			}
		}
		if s := orderedSteps(block); len(s) != 4 || s[0]%4 != 1 || s[3] != s[0]+3 {
			t.Fatalf("events %d–%d have ordered steps %v; want one lifecycle", i, i+6, s)
		}
	}
}

// Keys in flight: from a key's first to its last event. With one lifecycle
// per key, no more than InFlight keys are ever in flight, and the window
// keeps about that many busy.
func TestInFlightBoundsInterleaving(t *testing.T) {
	for _, w := range []int{1, 5, 50} {
		c := small(7 * 1000)
		c.InFlight = w
		events := collect(t, c)
		last := map[string]int{}
		for i, e := range events {
			last[e.Key] = i
		}
		open, most := map[string]bool{}, 0
		for i, e := range events {
			open[e.Key] = true
			most = max(most, len(open))
			if last[e.Key] == i {
				delete(open, e.Key)
			}
		}
		if most > w || most < w*9/10 {
			t.Errorf("InFlight %d: at most %d keys in flight; want %d or a little fewer", w, most, w)
		}
	}
}

// With KeySkew 0 lifecycles go round robin over the keys.
func TestRoundRobin(t *testing.T) {
	c := small(7*25 + 3) // 26 lifecycles, the last cut to 3 events
	c.Keys, c.InFlight = 10, 1
	events, order := byKey(collect(t, c))
	for r := 1; r <= 10; r++ {
		want := 14
		switch {
		case r <= 5:
			want = 21
		case r == 6:
			want = 17
		}
		if got := len(events[keyName(r, 10)]); got != want {
			t.Errorf("key %s has %d events; want %d", keyName(r, 10), got, want)
		}
	}
	if !slices.IsSorted(order) {
		t.Errorf("keys first appear in order %v; want K01 … K10", order)
	}

	c = small(700)
	c.Keys = 1000
	events, _ = byKey(collect(t, c))
	for r := 1; r <= 1000; r++ {
		if got, want := len(events[keyName(r, 1000)]), map[bool]int{true: 7, false: 0}[r <= 100]; got != want {
			t.Fatalf("key %s has %d events; want %d", keyName(r, 1000), got, want)
		}
	}
}

// Each key writes its Zipf share of the events, up to one lifecycle, so the
// hottest key's share grows with the exponent; and a hot key writes all
// through the stream, not in one stretch.
func TestKeySkew(t *testing.T) {
	const n = 700_000
	prev := 0.0
	for _, s := range []float64{0, 0.5, 1, 1.5, 2} {
		c := small(n)
		c.KeySkew, c.InFlight = s, 100
		events := collect(t, c)
		counts, _ := byKey(events)
		want := zipfShares(c.Keys, s)
		for _, r := range []int{1, 2, 10, 100} {
			got := float64(len(counts[keyName(r, c.Keys)])) / n
			within(t, fmt.Sprintf("KeySkew %v: share of key %d", s, r), got, want[r-1], 2*7.0/n)
		}
		hottest := float64(len(counts[keyName(1, c.Keys)])) / n
		if s > 0 && hottest <= prev {
			t.Errorf("KeySkew %v: hottest key's share %.4f; want more than %.4f", s, hottest, prev)
		}
		prev = hottest
		if s < 1 {
			continue
		}
		firstHalf := 0
		for _, e := range events[:n/2] {
			if e.Key == keyName(1, c.Keys) {
				firstHalf++
			}
		}
		within(t, fmt.Sprintf("KeySkew %v: hottest key's events in the first half", s),
			float64(firstHalf)/hottest/n, 0.5, 0.02)
	}
}

// Lines get their Zipf share of the keys; without skew, an even share.
func TestLineSkew(t *testing.T) {
	for _, s := range []float64{0, 1, 2} {
		c := small(7 * 100_000)
		c.Keys, c.LineSkew = 100_000, s
		_, keys := byKey(nil)
		lineOf := map[string]string{}
		for e := range synth.Events(c) {
			if _, ok := lineOf[e.Key]; !ok {
				keys = append(keys, e.Key)
				lineOf[e.Key] = e.Line
			}
		}
		perLine := map[string]int{}
		for _, k := range keys {
			perLine[lineOf[k]]++
		}
		want := zipfShares(c.Lines, s)
		for r := 1; r <= c.Lines; r++ {
			line := fmt.Sprintf("L%02d", r)
			within(t, fmt.Sprintf("LineSkew %v: share of keys on %s", s, line),
				float64(perLine[line])/float64(len(keys)), want[r-1], 1e-4)
		}
	}
}

// Arrivals never decrease, and with rate r the mean gap is 1/r: the sum of n
// exponential gaps has standard deviation √n/r, and taking whole rounds
// moves the last arrival by less than 1.
func TestArrivalRate(t *testing.T) {
	for _, rate := range []float64{0.05, 1, 2.5, 40} {
		c := small(200_000)
		c.Rate = rate
		events := collect(t, c)
		for i := 1; i < len(events); i++ {
			if events[i].Arrival < events[i-1].Arrival {
				t.Fatalf("rate %v: arrival %d after %d", rate, events[i].Arrival, events[i-1].Arrival)
			}
		}
		n := float64(len(events))
		last := float64(events[len(events)-1].Arrival)
		within(t, fmt.Sprintf("rate %v: mean gap", rate), last/n, 1/rate, (5*math.Sqrt(n)/rate+1)/n)
	}
	for e := range synth.Events(small(1000)) {
		if e.Arrival != 0 {
			t.Fatalf("rate 0: arrival %d; want 0", e.Arrival)
		}
	}
}

// Bursts multiply the rate for their rounds: with rate 1, bursts of 2 rounds
// in 10 at factor f, a share 2f/(8 + 2f) of the events arrives in burst
// rounds, up to binomial noise and the last, partial period.
func TestBursts(t *testing.T) {
	for _, f := range []float64{5, 0.25} {
		c := small(200_000)
		c.Rate, c.BurstEvery, c.BurstLen, c.BurstFactor = 1, 10, 2, f
		events := collect(t, c)
		in := 0
		for _, e := range events {
			if e.Arrival%10 < 2 {
				in++
			}
		}
		n := float64(len(events))
		p := 2 * f / (8 + 2*f)
		within(t, fmt.Sprintf("factor %v: share in bursts", f), float64(in)/n, p, 5*math.Sqrt(p*(1-p)/n)+(8+2*f)/n)
	}
}

// The producer swaps an ordered step with the next one of its lifecycle with
// probability OutOfOrder, at every ordered step that has a next one and was
// not itself moved by a swap.
func TestOutOfOrderRate(t *testing.T) {
	for _, p := range []float64{0.05, 0.3, 1} {
		c := small(140_000)
		c.OutOfOrder = p
		events, _ := byKey(collect(t, c))
		swaps, chances := 0, 0
		for _, es := range events {
			s := orderedSteps(es)
			for life := 0; life+4 <= len(s); life += 4 { // whole lifecycles only
				l := s[life : life+4]
				for k := 0; k < 3; k++ {
					chances++
					if l[k] > l[k+1] {
						swaps++
						k++
					}
				}
			}
		}
		n := float64(chances)
		within(t, fmt.Sprintf("OutOfOrder %v: swaps per chance", p), float64(swaps)/n, p, 5*math.Sqrt(p*(1-p)/n))
	}
}

func TestEventsYieldsTheErrorOfAnInvalidConfig(t *testing.T) {
	n := 0
	for e, err := range synth.Events(synth.Config{}) {
		n++
		if err == nil || !strings.HasPrefix(err.Error(), "synth: ") || !strings.Contains(err.Error(), "Keys") || e != (konvoy.Event{}) {
			t.Fatalf("Events(Config{}) yielded %v, %v; want a zero event and an error starting \"synth: \" naming Keys", e, err)
		}
	}
	if n != 1 {
		t.Fatalf("Events(Config{}) yielded %d elements; want the error alone", n)
	}
}
