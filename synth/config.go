package synth

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"unsafe"
)

// Limits of a Config's counts. MaxEvents and MaxSpan are 2^40 on 64-bit
// platforms and smaller where int is 32 bits, so that every Step, Duration
// and Arrival fits an int: arrivals would have to run 64 times longer than
// their expected span to overflow one there, which happens with a
// probability below e^-63.
//
// MaxSkewedKeys and MaxSkewedLines bound Keys and Lines when they are
// skewed: a Zipf law's shares are normalised by the sum of the weights of
// all ranks, which [Events] adds up one rank after another before the first
// event, in the same order on every platform so that the shares come out
// the same, and skewed lines take 8 bytes each. The limits keep that setup
// within about a second on a current core, and the lines' table within
// 8 MiB.
const (
	MaxEvents      = min(1<<40, math.MaxInt>>2) // most events in one stream
	MaxCount       = math.MaxInt32              // most keys or lines
	MaxInFlight    = 1 << 20                    // most lifecycles in flight: the window, about 100 bytes each, set up before the first event
	MaxSteps       = 1 << 16                    // most events in one lifecycle
	MaxSpan        = min(1<<40, math.MaxInt>>6) // longest expected arrival span, in rounds
	MaxSkewedKeys  = 1 << 24                    // most keys when KeySkew > 0
	MaxSkewedLines = 1 << 20                    // most lines when LineSkew > 0
	MaxBursts      = 1 << 30                    // most burst periods a stream's expected span may cross
)

// Config describes a synthetic trace. The package documentation explains the
// model each field sets.
//
// The zero Config is invalid, as it has no keys; start from [Default] and
// change what matters. [Config.Check] says what is wrong with a Config, and
// [Events] yields its error as the stream's only element.
type Config struct {
	// Seed selects the trace; the same Config with another Seed gives another
	// trace of the same shape. Any value, 0 included, is valid. Default: 1.
	Seed uint64

	// Events is the number of events in the stream, 0 to MaxEvents.
	// Default: 10,000,000.
	Events int

	// Keys is the number of key names, 1 to MaxCount, or to MaxSkewedKeys
	// when KeySkew > 0, named "K" and the key's rank padded to the width of
	// Keys ("K0000001" … "K1500000"). Keys whose share rounds to no
	// lifecycle do not appear: by default, with 1,428,572 lifecycles,
	// K1428573 … K1500000. Keys that do not appear cost no memory.
	// Default: 1,500,000.
	Keys int

	// KeySkew is the Zipf exponent s ≥ 0 of the keys' shares of the
	// lifecycles: the key of rank r gets a share proportional to r^−s, so
	// "K…01" is the hottest. 0 gives every key the same number of
	// lifecycles, give or take one. Default: 0.
	KeySkew float64

	// Lines is the number of lines, 1 to MaxCount, or to MaxSkewedLines
	// when LineSkew > 0, named "L" and the line's rank padded to the width
	// of Lines ("L001" … "L100"). Each key belongs to one line. Without
	// skew, lines that no key appearing lands on cost no memory.
	// Default: 100.
	Lines int

	// LineSkew is the Zipf exponent s ≥ 0 of the lines' shares of the keys:
	// the line of rank r gets a share of the keys proportional to r^−s.
	// 0 spreads keys evenly over lines. Default: 0.
	LineSkew float64

	// StepsPerKey is the number of events in a key's lifecycle, 1 to
	// MaxSteps. Default: 7.
	StepsPerKey int

	// OrderedSteps is how many of a lifecycle's events are ordered steps,
	// 0 to StepsPerKey; the others are history-only records (Step 0).
	// Default: 4.
	OrderedSteps int

	// InFlight is the number of lifecycles in flight at once, 1 to
	// MaxInFlight: how far the keys' events interleave. 1 emits one lifecycle
	// after another. Default: 1,000.
	InFlight int

	// OutOfOrder is the probability, 0 to 1, that the producer swaps an
	// ordered step with the next one of its lifecycle. Default: 0.
	OutOfOrder float64

	// Duration is the distribution of an event's duration in rounds.
	// Default: Uniform(1, 3).
	Duration Dist

	// Rate is the mean number of events arriving per round; 0 makes the
	// stream a batch in which every event arrives at round 0. A positive
	// Rate must spread Events over at most MaxSpan rounds: Events over the
	// mean rate, Rate, or with bursts Rate·(BurstLen·BurstFactor +
	// BurstEvery − BurstLen)/BurstEvery, must not exceed it. Default: 0.
	Rate float64

	// BurstEvery is the period of bursts in rounds; 0 means no bursts. A
	// burst starts at every multiple of BurstEvery and lasts BurstLen
	// rounds, 1 to BurstEvery, during which events arrive at Rate ×
	// BurstFactor (> 0; below 1 makes a lull). BurstLen and BurstFactor
	// are ignored when BurstEvery or Rate is 0. The stream's expected span
	// (see Rate) may cross at most MaxBursts periods, since drawing an
	// arrival steps through every period it crosses. Default: no bursts.
	BurstEvery  int
	BurstLen    int
	BurstFactor float64
}

