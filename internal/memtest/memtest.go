// Package memtest measures what code allocates, for the tests that bound
// konvoy's memory without timing anything.
package memtest

import (
	"flag"
	"os"
	"os/exec"
	"regexp"
	"runtime"
	"strings"
	"testing"
)

// Allocated returns the bytes f allocates, collected or not: an upper bound
// on what f holds at its peak. It collects garbage first, and counts what
// every goroutine allocates meanwhile, so it means little while others run:
// a test that calls it runs [Alone].
func Allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// aloneEnv names, in the environment of a test binary that Alone runs
// again, the one test it runs.
const aloneEnv = "KONVOY_MEMTEST_ALONE"

// passedOn are the testing flags a test run alone keeps; every flag of
// the tests' own (such as -konvoy.long) is kept too.
var passedOn = map[string]bool{"test.v": true, "test.short": true, "test.timeout": true, "test.failfast": true}

// Alone runs test t alone in a process of its own, the test binary run
// again for t only, so that what the process allocates and holds is t's
// alone, and so that t may change the process's environment: it returns
// true there, and t goes on. In the test binary's own process, Alone marks
// t parallel, runs that process, reports its output (when it fails, or
// under -test.v) and failure as t's, and returns false: t returns. Under
// coverage it returns true at once, and t runs in the process whose
// coverage is counted, one test at a time as t.Setenv requires. Call it
// first thing in a top-level test:
//
//	if !memtest.Alone(t) {
//		return
//	}
func Alone(t *testing.T) bool {
	t.Helper()
	if os.Getenv(aloneEnv) == t.Name() || testing.CoverMode() != "" {
		return true
	}
	t.Parallel()
	self, err := os.Executable()
	if err != nil {
		t.Fatalf("running %s alone: %v", t.Name(), err)
	}
	args := []string{"-test.run=^" + regexp.QuoteMeta(t.Name()) + "$", "-test.count=1"}
	flag.Visit(func(f *flag.Flag) {
		if passedOn[f.Name] || !strings.HasPrefix(f.Name, "test.") {
			args = append(args, "-"+f.Name+"="+f.Value.String())
		}
	})
	args = append(args, "-test.v=true") // so that it says it ran t
	cmd := exec.Command(self, args...)
	cmd.Env = append(os.Environ(), aloneEnv+"="+t.Name())
	out, err := cmd.CombinedOutput()
	switch {
	case err != nil:
		t.Fatalf("%s, run alone: %v:\n%s", t.Name(), err, out)
	case strings.Contains(string(out), "--- SKIP: "+t.Name()+" ("):
		t.Skipf("%s, run alone, skipped:\n%s", t.Name(), out)
	case !strings.Contains(string(out), "--- PASS: "+t.Name()+" ("):
		t.Fatalf("%s, run alone, did not run:\n%s", t.Name(), out)
	case testing.Verbose():
		t.Logf("%s, run alone:\n%s", t.Name(), out)
	}
	return false
}
