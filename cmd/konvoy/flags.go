package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"math"
	"net"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/sirali-konvoy/konvoy/internal/duration"
	"github.com/sirali-konvoy/konvoy/internal/floattext"
	"github.com/sirali-konvoy/konvoy/internal/report"
)

// command is the command line of one command: its flags, and the rules
// between them, declared beside the flags they concern and checked in one
// place, in the order declared, once the command line is parsed. The
// flags konvoy and konvoy plan share are defined, with their rules, by one
// method each (traceFlags, policy, backlog).
type command struct {
	*flag.FlagSet
	name  string          // "konvoy", "konvoy plan", "konvoy gen"
	rules []func() error  // the checks, in order
	given map[string]bool // the flags given, once parsed
	// lastWins lets a flag be given more than once, the last value kept,
	// as the flag package does, for konvoy serve, whose views' flags come
	// after, and win over, the served trace's; a command line may not.
	lastWins bool
	wants    map[string]string        // the integer flags' ranges, as their errors state them (see wantRange)
	wantsNow map[string]func() string // those that other flags set, stated once all are parsed (see wantRangeOf)
	tooLarge map[string]string        // the values of those flags that their type cannot hold, as given
	// argHint, when set, returns what to add to the error of an argument
	// the command does not take, first telling whether it came first.
	argHint func(arg string, first bool) string
}

// newCommand returns the command called name, whose usage is the lines
// usage and then its flags, printed on stderr.
func newCommand(name string, stderr io.Writer, usage ...string) *command {
	c := &command{FlagSet: flag.NewFlagSet(name, flag.ContinueOnError), name: name}
	c.SetOutput(stderr)
	c.Usage = func() {
		for _, line := range usage {
			fmt.Fprintln(c.Output(), line)
		}
		c.PrintDefaults()
	}
	return c
}

// usagef is a usage error of the command.
func (c *command) usagef(format string, args ...any) error { return usageIn(c.name, format, args...) }

// rule adds check to the checks made once the command line is parsed.
func (c *command) rule(check func() error) { c.rules = append(c.rules, check) }

// isSet tells whether the flag name was given, and not as false.
func (c *command) isSet(name string) bool {
	b, isBool := c.Lookup(name).Value.(interface{ IsBoolFlag() bool })
	return c.given[name] && !(isBool && b.IsBoolFlag() && c.Lookup(name).Value.String() == "false")
}

// needs declares that each of flags means something only with the flag
// with: "-F needs -with".
func (c *command) needs(with string, flags ...string) {
	c.rule(func() error {
		if c.isSet(with) {
			return nil
		}
		if i := slices.IndexFunc(flags, c.isSet); i >= 0 {
			return c.usagef("-%s needs -%s", flags[i], with)
		}
		return nil
	})
}

// needsOne declares that each of flags means something only with one of
// the flags withs: "-F needs -A or -B".
func (c *command) needsOne(withs []string, flags ...string) {
	c.rule(func() error {
		if slices.ContainsFunc(withs, c.isSet) {
			return nil
		}
		if i := slices.IndexFunc(flags, c.isSet); i >= 0 {
			return c.usagef("-%s needs -%s", flags[i], strings.Join(withs, " or -"))
		}
		return nil
	})
}

// nonEmpty declares that the string flag -name, whose value is *p, is not
// given empty: an empty value most likely comes from an unset shell
// variable, and taken as the flag left out it would drop what was asked,
// or let a rule between flags pass, without a word. want says what the
// flag wants: "-name is empty; want " + want.
func (c *command) nonEmpty(p *string, name, want string) {
	c.rule(func() error {
		if c.given[name] && *p == "" {
			return c.usagef("-%s is empty; want %s", name, want)
		}
		return nil
	})
}

// listenAddr checks the address flag -name, *p, as one to listen on:
// HOST:PORT, the host possibly empty (every interface), the port a number
// up to 65535 or a service's name; else a usage error says what is wrong
// with it, and want. A host that does not resolve is the listener's
// error, once the flags are read.
func (c *command) listenAddr(p *string, name, want string) {
	c.nonEmpty(p, name, want)
	c.rule(func() error {
		if *p == "" {
			return nil // nonEmpty's, or the default's
		}
		_, port, err := net.SplitHostPort(*p)
		if err == nil {
			_, err = net.LookupPort("tcp", port)
		}
		if ae := (*net.AddrError)(nil); errors.As(err, &ae) {
			err = errors.New(ae.Err) // "missing port in address", without the address again
		} else if de := (*net.DNSError)(nil); errors.As(err, &de) {
			err = errors.New(de.Err) // "unknown port"
		}
		if err != nil {
			return c.usagef("-%s is %q: %v; want %s", name, *p, err, want)
		}
		return nil
	})
}