// Default returns the configuration of konvoy's benchmark set: 10M events on
// 1.5M keys and 100 lines, 7 events per lifecycle of which 4 are ordered,
// 1,000 lifecycles in flight, durations uniform on 1 to 3 rounds, no skew,
// no disorder, all arriving at round 0, with Seed 1.
func Default() Config {
	return Config{
		Seed:         1,
		Events:       10_000_000,
		Keys:         1_500_000,
		Lines:        100,
		StepsPerKey:  7,
		OrderedSteps: 4,
		InFlight:     1_000,
		Duration:     Uniform(1, 3),
	}
}

// Check returns nil when c is valid, and otherwise an error listing every
// field out of range, one per line, each starting "synth: " and naming the
// field, its value and the range it needs: the errors.Join of one
// [*ConfigError] per problem.
func (c Config) Check() error {
	var p problems
	c.checkCounts(&p)
	c.checkDraws(&p)
	c.checkArrivals(&p)
	return errors.Join(p...)
}

// maxExpDraw bounds an exponential draw of mean 1, −ln of the least
// uniform draw, 2^−53: 36.74.
const maxExpDraw = 37

// CheckDurations draws the durations of c's events as [Events] draws
// them, and returns a [*ConfigError] of Duration naming the first event
// whose duration passes [MaxDuration], or nil: so that a writer of the
// stream may refuse c before it writes an event, where Events yields the
// error in that event's place after the events before it, which read as a
// whole trace. c must be valid ([Config.Check]). It takes O(Events) time,
// the draws alone, for a [LogNormal] of sigma above 0 and an [Exponential]
// whose tail may pass MaxDuration (a mean above about 2.9 × 10^7 rounds),
// O(1) for the others, and no memory.
func (c Config) CheckDurations() error {
	switch k := c.Duration.kind; {
	case k != distExponential && k != distLogNormal:
		return nil
	case k == distExponential && float64(maxExpDraw*c.Duration.a)+1 <= MaxDuration:
		return nil // no draw can pass: the stream is not held back
	}
	d := newDurations(c.Duration, rand.NewPCG(c.Seed, streamDuration))
	n := c.Events
	if c.Duration.Constant() {
		n = 1 // every draw is the first
	}
	for i := range n {
		if _, ok := d.next(); !ok {
			var p problems
			p.bad("Duration", "Duration is %v: event %d of Seed %d draws more than %d rounds (MaxDuration), the longest an event's may be", c.Duration, i, c.Seed, MaxDuration)
			return p[0]
		}
	}
	return nil
}

// A ConfigError is one problem that Check finds in a Config: the field
// out of range, its value and what it needs.
type ConfigError struct {
	Field   string // the field, as Config names it
	Problem string // "Field is value; want ...", naming fields as Config does
}

// Error returns "synth: " and the problem.
func (e *ConfigError) Error() string { return "synth: " + e.Problem }

// Rename returns the problem with every name of a Config field in it
// replaced by name(field): how a command whose flags set the fields
// names them.
func (e *ConfigError) Rename(name func(field string) string) string {
	return configFields.ReplaceAllStringFunc(e.Problem, name)
}

