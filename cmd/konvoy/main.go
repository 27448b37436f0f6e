// Command konvoy tells what per-key ordering costs an event pipeline.
//
// With no arguments it prints the lesson report: the lesson "Sıralı Konvoy"
// run through konvoy's four layouts, the derived figures, rounds by consumer
// count and the capacity table.
//
// Usage:
//
//	konvoy [-consumers N]
//
// Exit status 0 on success, 1 on a failed run, 2 on a usage error.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/sirali-konvoy/konvoy"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run is the whole command, with its streams passed in so that tests can
// call it; it returns the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("konvoy", flag.ContinueOnError)
	fs.SetOutput(stderr)
	consumers := fs.Int("consumers", konvoy.LessonConsumers, "consumers of the first table and the capacity `N`")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: konvoy [-consumers N]")
		fmt.Fprintln(fs.Output(), "Prints the lesson report: the lesson's events under every layout.")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "konvoy: unexpected argument %q\n", fs.Arg(0))
		fs.Usage()
		return 2
	}
	if *consumers < 1 {
		fmt.Fprintf(stderr, "konvoy: -consumers is %d; want at least 1\n", *consumers)
		return 2
	}
	out, err := lessonReport(konvoy.LessonEvents(), *consumers)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	if _, err := io.WriteString(stdout, out); err != nil {
		fmt.Fprintln(stderr, "konvoy:", err)
		return 1
	}
	return 0
}
