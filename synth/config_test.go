package synth_test

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/sirali-konvoy/konvoy/synth"
)

func TestDefaultIsValid(t *testing.T) {
	if err := synth.Default().Check(); err != nil {
		t.Fatalf("Default().Check() = %v; want nil", err)
	}
	if err := (synth.Config{}).Check(); err == nil {
		t.Fatal("Config{}.Check() = nil; want an error: the zero Config has no keys")
	}
}

func TestCheckNamesTheField(t *testing.T) {
	for _, tc := range []struct {
		field  string
		change func(*synth.Config)
	}{
		{"Events", func(c *synth.Config) { c.Events = -1 }},
		{"Events", func(c *synth.Config) { c.Events = synth.MaxEvents; c.Events++ }},
		{"Keys", func(c *synth.Config) { c.Keys = 0 }},
		{"Keys", func(c *synth.Config) { c.Keys = synth.MaxCount; c.Keys++ }}, // wraps where int is 32 bits: still wrong
		{"Keys", func(c *synth.Config) { c.Keys, c.KeySkew = synth.MaxSkewedKeys+1, 0.5 }},
		{"Lines", func(c *synth.Config) { c.Lines = 0 }},
		{"Lines", func(c *synth.Config) { c.Lines, c.LineSkew = synth.MaxSkewedLines+1, 1 }},
		{"StepsPerKey", func(c *synth.Config) { c.StepsPerKey = 0 }},
		{"StepsPerKey", func(c *synth.Config) { c.StepsPerKey = synth.MaxSteps + 1 }},
		{"OrderedSteps", func(c *synth.Config) { c.OrderedSteps = 8 }},
		{"OrderedSteps", func(c *synth.Config) { c.OrderedSteps = -1 }},
		{"InFlight", func(c *synth.Config) { c.InFlight = 0 }},
		{"KeySkew", func(c *synth.Config) { c.KeySkew = -0.5 }},
		{"KeySkew", func(c *synth.Config) { c.KeySkew = math.Inf(1) }},
		{"LineSkew", func(c *synth.Config) { c.LineSkew = math.NaN() }},
		{"OutOfOrder", func(c *synth.Config) { c.OutOfOrder = 1.5 }},
		{"OutOfOrder", func(c *synth.Config) { c.OutOfOrder = math.NaN() }},
		{"Duration", func(c *synth.Config) { c.Duration = synth.Uniform(3, 1) }},
		{"Duration", func(c *synth.Config) { c.Duration = synth.Fixed(-1) }},
		{"Duration", func(c *synth.Config) { c.Duration = synth.Exponential(math.NaN()) }},
		{"Duration", func(c *synth.Config) { c.Duration = synth.LogNormal(0, -1) }},
		{"Rate", func(c *synth.Config) { c.Rate = -1 }},
		{"Rate", func(c *synth.Config) { c.Rate = math.Inf(1) }},
		{"Rate", func(c *synth.Config) { c.Rate = 1e-9 }}, // 10M events over 1e16 rounds
		{"BurstEvery", func(c *synth.Config) { c.BurstEvery = -1 }},
		{"BurstLen", func(c *synth.Config) { c.Rate, c.BurstEvery, c.BurstLen, c.BurstFactor = 1, 10, 0, 2 }},
		{"BurstLen", func(c *synth.Config) { c.Rate, c.BurstEvery, c.BurstLen, c.BurstFactor = 1, 10, 11, 2 }},
		{"BurstFactor", func(c *synth.Config) { c.Rate, c.BurstEvery, c.BurstLen, c.BurstFactor = 1, 10, 2, 0 }},
	} {
		c := synth.Default()
		tc.change(&c)
		err := c.Check()
		if err == nil {
			t.Errorf("%s: Check() = nil; want an error", tc.field)
			continue
		}
		msg := err.Error()
		if !strings.HasPrefix(msg, "synth: "+tc.field) || !strings.Contains(msg, "want") || strings.Contains(msg, "\n") {
			t.Errorf("%s: Check() = %q; want one line starting \"synth: %s\" and saying what it wants", tc.field, msg, tc.field)
		}
	}
}

