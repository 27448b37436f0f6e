package konvoy

import (
	"errors"
	"strconv"
	"strings"
	"unicode/utf8"
)

// EventError is the error of an event a run cannot take: an invalid field,
// or a run that outgrows a limit at that event. [Simulate], [Simulator.Add],
// [Sweep], [PlanConsumers] and [PartitionsFor] return it wrapped in an error
// whose message adds the "konvoy: " prefix; [errors.As] finds it, and its own
// message, which has no prefix, reads well after a caller's FILE:LINE.
type EventError struct {
	// Index is the event's input index, from 0.
	Index int
	// Key is the event's key, "" when the key is what is missing.
	Key string
	// Field is the field at fault: "Key", "Line", "Step", "Duration",
	// "Arrival" or "Partition"; "" when the run, not a field, is at fault,
	// as Err says.
	Field string
	// Value is the field's value, for Step, Duration, Arrival and
	// Partition; 0 for
	// Key and Line, which are at fault only when empty.
	Value int
	// Want says what the field needed, or, when Field is "", what the run
	// holds against its limit.
	Want string
	// Err is the sentinel a caller can branch on with [errors.Is]:
	// [ErrOrder], [ErrBacklog], [ErrMemory], [ErrTooManyKeys] or
	// [ErrScheduleFull]; nil for a field out of its range.
	Err error
}

// The sentinels of [EventError].Err, for [errors.Is].
var (
	// ErrOrder is wrapped by the error of an event that arrives before the
	// event before it: a stream must come in arrival order.
	ErrOrder = errors.New("events out of arrival order")
	// ErrBacklog is wrapped by the error of a run that would hold more
	// events than [WithMaxBacklog] allows.
	ErrBacklog = errors.New("backlog over its limit")
	// ErrMemory is wrapped by the error of a run of a [Sweep] that alone
	// takes more memory, for its keys, lanes and backlog, than
	// [WithMaxMemory] gives the sweep.
	ErrMemory = errors.New("run over the sweep's memory")
	// ErrTooManyKeys is wrapped by the error of an event whose key is one
	// more than a simulator holds.
	ErrTooManyKeys = errors.New("too many distinct keys")
	// ErrScheduleFull is wrapped by the error of an event beyond the limit
	// of [WithSchedule].
	ErrScheduleFull = errors.New("schedule limit reached")
)

// Error returns "event I (key K): F is V; want W", or, when Field is "",
// "event I (key K): ERR: W"; the key's part is left out when Key is empty.
// K is the key quoted, or, for a key of more than maxShownKey bytes, its
// first and last bytes quoted around "…", then its length: "(key
// "order-…-17", 4096 bytes)". Key holds it whole.
func (e *EventError) Error() string {
	var b strings.Builder
	b.WriteString("event ")
	b.WriteString(strconv.Itoa(e.Index))
	if e.Key != "" {
		b.WriteString(" (key ")
		b.WriteString(shownKey(e.Key))
		b.WriteString(")")
	}
	b.WriteString(": ")
	switch e.Field {
	case "":
		if e.Err != nil {
			b.WriteString(e.Err.Error())
			b.WriteString(": ")
		}
	case "Key", "Line":
		b.WriteString(e.Field)
		b.WriteString(" is empty; want ")
	default:
		b.WriteString(e.Field)
		b.WriteString(" is ")
		b.WriteString(strconv.Itoa(e.Value))
		b.WriteString("; want ")
	}
	b.WriteString(e.Want)
	return b.String()
}

// Unwrap returns Err.
func (e *EventError) Unwrap() error { return e.Err }

// maxShownKey is the longest key an error quotes whole, in bytes.
const maxShownKey = 80

// shownKey returns key quoted for an error, its middle cut when it is
// longer than maxShownKey bytes: two keys that differ at either end still
// read apart, and a key of kilobytes does not fill the terminal. A cut
// inside a rune moves to its start, at most utf8.UTFMax-1 bytes: a key
// that is not UTF-8, whose bytes near a cut are no rune's start, is cut
// there all the same, its bytes quoted as escapes, rather than shown
// without its head or tail.
func shownKey(key string) string {
	if len(key) <= maxShownKey {
		return strconv.Quote(key)
	}
	head, tail := maxShownKey/2, len(key)-maxShownKey/4
	for i := 0; i < utf8.UTFMax-1 && !utf8.RuneStart(key[head]); i++ {
		head--
	}
	for i := 0; i < utf8.UTFMax-1 && !utf8.RuneStart(key[tail]); i++ {
		tail++
	}
	return strconv.Quote(key[:head]+"…"+key[tail:]) + ", " + strconv.Itoa(len(key)) + " bytes"
}

// prefixed is a library error as the caller gets it: "konvoy: " before the
// message of the error it wraps, which [errors.As] and [errors.Is] see.
type prefixed struct{ err error }

func (p prefixed) Error() string { return "konvoy: " + p.err.Error() }
func (p prefixed) Unwrap() error { return p.err }

// configError is the error of configs[index] of a [Sweep], a
// configuration no simulator can be made of, err (NewSimulator's), which
// [errors.As] and [errors.Is] see: "konvoy: Sweep: configs[2]: " before
// err's message without its own "konvoy: ".
type configError struct {
	index int
	err   error
}

func (c configError) Error() string {
	return "konvoy: Sweep: configs[" + strconv.Itoa(c.index) + "]: " + strings.TrimPrefix(c.err.Error(), "konvoy: ")
}
func (c configError) Unwrap() error { return c.err }

// eventError returns the error of event i, of key key, for a caller.
func eventError(i int, key, field string, value int, want string, sentinel error) error {
	return prefixed{&EventError{Index: i, Key: key, Field: field, Value: value, Want: want, Err: sentinel}}
}

// counted is "1 one" or "n many", as a message writes a count.
func counted(n int, one, many string) string { return amounted(strconv.Itoa(n), one, many) }

// amounted is amount, a number already written as text, and one or many
// after it: "1 round", or "0.5 rounds".
func amounted(amount, one, many string) string {
	if amount == "1" {
		return "1 " + one
	}
	return amount + " " + many
}
