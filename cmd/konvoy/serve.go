package main

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"

	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/internal/runs"
	"github.com/sirali-konvoy/konvoy/internal/serve"
)

// runServe is konvoy serve: the lesson's report, or the trace's, as a page
// on addr until SIGINT or SIGTERM, then a graceful shutdown (package serve).
func runServe(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	var addr, events string
	maxUpload := serve.DefaultMaxUpload
	c := newCommand("konvoy serve", stderr, "usage: konvoy serve [-addr HOST:PORT] [-max-upload SIZE] [-events FILE [trace flags]]",
		"Serves the lesson's report, or the trace's, as a page whose controls are konvoy's flags, with an upload form for a trace",
		"and GET /api/report, which answers what konvoy -format json prints.")
	c.StringVar(&addr, "addr", "127.0.0.1:8080", "listen on `HOST:PORT` (127.0.0.1: this machine only; :8080 for every interface)")
	c.listenAddr(&addr, "addr", "HOST:PORT, such as 127.0.0.1:8080 (this machine only) or :8080 (every interface)")
	c.Func("max-upload", "the largest trace an upload may send, `SIZE` in bytes or with KiB, MiB, GiB or TiB, at most 1TiB (default 50000000, 50 MB)",
		func(v string) (err error) {
			maxUpload, err = parseSize(v)
			// Past the largest int is past 1TiB too, where int has 64 bits:
			// the limit is said, not the largest size parseSize reads.
			if err == nil && int64(maxUpload) > serve.MaxUploadLimit || err != nil && err != errSize && math.MaxInt > serve.MaxUploadLimit {
				err = errors.New("want at most 1TiB")
			}
			return err
		})
	c.StringVar(&events, "events", "", "serve the trace `FILE` (CSV or JSON Lines, .gz or not), read afresh for each request, instead of the lesson")
	c.traceFlags(&events)
	if err := c.parse(args); err != nil {
		return exitStatus(err, stderr)
	}
	if events == "-" {
		return exitStatus(c.usagef("-events -: the server reads its trace again for every request; name a file"), stderr)
	}
	if st, err := os.Stat(events); err == nil && st.Mode()&(fs.ModeNamedPipe|fs.ModeSocket|fs.ModeDevice) != 0 {
		// A second request would find it drained, or wait on it for ever.
		return exitStatus(c.usagef("-events %s: the server reads its trace again for every request; name a regular file, not a pipe or a device", events), stderr)
	}
	if events != "" { // read afresh for each request: a file the server cannot read now would fail every view
		if err := readable(events); err != nil {
			return exitStatus(fmt.Errorf("konvoy serve: %w", err), stderr)
		}
	}
	l, known := memoryLeft()
	fit, note := fitUpload(l.left, known, int64(maxUpload))
	if note != "" {
		fmt.Fprintln(stderr, note)
	}
	cfg := serveConfig(events, fit)
	cfg.MaxUploadLowered = note != ""
	c.Visit(func(f *flag.Flag) {
		if slices.Contains(serve.TraceFlags, f.Name) {
			cfg.EventsArgs = append(cfg.EventsArgs, "-"+f.Name+"="+f.Value.String())
		}
	})
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	err := serve.New(cfg).ListenAndServe(ctx, addr, func(url string) { fmt.Fprintf(stdout, "konvoy serve: %s (Ctrl-C stops it)\n", url) })
	if err != nil {
		fmt.Fprintln(stderr, "konvoy serve:", err)
		return 1
	}
	fmt.Fprintln(stderr, "konvoy serve: stopped")
	return 0
}

// readable returns an error naming path when the file there cannot be read
// now: it does not open, or it opens and its first byte cannot be read, as
// a directory's cannot.
func readable(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	if _, err := f.Read(make([]byte, 1)); err != nil && err != io.EOF {
		return fmt.Errorf("%w; want a trace file", err)
	}
	return nil
}

// serveConfig is the server of the trace events ("" for the lesson): the
// runs of a request are those konvoy -format json makes of its flags, but
// for -layouts all, which always counts recorded in when the trace has
// partitions: the server opens its trace afresh for each pass (an upload
// from memory), so no trace of its streams, and an upload's name, which a
// request chose, names no file of the server's to look at.
func serveConfig(events string, maxUpload int64) serve.Config {
	l, known := memoryLeft()
	most, limit := serveLimits(l.left, known, maxUpload)
	return serve.Config{Events: events, MaxUpload: maxUpload, MaxMemory: limit, Runs: func(args []string) (runs.Options, error) {
		var msg bytes.Buffer
		opt, err := parseArgs(append([]string{"-format", "json"}, args...), &msg, true) // a view's flags win over the served file's
		if ue := (usageError{}); errors.As(err, &ue) && ue.msg == "" {                  // the flag package said why
			err = errors.New(strings.SplitN(msg.String(), "\n", 2)[0])
		}
		o := opt.runsOf(false)
		if most > 0 {
			o.MaxMemory = min(cmp.Or(o.MaxMemory, konvoy.DefaultMaxMemory), most)
		}
		return o, err
	}}
}