// configFields matches the name of a field of Config as a whole word.
var configFields = func() *regexp.Regexp {
	var names []string
	for _, f := range reflect.VisibleFields(reflect.TypeFor[Config]()) {
		names = append(names, f.Name)
	}
	return regexp.MustCompile(`\b(` + strings.Join(names, "|") + `)\b`)
}()

// problems collects what Check finds wrong, in order.
type problems []error

// bad adds a problem of field: format, which names it, with args.
func (p *problems) bad(field, format string, args ...any) {
	*p = append(*p, &ConfigError{Field: field, Problem: fmt.Sprintf(format, args...)})
}

// count adds a problem when the count v of field name is not lo to hi unit.
func (p *problems) count(name string, v, lo, hi int, unit string) {
	if v < lo || v > hi {
		p.bad(name, "%s is %d; want %d to %d %s", name, v, lo, hi, unit)
	}
}

// checkCounts checks the counts of events, keys, lines, steps and
// lifecycles in flight.
func (c Config) checkCounts(p *problems) {
	p.count("Events", c.Events, 0, MaxEvents, "events")
	if skewed(c.KeySkew) {
		p.count("Keys", c.Keys, 1, MaxSkewedKeys, "key names when KeySkew > 0")
	} else {
		p.count("Keys", c.Keys, 1, MaxCount, "key names")
	}
	if skewed(c.LineSkew) {
		p.count("Lines", c.Lines, 1, MaxSkewedLines, "lines when LineSkew > 0")
	} else {
		p.count("Lines", c.Lines, 1, MaxCount, "lines")
	}
	p.count("StepsPerKey", c.StepsPerKey, 1, MaxSteps, "events per lifecycle")
	if c.StepsPerKey >= 1 {
		p.count("OrderedSteps", c.OrderedSteps, 0, min(c.StepsPerKey, MaxSteps), "ordered steps (at most StepsPerKey)")
	} else {
		p.count("OrderedSteps", c.OrderedSteps, 0, MaxSteps, "ordered steps (at most StepsPerKey)")
	}
	p.count("InFlight", c.InFlight, 1, MaxInFlight, "lifecycles in flight")
}

// checkDraws checks the skews, the disorder and the durations.
func (c Config) checkDraws(p *problems) {
	for _, f := range []struct {
		name string
		v    float64
	}{{"KeySkew", c.KeySkew}, {"LineSkew", c.LineSkew}} {
		if !(f.v >= 0 && f.v <= math.MaxFloat64) {
			p.bad(f.name, "%s is %v; want a finite Zipf exponent ≥ 0", f.name, f.v)
		}
	}
	if !(c.OutOfOrder >= 0 && c.OutOfOrder <= 1) {
		p.bad("OutOfOrder", "OutOfOrder is %v; want a probability from 0 to 1", c.OutOfOrder)
	}
	if err := c.Duration.check(); err != nil {
		p.bad("Duration", "Duration %v: %v", c.Duration, err)
	}
}

// checkArrivals checks the rate and the bursts and, when nothing else is
// wrong, the span of the arrivals.
func (c Config) checkArrivals(p *problems) {
	if !(c.Rate >= 0 && c.Rate <= math.MaxFloat64) {
		p.bad("Rate", "Rate is %v; want 0 (a batch) or a finite number of events per round > 0", c.Rate)
	}
	if c.BurstEvery < 0 {
		p.bad("BurstEvery", "BurstEvery is %d; want 0 (no bursts) or a period of 1 or more rounds", c.BurstEvery)
	}
	bursts := c.Rate > 0 && c.BurstEvery > 0
	if bursts {
		p.count("BurstLen", c.BurstLen, 1, c.BurstEvery, "rounds (at most BurstEvery)")
		if !(c.BurstFactor > 0 && c.BurstFactor <= math.MaxFloat64) {
			p.bad("BurstFactor", "BurstFactor is %v; want a finite rate multiplier > 0", c.BurstFactor)
		}
	}
	if len(*p) == 0 && c.Rate > 0 {
		c.checkSpan(p, bursts)
	}
}

