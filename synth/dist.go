package synth

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/sirali-konvoy/konvoy/internal/floattext"
)

// MaxDuration is the longest Duration an event can get, in rounds, so
// that one event's fits an int on every platform: a draw past it is an
// error of [Events] and of [Dist.DrawsChecked], and [Dist.Draws] cuts it
// to MaxDuration. A stream's total work may still pass an int (on 386,
// two events of MaxDuration do), which the simulator reports as an error
// naming the event, not as a wrong sum.
const MaxDuration = 1 << 30

// Dist is a distribution of event durations in whole rounds, made by
// [Fixed], [Uniform], [Exponential] or [LogNormal]. Continuous draws x ≥ 0
// are rounded half up, to ⌊x + 0.5⌋, so a duration may be 0 (konvoy allows
// it); a draw past [MaxDuration], in the tail of [Exponential] or
// [LogNormal], is an error of [Events] and [Dist.DrawsChecked].
//
// The zero Dist is Fixed(0): every event takes no time.
type Dist struct {
	kind   distKind
	a, b   float64
	lo, hi int // Fixed's and Uniform's, as given: a and b round them past 2^53
}

type distKind uint8

const (
	distFixed distKind = iota
	distUniform
	distExponential
	distLogNormal
)

// Fixed returns the distribution that gives every event a duration of
// rounds, which must be 0 to [MaxDuration].
func Fixed(rounds int) Dist {
	return Dist{kind: distFixed, a: float64(rounds), lo: rounds}
}

// Uniform returns the distribution of whole rounds from lo to hi inclusive,
// each equally likely; 0 ≤ lo ≤ hi ≤ [MaxDuration].
func Uniform(lo, hi int) Dist {
	return Dist{kind: distUniform, a: float64(lo), b: float64(hi), lo: lo, hi: hi}
}

// Exponential returns the exponential distribution with the given mean in
// rounds (0 to [MaxDuration]), rounded half up: the rounded mean is mean +
// O(1/mean), about 2.99 for mean 3; a mean of 0 gives 0 every time. A
// draw past MaxDuration is an error (see [Dist]): for a mean of
// MaxDuration about a third of the draws are.
func Exponential(mean float64) Dist {
	return Dist{kind: distExponential, a: mean}
}

// LogNormal returns the distribution of e^(mu + sigma·Z) rounds for a
// standard normal Z, rounded half up: its median is about e^mu. A draw
// past [MaxDuration] is an error (see [Dist]): every draw of
// LogNormal(21, 0), and one in about 1.4 × 10^7 of LogNormal(5, 3). mu must
// be finite and sigma finite and 0 or more.
func LogNormal(mu, sigma float64) Dist {
	return Dist{kind: distLogNormal, a: mu, b: sigma}
}

// String returns the distribution in the form [ParseDist] reads:
// "fixed:2", "uniform:1,3", "exp:2.5" or "lognormal:0,0.5".
func (d Dist) String() string {
	f := func(x float64) string { // decimals, as a user writes them (exp:1073741824), but for the far ends
		if a := math.Abs(x); a == 0 || a >= 1e-6 && a < 1e21 {
			return strconv.FormatFloat(x, 'f', -1, 64)
		}
		return strconv.FormatFloat(x, 'g', -1, 64)
	}
	switch d.kind {
	case distUniform:
		return "uniform:" + strconv.Itoa(d.lo) + "," + strconv.Itoa(d.hi)
	case distExponential:
		return "exp:" + f(d.a)
	case distLogNormal:
		return "lognormal:" + f(d.a) + "," + f(d.b)
	}
	return "fixed:" + strconv.Itoa(d.lo)
}

// Constant tells whether d's parameters make every draw the same
// duration, so that a seed changes nothing: [Fixed], and [Uniform] with lo
// = hi, [Exponential] of mean 0 and [LogNormal] of sigma 0. It looks at
// the parameters alone: a spread that rounding takes away (an exponential
// mean below 0.01, a log-normal far below a round) draws the same
// duration every time too, and Constant says false.
func (d Dist) Constant() bool {
	switch d.kind {
	case distUniform:
		return d.a == d.b
	case distExponential:
		return d.a == 0
	case distLogNormal:
		return d.b == 0
	}
	return true
}

