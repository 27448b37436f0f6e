package serve

import (
	"flag"
	"io"
	"strings"
	"testing"
)

// TestTheCommandLineOfABooleanFlagRuns checks that the command line the
// page shows under "The same for scripts", which command writes as what
// prints the API's answer, is one the command takes. konvoy's flags are
// read by package flag, where a boolean flag (reject-old, a RunFlag;
// round, a TraceFlag) takes its value only as -name=value, so command
// writes every flag so: "-name true" would leave "true" as an argument.
func TestTheCommandLineOfABooleanFlagRuns(t *testing.T) {
	line := command([]string{"-layouts=resequencer", "-reject-old=true"})
	fs := flag.NewFlagSet("konvoy", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.String("format", "text", "")
	fs.String("layouts", "", "")
	rejectOld := fs.Bool("reject-old", false, "")
	args := strings.Fields(line)[1:] // no argument here needs quotes
	if err := fs.Parse(args); err != nil || fs.NArg() != 0 || !*rejectOld {
		t.Errorf("the page shows %q; package flag reads it as -reject-old=%v with the arguments %q left over (err %v); want -reject-old=true and none left",
			line, *rejectOld, fs.Args(), err)
	}
}

// TestTheCommandLineGivesEachFlagOnce checks that command writes a flag
// its arguments give twice, a served file's and then a view's, once, with
// the last value, the one the API takes, where it stands last: konvoy
// refuses a flag given twice, so that the page showed a command that
// does not run (found by a review).
func TestTheCommandLineGivesEachFlagOnce(t *testing.T) {
	line := command([]string{"-events=d.csv", "-duration-model=uniform:1,5", "-seed=3", "-duration-model=fixed:2", "-layouts=all"})
	if want := "konvoy -format=json -events=d.csv -seed=3 -duration-model=fixed:2 -layouts=all"; line != want {
		t.Errorf("command is %q; want %q", line, want)
	}
}
