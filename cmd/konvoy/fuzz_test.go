package main

import (
	"errors"
	"flag"
	"io"
	"slices"
	"strings"
	"testing"
)

// fuzzSeeds are command lines, one argument a line, that have crashed the
// command or come near: huge counts, counts out of range, odd values.
var fuzzSeeds = []string{
	"",
	"-consumers\n10000000",
	"-consumers\n2147483647\n-policy\nall",
	"-consumers\n2147483648",
	"-consumers\n99999999999999999999",
	"-consumers\n0,1,-3",
	"-partitions\n99999999999999",
	"-partitions\n2147483647",
	"-layouts\npartitioned:99999999999999\n-events\nx.csv",
	"-events\nx.csv\n-layouts\nall\n-partitions\n2147483647\n-consumers\n1,2147483647",
	"-peak\nNaN",
	"-peak\n1e309",
	"-plot\n",
	"plan\n-consumers\n99999999",
	"plan\n-max-consumers\n2147483647\n-policy\nall",
	"plan\n-max-partitions\n65536",
	"plan\n-partitions\n2147483647\n-layouts\nall",
	"plan\n-round-time\n-1ns",
	"plan\n-peak\n+Inf",
	"plan\n-collision\nNaN",
	"gen\n-lines\n2147483647\n-line-skew\n1\n-events\n10",
	"gen\n-keys\n2147483647\n-key-skew\n1\n-events\n10",
	"gen\n-events\n-1",
	"gen\n-duration\nlognormal:700,50",
	"-events\n-\n-unit\n-1s",
	"-events\nx.csv\n-max-backlog\n-1",
	"-max-backlog\n5",
	"plan\n-events\n-\n-max-backlog\n99999999999999999999",
	"-h",
}

// The command's argument parsing never panics, whatever the arguments, and
// answers a bad command line as a usage error (exit status 2) or a request
// for help (0). A command line it accepts that needs no file, no standard
// input and no output directory, and generates nothing, is run whole on
// the lesson: it must succeed.
func FuzzArguments(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		var args []string
		if line != "" {
			args = strings.Split(line, "\n")
		}
		var err error
		switch {
		case len(args) > 0 && args[0] == "gen":
			_, _, err = parseGen(args[1:], io.Discard)
		case len(args) > 0 && args[0] == "plan":
			var opt planOptions
			opt, err = parsePlan(args[1:], io.Discard)
			if err == nil && opt.events == "" {
				runWhole(t, args)
			}
		default:
			var opt options
			opt, err = parse(args, io.Discard)
			if err == nil && opt.events == "" && opt.plot == "" {
				runWhole(t, args)
			}
		}
		var ue usageError
		if err != nil && !errors.As(err, &ue) && !errors.Is(err, flag.ErrHelp) {
			t.Fatalf("%q: %v; want a usage error or help", args, err)
		}
	})
}

// runWhole runs the command on args, which parse accepted, and fails unless
// it succeeds.
func runWhole(t *testing.T, args []string) {
	if slices.Contains(args, "-h") || slices.Contains(args, "-help") || slices.Contains(args, "--help") {
		return
	}
	if out, errOut, status := runCommand(args...); status != 0 || out == "" {
		t.Fatalf("%q: status %d, stderr %q; want 0 and a report", args, status, errOut)
	}
}