// ParseDist reads a distribution written as [Dist.String] writes it:
// "fixed:N", "uniform:LO,HI", "exp:MEAN" (or "exponential:MEAN") or
// "lognormal:MU,SIGMA". It returns an error naming the problem when s is
// not one of these or its parameters are out of range: a [*DistError].
func ParseDist(s string) (Dist, error) {
	d, err := parseDist(s)
	if err != nil {
		return Dist{}, &DistError{Text: s, Err: err}
	}
	return d, nil
}

// A DistError is ParseDist's error: the text it could not read as a
// distribution, and why.
type DistError struct {
	Text string // the text given to ParseDist
	Err  error  // what was wrong with it, and what ParseDist wants
}

// Error returns "synth: distribution", the text quoted, and what was wrong.
func (e *DistError) Error() string { return fmt.Sprintf("synth: distribution %q: %v", e.Text, e.Err) }

// Unwrap returns e.Err.
func (e *DistError) Unwrap() error { return e.Err }

// parseDist is ParseDist, whose errors do not name s.
func parseDist(s string) (Dist, error) {
	name, args, ok := strings.Cut(s, ":")
	if !ok {
		return Dist{}, errors.New("want fixed:N, uniform:LO,HI, exp:MEAN or lognormal:MU,SIGMA")
	}
	params := strings.Split(args, ",")
	var d Dist
	var err error
	switch name {
	case "fixed":
		var n []int
		if n, err = ints(params, 1); err == nil {
			d = Fixed(n[0])
		}
	case "uniform":
		var n []int
		if n, err = ints(params, 2); err == nil {
			d = Uniform(n[0], n[1])
		}
	case "exp", "exponential":
		var x []float64
		if x, err = floats(params, 1); err == nil {
			d = Exponential(x[0])
		}
	case "lognormal":
		var x []float64
		if x, err = floats(params, 2); err == nil {
			d = LogNormal(x[0], x[1])
		}
	default:
		return Dist{}, fmt.Errorf("unknown kind %q; want fixed, uniform, exp or lognormal", name)
	}
	if err != nil {
		return Dist{}, err
	}
	if err := d.check(); err != nil {
		return Dist{}, err
	}
	return d, nil
}

// ints checks that params holds want integers and returns them.
func ints(params []string, want int) ([]int, error) {
	if len(params) != want {
		return nil, fmt.Errorf("want %d integer parameter(s), got %d", want, len(params))
	}
	n := make([]int, want)
	for i, p := range params {
		var err error
		if n[i], err = strconv.Atoi(strings.TrimSpace(p)); errors.Is(err, strconv.ErrRange) {
			return nil, fmt.Errorf("parameter %q is out of an int's range, %d to %d", p, math.MinInt, math.MaxInt)
		} else if err != nil {
			return nil, fmt.Errorf("parameter %q is not an integer", p)
		}
	}
	return n, nil
}

// floats checks that params holds want numbers and returns them.
func floats(params []string, want int) ([]float64, error) {
	if len(params) != want {
		return nil, fmt.Errorf("want %d parameter(s), got %d", want, len(params))
	}
	x := make([]float64, want)
	for i, p := range params {
		var err error
		t := strings.TrimSpace(p)
		switch x[i], err = floattext.ParseFloat(t); {
		case errors.Is(err, floattext.ErrTooSmall):
			return nil, fmt.Errorf("parameter %q is %w", p, err)
		case errors.Is(err, strconv.ErrRange):
			return nil, fmt.Errorf("parameter %q is out of a float64's range, at most %g in size", p, math.MaxFloat64)
		case err != nil:
			return nil, fmt.Errorf("parameter %q is not a number", p)
		}
	}
	return x, nil
}