// Skewed Keys and Lines have limits of their own, both sides of which Check
// tells apart; without skew, or with a skew that is itself wrong, the limit
// is MaxCount.
func TestCheckSkewedLimits(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change func(*synth.Config)
		want   string // the error, or "" for none
	}{
		{"most skewed keys", func(c *synth.Config) { c.Keys, c.KeySkew = synth.MaxSkewedKeys, 1e-9 }, ""},
		{"one skewed key too many", func(c *synth.Config) { c.Keys, c.KeySkew = synth.MaxSkewedKeys+1, 1e-9 },
			fmt.Sprintf("synth: Keys is %d; want 1 to %d key names when KeySkew > 0", synth.MaxSkewedKeys+1, synth.MaxSkewedKeys)},
		{"most keys without skew", func(c *synth.Config) { c.Keys = synth.MaxCount }, ""},
		{"most keys, wrong skew", func(c *synth.Config) { c.Keys, c.KeySkew = synth.MaxCount, math.Inf(1) },
			"synth: KeySkew is +Inf; want a finite Zipf exponent ≥ 0"},
		{"most skewed lines", func(c *synth.Config) { c.Lines, c.LineSkew = synth.MaxSkewedLines, 3 }, ""},
		{"one skewed line too many", func(c *synth.Config) { c.Lines, c.LineSkew = synth.MaxSkewedLines+1, 3 },
			fmt.Sprintf("synth: Lines is %d; want 1 to %d lines when LineSkew > 0", synth.MaxSkewedLines+1, synth.MaxSkewedLines)},
		{"most lines without skew", func(c *synth.Config) { c.Lines = synth.MaxCount }, ""},
		{"most lines, wrong skew", func(c *synth.Config) { c.Lines, c.LineSkew = synth.MaxCount, math.NaN() },
			"synth: LineSkew is NaN; want a finite Zipf exponent ≥ 0"},
		{"no skewed keys", func(c *synth.Config) { c.Keys, c.KeySkew = 0, 1 },
			fmt.Sprintf("synth: Keys is 0; want 1 to %d key names when KeySkew > 0", synth.MaxSkewedKeys)},
		// 2^30 events at one a round, in bursts every round: MaxBursts
		// periods, the most; the same in a lull at half the rate cross twice
		// as many.
		{"the most bursts", func(c *synth.Config) { c.Events, c.Rate, c.BurstEvery, c.BurstLen, c.BurstFactor = 1<<30, 1, 1, 1, 2 }, ""},
		{"bursts too many", func(c *synth.Config) { c.Events, c.Rate, c.BurstEvery, c.BurstLen, c.BurstFactor = 1<<30, 1, 1, 1, 0.5 },
			"synth: BurstEvery is 1; want a period that the stream, spread over about 2.15e+09 rounds, crosses at most 1073741824 times: lengthen BurstEvery or raise Rate"},
		{"a tiny rate in bursts", func(c *synth.Config) { c.Events, c.Rate, c.BurstEvery, c.BurstLen, c.BurstFactor = 10, 1e-11, 2, 1, 1 },
			"synth: BurstEvery is 2; want a period that the stream, spread over about 1e+12 rounds, crosses at most 1073741824 times: lengthen BurstEvery or raise Rate"},
	} {
		if strings.Contains(tc.name, "burst") && synth.MaxSpan < synth.MaxBursts {
			continue // a 32-bit platform, where no span crosses so many periods
		}
		c := synth.Default()
		tc.change(&c)
		got := ""
		if err := c.Check(); err != nil {
			got = err.Error()
		}
		if got != tc.want {
			t.Errorf("%s: Check() = %q; want %q", tc.name, got, tc.want)
		}
	}
}