// wantRange declares the range of the integer flag -name as its usage
// error states it, want ("1 to 2147483647"): a value in decimal digits
// that the flag's type cannot hold, 99999999999999999999, is then refused
// as one beyond the range is, "-name is 99999999999999999999; want " +
// want, rather than with the flag package's "value out of range", which
// names no range.
func (c *command) wantRange(name, want string) {
	if c.wants == nil {
		c.wants = map[string]string{}
	}
	c.wants[name] = want
}

// wantRangeOf declares, as wantRange does, the range of the integer flag
// -name that other flags set (-keys' under -key-skew): want states it once
// every flag is parsed.
func (c *command) wantRangeOf(name string, want func() string) {
	c.wantRange(name, "(stated once the flags are parsed)")
	if c.wantsNow == nil {
		c.wantsNow = map[string]func() string{}
	}
	c.wantsNow[name] = want
}

// count defines the flag -name, a count that must be 1 to most: always, or,
// when optional, only when given.
func (c *command) count(p *int, name string, value, most int, optional bool, usage string) {
	c.IntVar(p, name, value, usage)
	c.wantRange(name, fmt.Sprintf("1 to %d", most))
	c.rule(func() error {
		if optional && !c.given[name] {
			return nil
		}
		return inRange(c.name, name, *p, most)
	})
}

// choice defines the flag -name, whose value must be one of values, which
// want lists for the error.
func (c *command) choice(p *string, name, value, usage, want string, values ...string) {
	c.StringVar(p, name, value, usage)
	c.rule(func() error {
		if !slices.Contains(values, *p) {
			return c.usagef("-%s is %q; want %s", name, *p, want)
		}
		return nil
	})
}

// parse parses args and checks the rules. Its errors are flag.ErrHelp or
// usageError: the flag package has already printed why, and an argument
// left over is named.
func (c *command) parse(args []string) error {
	if err := c.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return usageError{}
	}
	if c.NArg() > 0 {
		hint := ""
		if c.argHint != nil {
			hint = c.argHint(c.Arg(0), c.NArg() == len(args))
		}
		fmt.Fprintf(c.Output(), "%s: unexpected argument %q%s\n", c.name, c.Arg(0), hint)
		c.Usage()
		return usageError{}
	}
	if err := c.once(args); err != nil && !c.lastWins {
		return err
	}
	if name := firstKey(c.tooLarge); name != "" {
		want := c.wants[name]
		if f := c.wantsNow[name]; f != nil {
			want = f()
		}
		return c.usagef("-%s is %s; want %s", name, c.tooLarge[name], want)
	}
	c.given = map[string]bool{}
	c.Visit(func(f *flag.Flag) { c.given[f.Name] = true })
	for _, check := range c.rules {
		if err := check(); err != nil {
			return err
		}
	}
	return nil
}

// once returns the usage error of a flag that args, which parse without
// error, give twice: the flag package keeps the last value, and would drop
// the first without a word ("-layouts free -layouts convoy" runs convoy
// alone). It reads args as the flag package does, up to the first
// argument that is not a flag or "--".
func (c *command) once(args []string) error {
	seen := map[string]string{}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if len(a) < 2 || a[0] != '-' || a == "--" {
			return nil
		}
		name, value, hasValue := strings.Cut(strings.TrimPrefix(a[1:], "-"), "=")
		f := c.Lookup(name)
		if f == nil {
			return nil // the flag package refused it
		}
		switch b, ok := f.Value.(interface{ IsBoolFlag() bool }); {
		case hasValue:
		case ok && b.IsBoolFlag():
			value = "true" // a bare bool flag
		case i+1 < len(args):
			i++
			value = args[i]
		}
		if first, ok := seen[name]; ok {
			return c.usagef("-%s is given twice, as %q and as %q; give each flag once", name, first, value)
		}
		seen[name] = value
	}
	return nil
}

// usageError is a command-line mistake: exit status 2.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

// inRange returns the usage error of command cmd for flag -name when n is
// not 1 to most.
func inRange(cmd, name string, n, most int) error {
	if n < 1 || n > most {
		return usageIn(cmd, "-%s is %d; want 1 to %d", name, n, most)
	}
	return nil
}

// usagef is a usage error of konvoy itself.
func usagef(format string, args ...any) error { return usageIn("konvoy", format, args...) }

// usageIn is a usage error of the command cmd ("konvoy", "konvoy plan").
func usageIn(cmd, format string, args ...any) error {
	return usageError{cmd + ": " + fmt.Sprintf(format, args...)}
}