// serveLimits returns the most memory a request's runs may take (see
// serveMemory), and the server's garbage collector limit (serve's
// Config.MaxMemory): MaxRunning times that and the uploads' room
// (serve.UploadRoom), or 0 with no bound of its own; left, known as
// serveMemory takes them, and maxUpload the server's -max-upload. Under
// ulimit -v 4000000, eight uploads of 48 MB and two views of every layout
// and policy ended the server in Go's fatal out-of-memory error now and
// then, and under 2500000 always, the uploads outside the runs' share; so
// left, it answers both (503, after runTimeout).
func serveLimits(left int64, known bool, maxUpload int64) (most, limit int) {
	room := uploadRoom(left, known, maxUpload)
	most = serveMemory(left-room, known)
	if most > 0 { // in int64: under 32-bit int, the sum may pass the largest int, which then bounds it
		limit = int(min(int64(most)*serve.MaxRunning+room, math.MaxInt))
	}
	return most, limit
}

// uploadRoom returns the room serveLimits leaves the uploads:
// serve.UploadRoom(maxUpload), at most half of left when a limit is
// known, so that a -max-upload near what the server has does not leave
// its runs the 1 MiB floor (the command says so at start: see
// fitUpload).
func uploadRoom(left int64, known bool, maxUpload int64) int64 {
	room := serve.UploadRoom(maxUpload)
	if known {
		room = min(room, max(left/2, 0))
	}
	return room
}

// fitUpload returns the largest upload the server takes, maxUpload
// (-max-upload, 0 for serve.DefaultMaxUpload) or less: when a limit is
// known (see memoryLeft) and the uploads the server keeps and reads at
// once, serve.UploadRoom, would take more than half of left, the largest
// whose room fits in that half, at least 1 byte, with the line konvoy
// serve prints at start to say so; otherwise maxUpload and "". Under
// ulimit -v 900000 an upload of 45 MB, within the default, ended the
// server in Go's fatal out-of-memory error, where it now gets 413 (found
// by a review: the line said uploads "may end the server", and it let
// them).
func fitUpload(left int64, known bool, maxUpload int64) (int64, string) {
	want := cmp.Or(maxUpload, serve.DefaultMaxUpload)
	room := uploadRoom(left, known, want)
	if room >= serve.UploadRoom(want) {
		return want, ""
	}
	fit := max(serve.MaxUploadIn(room), 1)
	return fit, fmt.Sprintf("konvoy serve: -max-upload %d lowered to %d bytes: the uploads the server keeps and reads at once, %d of them, may take half of the %d bytes of memory it has, and no more",
		want, fit, serve.UploadRoom(want)/want, left)
}

// serveMemory returns the most memory a request's runs may take when
// ulimit -v, or the server's cgroup, leaves it left bytes of address space
// or memory at start, less the uploads' room (serve.UploadRoom), which
// the runs' bound leaves them (known false: no limit; see memoryLeft): a
// serve.MaxRunning-th of serveShare of it, rounded down to MiB, at least
// 1 MiB; or 0, no bound of its own, when that is not below
// konvoy.DefaultMaxMemory. A
// request's runs that would not fit then fail with konvoy.ErrMemory, as
// they do past 1 GiB, rather than end the server with the Go runtime's
// fatal out-of-memory error.
func serveMemory(left int64, known bool) int {
	most := left / 100 * serveShare / serve.MaxRunning &^ (1<<20 - 1)
	if !known || most >= konvoy.DefaultMaxMemory {
		return 0
	}
	return int(max(most, 1<<20))
}

// serveShare is the share of what ulimit -v or the cgroup leaves (see
// memoryLeft), in hundredths, that the runs of konvoy serve's requests
// take together, and the garbage collector's limit: less than the
// command's addressShare, as the server holds more beside its runs.
// Measured under ulimit -v 2500000 (some 0.9 GB left at start), a request
// of every layout and policy on 2,000,000 keys: at 85 the server ended in
// the Go runtime's fatal out-of-memory error; at 60 the request, and two
// at once, failed with ErrMemory, and the server went on.
const serveShare = 60