func TestCheckListsEveryProblem(t *testing.T) {
	err := synth.Config{OutOfOrder: 2}.Check()
	if err == nil {
		t.Fatal("Check() = nil")
	}
	for _, field := range []string{"Keys", "Lines", "StepsPerKey", "InFlight", "OutOfOrder"} {
		if !strings.Contains(err.Error(), "synth: "+field+" ") {
			t.Errorf("Check() = %q; want a line on %s", err, field)
		}
	}
}

// Burst settings matter only with bursts and a rate.
func TestBurstFieldsIgnoredWithoutBursts(t *testing.T) {
	c := synth.Default()
	c.BurstLen, c.BurstFactor = -3, -1
	if err := c.Check(); err != nil {
		t.Errorf("no bursts: Check() = %v; want nil", err)
	}
	c.BurstEvery = 5
	if err := c.Check(); err != nil {
		t.Errorf("bursts with Rate 0: Check() = %v; want nil", err)
	}
}

// Each problem Check finds is a *ConfigError that names its field, and
// Rename names the fields as a caller does.
func TestCheckErrorsAreConfigErrors(t *testing.T) {
	err := synth.Config{Keys: 1, Lines: 1, StepsPerKey: 3, OrderedSteps: 5, InFlight: 1}.Check()
	var ce *synth.ConfigError
	if !errors.As(err, &ce) || ce.Field != "OrderedSteps" {
		t.Fatalf("Check() = %v; want a *ConfigError on OrderedSteps", err)
	}
	flag := func(field string) string { return "-" + strings.ToLower(field) }
	if got, want := ce.Rename(flag), "-orderedsteps is 5; want 0 to 3 ordered steps (at most -stepsperkey)"; got != want {
		t.Errorf("Rename = %q; want %q", got, want)
	}
}

// The span Check bounds is the expected one, at the stream's mean rate:
// lulls as deep as a float64 allows still leave the rounds between them at
// Rate, so ten events at one a round, in lulls of 5 rounds every 10, span
// about 20 rounds and pass; a lull that fills its whole period is the
// stream's rate, and a span past the largest float64 says so rather than
// "+Inf".
func TestCheckSpanAtTheMeanRate(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change func(*synth.Config)
		want   string // the error, or "" for none
	}{
		{"deep lulls between rounds at rate", func(c *synth.Config) {
			c.Events, c.Rate, c.BurstEvery, c.BurstLen, c.BurstFactor = 10, 1, 10, 5, 1e-308
		}, ""},
		{"a lull over the whole period", func(c *synth.Config) {
			c.Events, c.Rate, c.BurstEvery, c.BurstLen, c.BurstFactor = 10, 1, 10, 10, 1e-308
		},
			"synth: Rate 1, with lulls of BurstFactor 1e-308, spreads 10 events over more than 1.8e+308 rounds; want at most 1099511627776 rounds: raise Rate or BurstFactor"},
		{"a lull over the whole period, finite", func(c *synth.Config) {
			c.Events, c.Rate, c.BurstEvery, c.BurstLen, c.BurstFactor = 10, 1, 10, 10, 1e-12
		},
			"synth: Rate 1, with lulls of BurstFactor 1e-12, spreads 10 events over about 1e+13 rounds; want at most 1099511627776 rounds: raise Rate or BurstFactor"},
		{"the least rate", func(c *synth.Config) { c.Events, c.Rate = 10, 5e-324 },
			"synth: Rate 5e-324 spreads 10 events over more than 1.8e+308 rounds; want at most 1099511627776 rounds: raise Rate"},
	} {
		if synth.MaxSpan < 1<<40 {
			continue // a 32-bit platform, whose bound the messages do not name
		}
		c := synth.Default()
		tc.change(&c)
		got := ""
		if err := c.Check(); err != nil {
			got = err.Error()
		}
		if got != tc.want {
			t.Errorf("%s: Check() = %q; want %q", tc.name, got, tc.want)
		}
	}
}