// exitStatus prints err, if any, and returns the command's exit status: 0
// for none or a request for help, 2 for a usage error, 1 for anything else.
func exitStatus(err error, stderr io.Writer) int {
	var ue usageError
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
		return 0
	case errors.As(err, &ue):
		if ue.msg != "" {
			fmt.Fprintln(stderr, ue.msg)
		}
		return 2
	}
	fmt.Fprintln(stderr, report.CommandWords(err.Error(), report.UserText(err)...))
	return 1
}

// intList is a comma-separated list of whole numbers, each read as a
// decimal flag's value is (spaces around it allowed).
type intList []int

func (l *intList) String() string {
	var s []string
	for _, n := range *l {
		s = append(s, strconv.Itoa(n))
	}
	return strings.Join(s, ",")
}

func (l *intList) Set(v string) error {
	*l = nil
	fields := strings.Split(v, ",")
	for _, f := range fields {
		f = strings.TrimSpace(f)
		if f == "" {
			return fmt.Errorf("want whole numbers separated by commas")
		}
		n, err := decimalInt(f)
		if err != nil && len(fields) > 1 {
			return fmt.Errorf("%q: %w", f, err)
		} else if err != nil {
			return err
		}
		*l = append(*l, n)
	}
	return nil
}

// rangedList is the value of the intList flag -name of c, whose range c
// states (see wantRange): a number too large for an int is kept for c to
// refuse, as decimal keeps one.
type rangedList struct {
	l    *intList
	c    *command
	name string
}

func (r rangedList) String() string {
	if r.l == nil { // the flag package's zero Value
		return ""
	}
	return r.l.String()
}

func (r rangedList) Set(v string) error {
	err := r.l.Set(v)
	if tl := (tooLargeError{}); errors.As(err, &tl) {
		return r.c.keepTooLarge(r.name, tl.value)
	}
	if err == nil {
		delete(r.c.tooLarge, r.name) // a value given later wins (see command.lastWins)
	}
	return err
}

// stringList is a comma-separated list of names.
type stringList []string

func (l *stringList) String() string { return strings.Join(*l, ",") }

func (l *stringList) Set(v string) error {
	*l = strings.Split(v, ",")
	return nil
}

// IntVar defines an int flag, as the flag package's does, but read in
// decimal digits only (see decimal).
func (c *command) IntVar(p *int, name string, value int, usage string) {
	*p = value
	c.Var(decimal[int]{p, c, name}, name, usage)
}

// Int64Var defines an int64 flag read in decimal digits only.
func (c *command) Int64Var(p *int64, name string, value int64, usage string) {
	*p = value
	c.Var(decimal[int64]{p, c, name}, name, usage)
}

// Uint64Var defines a uint64 flag read in decimal digits only, whose
// range is its type's (see wantRange).
func (c *command) Uint64Var(p *uint64, name string, value uint64, usage string) {
	*p = value
	c.Var(decimal[uint64]{p, c, name}, name, usage)
	c.wantRange(name, fmt.Sprintf("0 to %d", uint64(math.MaxUint64)))
}

// BoolVar defines a bool flag, as the flag package's does (-name alone
// sets it), whose bad value, as konvoy serve's ?round=yes, is refused with
// what it wants, true or false, where the flag package says "parse error".
func (c *command) BoolVar(p *bool, name string, value bool, usage string) {
	*p = value
	c.Var((*boolean)(p), name, usage)
}

// boolean is a bool flag's value (see BoolVar).
type boolean bool

func (b *boolean) String() string { return strconv.FormatBool(bool(*b)) }

func (b *boolean) IsBoolFlag() bool { return true }

func (b *boolean) Set(s string) error {
	v, err := strconv.ParseBool(s)
	if err != nil {
		return errors.New("want true or false")
	}
	*b = boolean(v)
	return nil
}

// Float64Var defines a float64 flag, as the flag package's does, but one
// that refuses a number too small for a float64 ("1e-400"), which the
// flag package reads as 0 with no error: a rate, skew or share the user
// gave above 0 is never taken for 0.
func (c *command) Float64Var(p *float64, name string, value float64, usage string) {
	*p = value
	c.Var((*float)(p), name, usage)
}

// float is a float64 flag's value, read by floattext.ParseFloat.
type float float64

func (f *float) String() string { return strconv.FormatFloat(float64(*f), 'g', -1, 64) }

func (f *float) Set(s string) error {
	v, err := floattext.ParseFloat(s)
	if errors.Is(err, floattext.ErrTooSmall) {
		return err
	}
	switch {
	case errors.Is(err, strconv.ErrRange): // the flag package says "value out of range", with no range
		return fmt.Errorf("too large for a float64; want at most %g in size", math.MaxFloat64)
	case err != nil:
		return errors.New("want a number, such as 0.5, 2 or 1e6")
	}
	*f = float(v)
	return nil
}

