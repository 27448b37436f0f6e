package synth_test

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/sirali-konvoy/konvoy/synth"
)

func TestDistStringParses(t *testing.T) {
	for _, d := range []synth.Dist{
		{}, synth.Fixed(3), synth.Uniform(1, 3), synth.Uniform(0, 0),
		synth.Exponential(2.5), synth.LogNormal(-0.25, 1.5),
		synth.Fixed(1_000_000), synth.Fixed(synth.MaxDuration), synth.Uniform(1, 2_000_000), synth.Exponential(3e7),
		synth.Exponential(1073741824), synth.Exponential(1e-7), synth.Exponential(0.1), synth.LogNormal(-1e-5, 1e20),
	} {
		got, err := synth.ParseDist(d.String())
		if err != nil || got != d {
			t.Errorf("ParseDist(%q) = %v, %v; want %v", d.String(), got, err, d)
		}
	}
	if d, err := synth.ParseDist("exponential: 4"); err != nil || d != synth.Exponential(4) {
		t.Errorf("ParseDist(\"exponential: 4\") = %v, %v", d, err)
	}
	for _, tc := range []struct {
		d    synth.Dist
		want string
	}{
		{synth.Uniform(1, 3), "uniform:1,3"},
		{synth.Exponential(1073741824), "exp:1073741824"}, // was exp:1.073741824e+09
		{synth.Exponential(2.5), "exp:2.5"},
		{synth.Exponential(1e-7), "exp:1e-07"},
		{synth.LogNormal(-0.25, 1.5), "lognormal:-0.25,1.5"},
		{synth.LogNormal(1e300, 0), "lognormal:1e+300,0"},
	} {
		if got := tc.d.String(); got != tc.want {
			t.Errorf("%v.String() = %q; want %q", tc.d, got, tc.want)
		}
	}
}

// An integer parameter too large for an int says so, not that it is no
// integer (found by a review).
func TestParseDistNamesAnIntsRange(t *testing.T) {
	_, err := synth.ParseDist("fixed:99999999999999999999")
	if want := fmt.Sprintf(`parameter "99999999999999999999" is out of an int's range, %d to %d`, math.MinInt, math.MaxInt); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("ParseDist(fixed:99999999999999999999): %v; want it to say %q", err, want)
	}
}

// A number too small for a float64 is refused, not read as 0 (exp:1e-400
// drew 0 every time), one too large says so, not that it is no number,
// and a whole number is written as one (found by a review); 0 written any
// way is 0.
func TestParseDistNamesAFloatsRange(t *testing.T) {
	for s, want := range map[string]string{
		"exp:1e-400":           `parameter "1e-400" is too small for a float64, which reads it as 0; want at least 5e-324 in size`,
		"exp:1e-700000000":     `parameter "1e-700000000" is too small`, // past math/big's range too (found by a review)
		"exp:1e-99999999999":   `parameter "1e-99999999999" is too small`,
		"exp:0.0001e-330":      `parameter "0.0001e-330" is too small`,
		"lognormal:0,-1e-999":  `parameter "-1e-999" is too small for a float64`,
		"exp:0x1p-2000":        `parameter "0x1p-2000" is too small`,
		"lognormal:0,1e400":    `parameter "1e400" is out of a float64's range, at most 1.7976931348623157e+308 in size`,
		"fixed:1073741825":     "fixed duration is 1073741825; want 0 to 1073741824 rounds",
		"uniform:5,1073741825": "uniform bounds are 5 and 1073741825; want",
	} {
		if _, err := synth.ParseDist(s); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseDist(%s): %v; want it to say %q", s, err, want)
		}
	}
	for _, s := range []string{"exp:0", "exp:-0", "exp:0.000e-999", "exp:0x0p-9", "lognormal:0e400,00"} {
		if d, err := synth.ParseDist(s); err != nil || !d.Constant() {
			t.Errorf("ParseDist(%s) = %v, %v; want a constant distribution", s, d, err)
		}
	}
}

func TestParseDistErrors(t *testing.T) {
	for _, s := range []string{
		"", "fixed", "fixed:", "fixed:1.5", "fixed:-1", "uniform:3", "uniform:3,1",
		"exp:x", "exp:-1", "lognormal:0", "lognormal:0,-1", "gamma:1", "fixed:1,2",
	} {
		if d, err := synth.ParseDist(s); err == nil {
			t.Errorf("ParseDist(%q) = %v, nil; want an error", s, d)
		} else if !strings.HasPrefix(err.Error(), "synth: distribution") {
			t.Errorf("ParseDist(%q): %q; want it to start \"synth: distribution\"", s, err)
		}
	}
}

// durations returns the durations of n events drawn from d.
func durations(t *testing.T, d synth.Dist, n int) []float64 {
	c := small(n)
	c.Duration = d
	var x []float64
	for _, e := range collect(t, c) {
		x = append(x, float64(e.Duration))
	}
	return x
}