// check reports the first parameter out of range, or nil.
func (d Dist) check() error {
	switch d.kind {
	case distFixed:
		if !(d.lo >= 0 && d.lo <= MaxDuration) {
			return fmt.Errorf("fixed duration is %d; want 0 to %d rounds", d.lo, MaxDuration)
		}
	case distUniform:
		if !(d.lo >= 0 && d.hi <= MaxDuration && d.lo <= d.hi) {
			return fmt.Errorf("uniform bounds are %d and %d; want 0 ≤ lo ≤ hi ≤ %d rounds", d.lo, d.hi, MaxDuration)
		}
	case distExponential:
		if !(d.a >= 0 && d.a <= MaxDuration) {
			return fmt.Errorf("exponential mean is %v; want 0 to %d rounds", d.a, MaxDuration)
		}
	case distLogNormal:
		return d.checkLogNormal()
	default:
		return errors.New("unknown distribution kind")
	}
	return nil
}

// checkLogNormal reports a lognormal's first parameter out of range, or nil.
func (d Dist) checkLogNormal() error {
	if math.IsNaN(d.a) || math.IsInf(d.a, 0) {
		return fmt.Errorf("lognormal mu is %v; want a finite number", d.a)
	}
	if !(d.b >= 0 && d.b <= math.MaxFloat64) {
		return fmt.Errorf("lognormal sigma is %v; want a finite number ≥ 0", d.b)
	}
	return nil
}

// durations draws event durations from one Dist.
type durations struct {
	d    Dist
	lo   int    // Fixed: the duration; Uniform: lo
	span uint64 // Uniform: hi − lo + 1
	rng  *rand.PCG
	norm normal
}

func newDurations(d Dist, rng *rand.PCG) *durations {
	s := &durations{d: d, rng: rng}
	switch d.kind {
	case distFixed:
		s.lo = int(d.a)
	case distUniform:
		s.lo, s.span = int(d.a), uint64(d.b-d.a)+1
	}
	return s
}

// next returns the next duration in whole rounds, and false when the draw
// passed MaxDuration, which it then returns.
func (s *durations) next() (int, bool) {
	switch s.d.kind {
	case distFixed:
		return s.lo, true
	case distUniform:
		if s.span == 1 {
			return s.lo, true
		}
		return s.lo + int(below(s.rng, s.span)), true
	case distExponential:
		return rounds(float64(s.d.a * expDraw(s.rng)))
	default: // distLogNormal
		return rounds(dexp(float64(s.d.b*s.norm.next(s.rng)) + s.d.a))
	}
}

// rounds rounds x ≥ 0 half up to whole rounds, and reports false, with
// MaxDuration, when they pass MaxDuration.
func rounds(x float64) (int, bool) {
	y := math.Floor(x + 0.5)
	if !(y <= MaxDuration) {
		return MaxDuration, false
	}
	return int(y), true
}

// Draws returns a function that draws one duration from d at each call,
// the same sequence for the same seed on every platform, as a trace's
// durations are drawn: to model the durations a trace does not record. A
// draw past [MaxDuration] is cut to it without a word: use
// [Dist.DrawsChecked] to hear of it. It panics, with a "synth:" prefix,
// for a d out of its constructor's range, as DrawsChecked does.
func (d Dist) Draws(seed uint64) func() int {
	next := d.drawsChecked("Draws", seed)
	return func() int {
		n, _ := next()
		return n
	}
}

// DrawsChecked returns a function that draws the durations [Dist.Draws]
// draws, in the same sequence for the same seed, and reports false with a
// draw that passed [MaxDuration] (Draws's function returns MaxDuration
// for it): a tail of [Exponential] or [LogNormal]. A reader of a trace
// should refuse such an event rather than take a duration cut short.
// It panics, with a "synth:" prefix, for a d out of its constructor's
// range (Fixed(-5), Uniform(5, 2)), whose draws would be durations no
// trace may hold: a program's mistake, which [ParseDist] and
// [Config.Check] report as an error for a value read from input.
func (d Dist) DrawsChecked(seed uint64) func() (int, bool) {
	return d.drawsChecked("DrawsChecked", seed)
}

// drawsChecked is DrawsChecked, called as method, the name its panic
// gives.
func (d Dist) drawsChecked(method string, seed uint64) func() (int, bool) {
	if err := d.check(); err != nil {
		panic("synth: Dist." + method + ": " + err.Error())
	}
	return newDurations(d, rand.NewPCG(seed, streamModel)).next
}

// streamModel is the stream of the PCG that Dist.Draws uses, apart from
// those of a generated trace.
const streamModel = 0x6d6f64656c // "model"