// decimal is an integer flag's value, read as Go reads an integer
// literal in base 10, with underscores between digits, and none of the
// base prefixes the flag package's integers take: 010, which the flag
// package reads as 8, is an error rather than a number the user did not
// mean, as is 0x10. A value too large for N of a flag whose command states
// its range (see command.wantRange) is kept, as given, for the command to
// refuse (see command.parse); the flag package's error names no range.
type decimal[N int | int64 | uint64] struct {
	p    *N
	c    *command // nil for a value read outside a command's flags
	name string
}

// errNotDecimal is decimal's error for a number with a leading zero, as a
// number in another base has.
var errNotDecimal = errors.New("want a whole number in decimal digits, without a leading zero")

// String returns the value in decimal digits, "0" for the flag package's
// zero Value.
func (d decimal[N]) String() string {
	if d.p == nil {
		return "0"
	}
	return fmt.Sprint(*d.p)
}

// Set reads s into the flag.
func (d decimal[N]) Set(s string) error {
	if digits := strings.TrimLeft(s, "+-"); len(digits) > 1 && digits[0] == '0' {
		return errNotDecimal
	}
	var err error
	switch p := any(d.p).(type) {
	case *int:
		var v int64
		v, err = strconv.ParseInt(s, 0, strconv.IntSize)
		*p = int(v)
	case *int64:
		*p, err = strconv.ParseInt(s, 0, 64)
	case *uint64:
		*p, err = strconv.ParseUint(s, 0, 64)
	}
	if errors.Is(err, strconv.ErrRange) {
		return d.outOfRange(s)
	}
	if d.c != nil && err == nil {
		delete(d.c.tooLarge, d.name) // a value given later wins (see command.lastWins)
	}
	_, unsigned := any(d.p).(*uint64)
	switch {
	case err != nil && unsigned && strings.HasPrefix(s, "-"):
		return errors.New("want a whole number in decimal digits, 0 or more")
	case err != nil:
		return errors.New("want a whole number in decimal digits")
	}
	return nil
}

// errOutOfRange is a decimal flag's complaint about a number its type
// cannot hold.
var errOutOfRange = errors.New("value out of range")

// tooLargeError is errOutOfRange for the value in decimal digits that an
// integer type cannot hold.
type tooLargeError struct{ value string }

func (e tooLargeError) Error() string        { return errOutOfRange.Error() }
func (e tooLargeError) Is(target error) bool { return target == errOutOfRange }

// outOfRange is the error of s, a value in decimal digits that N cannot
// hold (see command.keepTooLarge).
func (d decimal[N]) outOfRange(s string) error {
	if d.c == nil {
		return tooLargeError{s}
	}
	return d.c.keepTooLarge(d.name, s)
}

// keepTooLarge keeps s, a value of the integer flag -name in decimal
// digits that its type cannot hold, for parse to refuse as beyond the
// flag's range, when the command states one (see wantRange), and returns
// nil; or returns its tooLargeError.
func (c *command) keepTooLarge(name, s string) error {
	if c.wants[name] == "" {
		return tooLargeError{s}
	}
	if c.tooLarge == nil {
		c.tooLarge = map[string]string{}
	}
	c.tooLarge[name] = s
	return nil
}

// firstKey returns the first of m's keys in order, "" when it has none.
func firstKey(m map[string]string) string {
	if len(m) == 0 {
		return ""
	}
	return slices.Min(slices.Collect(maps.Keys(m)))
}

// decimalInt reads s as an int flag's value is read (see decimal).
func decimalInt(s string) (int, error) {
	var n int
	err := decimal[int]{p: &n}.Set(s)
	return n, err
}

// DurationVar defines a time.Duration flag, as the flag package's does,
// but refusing a part below a nanosecond, which the flag package drops
// without a word (-unit 1.5ns would be 1ns, and 0.5ns would be 0).
func (c *command) DurationVar(p *time.Duration, name string, value time.Duration, usage string) {
	*p = value
	c.Var((*exactDuration)(p), name, usage)
}

// wantDuration is what a duration flag's value written badly is refused
// with.
const wantDuration = "want a duration with a unit, such as 500us, 10ms or 1.5s (units ns, us, ms, s, m, h)"

// exactDuration is a duration flag's value, read by duration.Parse.
type exactDuration time.Duration

func (d *exactDuration) String() string { return (*time.Duration)(d).String() }

func (d *exactDuration) Set(s string) error {
	v, err := duration.Parse(s)
	if err != nil {
		if _, werr := time.ParseDuration(s); werr != nil && !errors.Is(err, duration.ErrRange) {
			return errors.New(wantDuration) // time's own error names no unit
		}
		return err
	}
	*d = exactDuration(v)
	return nil
}