// meanSD returns the sample mean and standard deviation of x.
func meanSD(x []float64) (mean, sd float64) {
	for _, v := range x {
		mean += v
	}
	mean /= float64(len(x))
	for _, v := range x {
		sd += (v - mean) * (v - mean)
	}
	return mean, math.Sqrt(sd / float64(len(x)-1))
}

// Each distribution's rounded draws have the mean that rounding half up
// gives, E⌊X + 0.5⌋ = Σ_{k ≥ 1} P(X ≥ k − 0.5), to within five standard
// errors.
func TestDurations(t *testing.T) {
	const n = 100_000
	for _, x := range durations(t, synth.Fixed(4), 1000) {
		if x != 4 {
			t.Fatalf("Fixed(4) gave %v", x)
		}
	}
	seen := map[float64]int{}
	for _, x := range durations(t, synth.Uniform(2, 5), n) {
		seen[x]++
	}
	for v := 2.0; v <= 5; v++ {
		within(t, fmt.Sprintf("Uniform(2, 5): share of %v", v), float64(seen[v])/n, 0.25, 5*math.Sqrt(0.25*0.75/n))
	}
	if len(seen) != 4 {
		t.Errorf("Uniform(2, 5) gave values %v; want 2 to 5", seen)
	}
	for _, tc := range []struct {
		d    synth.Dist
		tail func(x float64) float64 // P(X ≥ x)
	}{
		{synth.Exponential(3), func(x float64) float64 { return math.Exp(-x / 3) }},
		{synth.Exponential(0.4), func(x float64) float64 { return math.Exp(-x / 0.4) }},
		{synth.LogNormal(1, 0.5), func(x float64) float64 { return 0.5 * math.Erfc((math.Log(x)-1)/0.5/math.Sqrt2) }},
		{synth.LogNormal(-1, 1), func(x float64) float64 { return 0.5 * math.Erfc((math.Log(x)+1)/1/math.Sqrt2) }},
	} {
		want := 0.0
		for k := 1; k < 10_000; k++ {
			want += tc.tail(float64(k) - 0.5)
		}
		mean, sd := meanSD(durations(t, tc.d, n))
		within(t, tc.d.String()+": mean", mean, want, 5*sd/math.Sqrt(n))
	}
	if got := durations(t, synth.Exponential(0), 100); got[0] != 0 || got[99] != 0 {
		t.Errorf("Exponential(0) gave %v; want 0", got)
	}
}

// ParseDist's errors are *DistErrors holding the text and what was wrong.
func TestParseDistErrorIsDistError(t *testing.T) {
	_, err := synth.ParseDist("normal:1")
	var de *synth.DistError
	if !errors.As(err, &de) || de.Text != "normal:1" || !strings.HasPrefix(de.Err.Error(), `unknown kind "normal"`) {
		t.Fatalf("ParseDist(\"normal:1\") = %v; want a *DistError on the text, of its kind", err)
	}
}

// A distribution is constant when every draw is the same duration, and
// then a seed changes nothing: its draws under two seeds agree. The others
// draw different durations under two seeds.
func TestConstantDistributionsDrawTheSameUnderEverySeed(t *testing.T) {
	for _, c := range []struct {
		text     string
		constant bool
	}{
		{"fixed:3", true}, {"uniform:3,3", true}, {"exp:0", true}, {"lognormal:1,0", true},
		{"uniform:1,3", false}, {"exp:2", false}, {"lognormal:1,0.5", false},
	} {
		d, err := synth.ParseDist(c.text)
		if err != nil {
			t.Fatal(err)
		}
		if d.Constant() != c.constant {
			t.Errorf("%s: Constant() = %v; want %v", c.text, d.Constant(), c.constant)
		}
		a, b := d.Draws(1), d.Draws(2)
		same := true
		for range 100 {
			if a() != b() {
				same = false
			}
		}
		if same != c.constant {
			t.Errorf("%s: 100 draws under seeds 1 and 2 alike: %v; want %v", c.text, same, c.constant)
		}
	}
}

// A fixed or uniform parameter out of range is quoted as written, to the
// last digit, not as the float64 that rounds it past 2^53 (found by a
// review: fixed:9223372036854775807 said 9223372036854776000), by
// ParseDist and by Fixed and Uniform made directly; String writes them
// as given too.
func TestParseDistQuotesAWholeParameterExactly(t *testing.T) {
	most, least := strconv.Itoa(math.MaxInt), strconv.Itoa(math.MinInt) // past 2^53 where an int is 64 bits
	for _, c := range []struct{ in, want string }{
		{"fixed:" + most, "fixed duration is " + most + ";"},
		{"uniform:1," + most, "uniform bounds are 1 and " + most + ";"},
		{"uniform:" + least + ",1", "uniform bounds are " + least + " and 1;"},
	} {
		if _, err := synth.ParseDist(c.in); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ParseDist(%q): %v; want it to say %q", c.in, err, c.want)
		}
	}
	if got := synth.Uniform(3, math.MaxInt).String(); got != "uniform:3,"+most {
		t.Errorf("String = %q; want the bounds as given", got)
	}
}