// checkSpan checks the arrivals' expected span, at the mean rate, of a
// valid positive Rate, with bursts or without.
func (c Config) checkSpan(p *problems, bursts bool) {
	mean := c.Rate
	if bursts {
		every, n := float64(c.BurstEvery), float64(c.BurstLen)
		mean = float64(c.Rate*c.BurstFactor*(n/every)) + float64(c.Rate*((every-n)/every)) // each term exact where the other vanishes; not fused
	}
	span := float64(c.Events) / mean
	switch {
	case !(span <= MaxSpan) && bursts && c.BurstFactor < 1:
		p.bad("Rate", "Rate %v, with lulls of BurstFactor %v, spreads %s over %s rounds; want at most %d rounds: raise Rate or BurstFactor",
			c.Rate, c.BurstFactor, eventsText(c.Events), spanText(span), int64(MaxSpan))
	case !(span <= MaxSpan):
		p.bad("Rate", "Rate %v spreads %s over %s rounds; want at most %d rounds: raise Rate", c.Rate, eventsText(c.Events), spanText(span), int64(MaxSpan))
	case bursts && span/float64(c.BurstEvery) > MaxBursts:
		p.bad("BurstEvery", "BurstEvery is %d; want a period that the stream, spread over %s rounds, crosses at most %d times: lengthen BurstEvery or raise Rate",
			c.BurstEvery, spanText(span), MaxBursts)
	}
}

// spanText is "about S" for a span S of rounds, or "more than" the largest
// float64 for one that overflows it.
func spanText(span float64) string {
	if math.IsInf(span, 1) {
		return fmt.Sprintf("more than %.3g", math.MaxFloat64)
	}
	return fmt.Sprintf("about %.3g", span)
}

// skewed reports whether s is a valid Zipf exponent above 0: one that makes
// Check hold Keys or Lines to its limit for skewed counts.
func skewed(s float64) bool {
	return s > 0 && s <= math.MaxFloat64
}

// lifecycles returns the number of lifecycles the stream draws on,
// ⌈Events/StepsPerKey⌉.
func (c Config) lifecycles() int {
	if c.StepsPerKey < 1 { // a Config that Check refuses: Memory's figure then means nothing, but is no panic
		return 0
	}
	return (c.Events + c.StepsPerKey - 1) / c.StepsPerKey
}

// eventsText is "1 event" or "n events".
func eventsText(n int) string {
	if n == 1 {
		return "1 event"
	}
	return strconv.Itoa(n) + " events"
}

// Memory returns about the most bytes [Events] holds through a run of c,
// a valid Config, however many events c has: under KeySkew 40 bytes and a
// key's name for each key with a share of the lifecycles, under LineSkew
// 8 bytes a line, about 100 bytes and a key's name for each lifecycle in
// flight (InFlight, at most the lifecycles), 4 bytes a step of a
// lifecycle, and the names it keeps as keys and lines enter (see Cost in
// the package's doc). Most of it is taken before the first event. A
// program may compare it with the memory it has before it calls Events:
// an allocation that fails ends a Go program, which no error can report.
// Of a Config that [Config.Check] refuses it returns a figure of no
// meaning, and does not panic. It takes O(1) time.
func (c Config) Memory() int64 {
	lifecycles := int64(c.lifecycles())
	keyName := int64(len(strconv.Itoa(c.Keys)) + 1) // K and the padded number
	window := min(int64(c.InFlight), lifecycles)
	n := window*(int64(unsafe.Sizeof(slot{}))+8+4*int64(unsafe.Sizeof(keyCell{}))+keyName) + 4*int64(c.StepsPerKey)
	if c.KeySkew > 0 && lifecycles > 0 {
		n += min(int64(c.Keys), lifecycles) * (int64(unsafe.Sizeof(stride{})) + keyName)
	}
	if c.LineSkew > 0 {
		n += 8 * int64(c.Lines)
	}
	if c.Keys <= maxKeptKeyNames {
		n += min(int64(c.Keys), lifecycles) * keyName
	}
	if c.Lines <= maxKeptLineNames {
		n += int64(c.Lines) * int64(len(strconv.Itoa(c.Lines))+1)
	}
	return n
}
