package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
)

// parseFlags parses args into fs for the command called name ("konvoy",
// "konvoy plan", "konvoy gen") and returns the flags given. Its errors are
// flag.ErrHelp or usageError: the flag package has already printed why, and
// an argument left over is named.
func parseFlags(fs *flag.FlagSet, args []string, name string, stderr io.Writer) (map[string]bool, error) {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil, err
		}
		return nil, usageError{}
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "%s: unexpected argument %q\n", name, fs.Arg(0))
		fs.Usage()
		return nil, usageError{}
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	return set, nil
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
	fmt.Fprintln(stderr, err)
	return 1
}
