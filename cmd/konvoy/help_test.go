package main

import (
	"strings"
	"testing"
)

// konvoy help prints what -h prints, for konvoy or for a subcommand, with
// exit status 0; a name that is no subcommand is a usage error that lists
// them.
func TestHelpPrintsTheUsageThatDashHPrints(t *testing.T) {
	for _, tt := range []struct{ help, dashH []string }{
		{[]string{"help"}, []string{"-h"}},
		{[]string{"help", "help"}, []string{"-h"}},
		{[]string{"help", "-h"}, []string{"-h"}},
		{[]string{"help", "--help"}, []string{"-h"}},
		{[]string{"help", "gen"}, []string{"gen", "-h"}},
		{[]string{"help", "plan"}, []string{"plan", "-h"}},
		{[]string{"help", "replay"}, []string{"replay", "-h"}},
		{[]string{"help", "serve"}, []string{"serve", "-h"}},
	} {
		out, errOut, status := runCommand(tt.help...)
		_, want, _ := runCommand(tt.dashH...)
		if status != 0 || out != "" || errOut != want || !strings.HasPrefix(errOut, "usage: konvoy") {
			t.Errorf("%q: status %d, stdout %q, stderr %q; want 0, nothing, and what %q prints:\n%s", tt.help, status, out, errOut, tt.dashH, want)
		}
	}
}

func TestHelpOfNoSubcommandIsAUsageError(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"help", "nope"}, `konvoy help: unknown command "nope"; want gen, plan, replay or serve` + "\n"},
		{[]string{"help", "plann"}, `konvoy help: unknown command "plann"; want gen, plan, replay or serve; did you mean konvoy help plan?` + "\n"},
		{[]string{"help", "hel"}, `konvoy help: unknown command "hel"; want gen, plan, replay or serve` + "\n"},
		{[]string{"help", "plan", "x"}, `konvoy help: unexpected argument "x"; want konvoy help or konvoy help COMMAND` + "\n"},
	} {
		out, errOut, status := runCommand(tt.args...)
		if status != 2 || out != "" || errOut != tt.want {
			t.Errorf("%q: status %d, stdout %q, stderr %q; want 2, nothing, and %q", tt.args, status, out, errOut, tt.want)
		}
	}
}

// An argument konvoy does not take that looks like a subcommand gets a
// hint: a misspelt one at the start is named, and one after flags is told
// to come first. Another at the start is told, if it looks like a file's
// name, to read it with -events, else the subcommands there are; others
// get no hint. (An unknown word at the start had none, where konvoy
// help names the subcommands; found by a review.)
func TestAnArgumentLikeASubcommandGetsAHint(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string // the error's first line
	}{
		{[]string{"plann"}, `konvoy: unexpected argument "plann"; did you mean konvoy plan?`},
		{[]string{"plans"}, `konvoy: unexpected argument "plans"; did you mean konvoy plan?`},
		{[]string{"reply"}, `konvoy: unexpected argument "reply"; did you mean konvoy replay?`},
		{[]string{"repaly"}, `konvoy: unexpected argument "repaly"; did you mean konvoy replay?`}, // two letters from a name of six
		{[]string{"servers"}, `konvoy: unexpected argument "servers"; did you mean konvoy serve?`},
		{[]string{"hlep"}, `konvoy: unexpected argument "hlep"; want a command first (gen, plan, replay or serve; konvoy help lists them), or flags alone`}, // two from a name of four: too far
		{[]string{"hel"}, `konvoy: unexpected argument "hel"; did you mean konvoy help?`},
		{[]string{"gem"}, `konvoy: unexpected argument "gem"; did you mean konvoy gen?`},
		{[]string{"trace.csv"}, `konvoy: unexpected argument "trace.csv"; a trace is read with -events FILE (konvoy -events trace.csv)`},
		{[]string{"./t"}, `konvoy: unexpected argument "./t"; a trace is read with -events FILE (konvoy -events ./t)`},
		{[]string{"extra"}, `konvoy: unexpected argument "extra"; want a command first (gen, plan, replay or serve; konvoy help lists them), or flags alone`},
		{[]string{"-consumers", "2", "plan"}, `konvoy: unexpected argument "plan"; a subcommand comes first, before any flag or --`},
		{[]string{"-consumers", "2", "help"}, `konvoy: unexpected argument "help"; a subcommand comes first, before any flag or --`},
		{[]string{"-consumers", "2", "plann"}, `konvoy: unexpected argument "plann"`},
		{[]string{"--", "plan"}, `konvoy: unexpected argument "plan"; a subcommand comes first, before any flag or --`},
		{[]string{"plan", "plan"}, `konvoy plan: unexpected argument "plan"`}, // a subcommand's own errors get none
	} {
		out, errOut, status := runCommand(tt.args...)
		first, _, _ := strings.Cut(errOut, "\n")
		if status != 2 || out != "" || first != tt.want {
			t.Errorf("%q: status %d, stdout %q, stderr's first line %q; want 2, nothing, and %q", tt.args, status, out, first, tt.want)
		}
	}
}

// editDistance is the fewest insertions, deletions and substitutions
// between two strings: checked on pairs worked by hand.
func TestEditDistance(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"", "plan", 4}, {"plan", "", 4}, {"plan", "plan", 0},
		{"plann", "plan", 1}, {"pla", "plan", 1}, {"plen", "plan", 1},
		{"repaly", "replay", 2}, {"kitten", "sitting", 3}, {"hlep", "help", 2},
	} {
		if got := editDistance(tt.a, tt.b); got != tt.want {
			t.Errorf("editDistance(%q, %q) = %d; want %d", tt.a, tt.b, got, tt.want)
		}
	}
}
