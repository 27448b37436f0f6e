package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync"
	"sync/atomic"
	"syscall"
)

// temps are the temporary files the command has made and not yet removed,
// by path, for an interrupt to remove. The interrupt handler takes the lock
// and never gives it back, so that once it has removed the files no new one
// is made before the process exits.
var temps struct {
	sync.Mutex
	paths map[string]bool
}

// interrupted is set once an interrupt is being handled; from then on
// nothing more is written to standard output.
var interrupted atomic.Bool

// createTemp makes a temporary file as os.CreateTemp does and records it,
// so that an interrupt removes it; removeTemp removes it.
func createTemp(dir, pattern string) (*os.File, error) {
	temps.Lock()
	defer temps.Unlock()
	f, err := os.CreateTemp(dir, pattern)
	if err != nil {
		return nil, err
	}
	if temps.paths == nil {
		temps.paths = make(map[string]bool)
	}
	temps.paths[f.Name()] = true
	return f, nil
}

// removeTemp removes the temporary file at path, made by createTemp, and
// forgets it.
func removeTemp(path string) error {
	temps.Lock()
	defer temps.Unlock()
	delete(temps.paths, path)
	return os.Remove(path)
}

// forgetTemp forgets the temporary file at path, made by createTemp, which
// has been renamed to stay.
func forgetTemp(path string) {
	temps.Lock()
	defer temps.Unlock()
	delete(temps.paths, path)
}

// errInterrupted is what a write to standard output returns once an
// interrupt is being handled.
var errInterrupted = errors.New("interrupted")

// stdoutWriter writes to w until an interrupt comes; a write begun before
// it may finish, none begins after it.
type stdoutWriter struct{ w io.Writer }

func (s stdoutWriter) Write(p []byte) (int, error) {
	if interrupted.Load() {
		return 0, errInterrupted
	}
	return s.w.Write(p)
}

// interruptStatus is the exit status of a command stopped by sig: 128 plus
// the signal's number, as shells report it (130 for SIGINT, 143 for
// SIGTERM).
func interruptStatus(sig os.Signal) int {
	if s, ok := sig.(syscall.Signal); ok {
		return 128 + int(s)
	}
	return 1
}

// exitOnInterrupt makes SIGINT and SIGTERM remove the temporary files of
// the command named name (a sweep's spool has no name to remove: see
// konvoy.Sweep), say so on stderr and exit with interruptStatus, printing
// nothing more on standard output.
func exitOnInterrupt(name string, stderr io.Writer) {
	c := make(chan os.Signal, 1)
	signal.Notify(c, os.Interrupt, syscall.SIGTERM)
	go func() {
		sig := <-c
		interrupted.Store(true)
		temps.Lock() // for good
		for path := range temps.paths {
			os.Remove(path)
		}
		fmt.Fprintf(stderr, "%s: %v: stopped\n", name, sig)
		os.Exit(interruptStatus(sig))
	}()
}
