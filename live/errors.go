package live

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/sirali-konvoy/konvoy"
)

// ErrClosed is returned by [Executor.Submit] once [Executor.Close] has been
// called, and by a second Close.
var ErrClosed = errors.New("live: executor closed")

// ErrGapsFull is wrapped by [Executor.Submit]'s error when the executor
// holds as many items as it may ([WithMaxHeld]) and every one of them not
// finished is held by the resequencer for a gap (with [WithOffsets], the
// rest finished above their partitions' committable offsets), with no
// Timeout to give gaps up (or one so long that submission time, in
// rounds, plus it passes the largest int: a time that never comes):
// nothing can make room but the steps the gaps wait for, which Submit
// would wait for room to take, for ever. A [WithResequencer] Timeout
// keeps gaps from filling the executor, and so, without WithOffsets, does
// a Capacity below WithMaxHeld.
var ErrGapsFull = errors.New("live: every item held waits for a gap")

// ItemError is the error of an item whose last attempt failed: its handler
// returned an error or panicked ([PanicError]), or, under
// [konvoy.VersionStamp], its version store returned one. It names the
// item by its submission number and the [konvoy.Event] it maps to.
type ItemError struct {
	// Seq is the item's submission number, from 0. (The executor counts
	// in 64 bits; under 32-bit int, Seq wraps past math.MaxInt32.)
	Seq int
	// Event is the event the item maps to, and Lane its lane, "" for none.
	Event konvoy.Event
	Lane  string
	// Attempts is how many times the item was tried, as [Retry.Attempts]
	// counts them: its handler called, or, under [konvoy.VersionStamp], an
	// attempt a [VersionReader]'s error ended before the handler (see
	// [VersionStore]). It is 0 for an item that a guard's runtime.Goexit
	// failed before its first attempt (see [ErrGoexit]).
	Attempts int
	// Err is the last attempt's error; a panic's is a *PanicError.
	Err error
}

// Error returns "live: item N (key "K", step S, lane "L"): A attempts:
// ERR", without the lane for an item in none, and "1 attempt" for one.
func (e *ItemError) Error() string {
	var b strings.Builder
	b.WriteString("live: item ")
	b.WriteString(strconv.Itoa(e.Seq))
	b.WriteString(" (key ")
	b.WriteString(strconv.Quote(e.Event.Key))
	b.WriteString(", step ")
	b.WriteString(strconv.Itoa(e.Event.Step))
	if e.Lane != "" {
		b.WriteString(", lane ")
		b.WriteString(strconv.Quote(e.Lane))
	}
	b.WriteString("): ")
	b.WriteString(strconv.Itoa(e.Attempts))
	if e.Attempts == 1 {
		b.WriteString(" attempt: ")
	} else {
		b.WriteString(" attempts: ")
	}
	b.WriteString(e.Err.Error())
	return b.String()
}

// Unwrap returns Err.
func (e *ItemError) Unwrap() error { return e.Err }

// ErrGoexit is the error of an item whose handler, guard or dead letter
// called runtime.Goexit (as t.FailNow does in a test): its consumer's
// goroutine ends, so the item fails at once, with no retry and no dead
// letter, and a new consumer takes the consumer's place.
var ErrGoexit = errors.New("live: runtime.Goexit called while the item ran")

// PanicError is a handler's or dead letter's panic, recovered: the value
// it panicked with and the stack it panicked on.
type PanicError struct {
	Value any
	Stack []byte
}

// Error returns "panic: VALUE".
func (e *PanicError) Error() string { return fmt.Sprintf("panic: %v", e.Value) }

// Unwrap returns the value panicked with when it is an error.
func (e *PanicError) Unwrap() error {
	err, _ := e.Value.(error)
	return err
}

// UnrunError is the error [Executor.Close] returns for the items it held
// that never ran to their end: those that never started, because a
// failure stopped the executor or its context ended first, those waiting
// for a retry, those whose handler failed after Close's context ended, cut
// short, and, under the resequencer, those still held for a gap. Err is
// the context's error when Close's context ended before the executor
// drained (even where an earlier failure had stopped it); otherwise the
// failures that stopped the executor; otherwise [ErrNeverApplied], for
// items held for a gap.
type UnrunError[T any] struct {
	// Items are the items that never ran to their end, in submission
	// order.
	Items []T
	Err   error
}

// Error returns "live: N items not run: ERR" ("1 item not run" for one).
func (e *UnrunError[T]) Error() string {
	noun := " items not run: "
	if len(e.Items) == 1 {
		noun = " item not run: "
	}
	return "live: " + strconv.Itoa(len(e.Items)) + noun + e.Err.Error()
}

// Unwrap returns Err.
func (e *UnrunError[T]) Unwrap() error { return e.Err }
