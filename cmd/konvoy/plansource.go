package main

import (
	"fmt"
	"io"
	"iter"
	"os"
	"reflect"
	"strings"
	"sync"

	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/eventlog"
	"github.com/sirali-konvoy/konvoy/lesson"
)

// planHeldBytes is the most memory konvoy plan spends holding a trace's
// events: 56 bytes an event on 64-bit platforms, and the bytes of each
// distinct key and line once. A larger trace is read again for every pass.
// A variable, so that tests can take the longer way.
var planHeldBytes = 64 << 20

// heldChunk is how many events konvoy plan holds in one slice: held events
// are never copied as they grow, so holding costs what it holds.
const heldChunk = 4096

// planSource is the trace konvoy plan answers for, which the planner ranges
// over many times: the lesson's events, a trace that fits in planHeldBytes
// held in memory, or a longer trace that every pass reads again from
// its file, in memory that grows with its keys, not its events. Standard
// input, which can be read only once, is first copied to a temporary file,
// which close removes.
type planSource struct {
	name    string           // as the report and its messages name the trace
	lesson  bool             // the events are the lesson's
	held    [][]konvoy.Event // the events, in chunks, when held in memory
	path    string           // the file each pass reads, when held is nil
	reader  eventlog.Reader
	spilled bool // path is a temporary copy of standard input

	mu  sync.Mutex
	err error // the first error of a pass after the check

	// What check counted on the first pass.
	stats       eventlog.Stats
	work        int
	rounded     int
	lastArrival int // the last event's arrival: 0 for a batch
}

// lessonSource is the lesson's twenty events.
func lessonSource() *planSource {
	src := &planSource{name: `the lesson "Sıralı Konvoy"`, lesson: true, held: [][]konvoy.Event{lesson.Events()}}
	for _, e := range src.held[0] {
		src.stats.Add(e)
		src.work += e.Duration
	}
	return src
}

// openSource returns the source of the trace r names, copying standard input
// to a temporary file when r names it ("-"). It reads nothing else yet.
func openSource(r eventlog.Reader, stdin io.Reader) (*planSource, error) {
	src := &planSource{name: r.Name, path: r.Name, reader: r}
	if r.Name != "-" {
		return src, nil
	}
	src.name = "<stdin>"
	f, err := createTemp("", "konvoy-plan-*")
	if err != nil {
		return nil, fmt.Errorf("konvoy plan: a copy of standard input: %w", err)
	}
	src.path, src.spilled = f.Name(), true
	_, err = io.Copy(f, stdin)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		src.close()
		return nil, fmt.Errorf("konvoy plan: a copy of standard input: %w", err)
	}
	return src, nil
}

// close removes the copy of standard input, if any.
func (s *planSource) close() {
	if s.spilled {
		removeTemp(s.path)
		s.spilled = false
	}
}

// decoder opens the trace afresh. The caller closes the returned closer.
func (s *planSource) decoder() (*eventlog.Decoder, io.Closer, error) {
	f, err := os.Open(s.path)
	if err != nil {
		return nil, nil, fmt.Errorf("konvoy plan: %w", err)
	}
	src, err := eventlog.Decompress(f)
	if err != nil {
		f.Close()
		return nil, nil, fmt.Errorf("%s: %w", s.name, err)
	}
	dec, err := eventlog.NewDecoder(src, s.reader)
	if err != nil {
		f.Close()
		return nil, nil, err // checked by parsePlan already
	}
	return dec, f, nil
}

// check reads the whole trace once, before any answer is worked out, and
// returns its first problem as FILE:LINE and what was wrong: a bad record,
// an event konvoy cannot simulate, or an event without a line when a layout
// needs one (needsLine; the line column is named lineColumn). It counts the
// trace's events, keys, lines, ordered events and work on the way, and holds
// the events while they fit in planHeldBytes, each distinct key and line
// held once.
func (s *planSource) check(needsLine bool, lineColumn string) error {
	if s.lesson {
		return nil
	}
	dec, f, err := s.decoder()
	if err != nil {
		return err
	}
	defer f.Close()
	sim, err := konvoy.NewSimulator(konvoy.Free, 1)
	if err != nil {
		return err
	}
	h := holder{budget: planHeldBytes}
	for e, err := range dec.All() {
		if err != nil {
			return err
		}
		if needsLine && e.Line == "" {
			return &eventlog.Error{File: s.name, Line: dec.Line(), Field: lineColumn, Value: e.Line,
				Want: "want a line for layout line-convoy; leave line-convoy out of -layouts for a trace without lines"}
		}
		if err := sim.Add(e); err != nil {
			return fmt.Errorf("%s:%d: %s", s.name, dec.Line(), strings.TrimPrefix(err.Error(), "konvoy: "))
		}
		s.stats.Add(e)
		s.work += e.Duration
		s.lastArrival = e.Arrival
		h.hold(e)
	}
	s.held = h.events
	if _, err := sim.Result(); err != nil {
		return fmt.Errorf("%s: %s", s.name, strings.TrimPrefix(err.Error(), "konvoy: "))
	}
	s.rounded = dec.Rounded()
	return nil
}

// eventBytes is what an event takes in memory, its key and line aside.
var eventBytes = int(reflect.TypeFor[konvoy.Event]().Size())

// holder holds events within a budget of bytes, each distinct key and line
// once, in chunks of heldChunk, and gives them all up once they outgrow it.
type holder struct {
	events [][]konvoy.Event
	names  map[string]string // the keys and lines held, each by itself
	used   int
	budget int
	over   bool
}

// hold holds e, unless the events held, e included, would take more than
// the budget; then it holds none, from then on.
func (h *holder) hold(e konvoy.Event) {
	if h.over {
		return
	}
	if h.names == nil {
		h.names = make(map[string]string)
	}
	e.Key, e.Line = h.name(e.Key), h.name(e.Line)
	h.used += eventBytes
	if h.used > h.budget {
		h.events, h.names, h.over = nil, nil, true
		return
	}
	if n := len(h.events); n == 0 || len(h.events[n-1]) == heldChunk {
		h.events = append(h.events, make([]konvoy.Event, 0, heldChunk))
	}
	last := &h.events[len(h.events)-1]
	*last = append(*last, e)
}

// name returns the held string equal to s, holding s if there is none.
func (h *holder) name(s string) string {
	if held, ok := h.names[s]; ok {
		return held
	}
	h.names[s] = s
	h.used += len(s) + 64 // the string and its entry in names, give or take
	return s
}

// all returns the trace's events, read afresh each time it is ranged over,
// as konvoy.PlanConsumers needs. A pass that fails, because the file
// changed or went away since check read it, ends early and leaves its error
// for failed.
func (s *planSource) all() iter.Seq[konvoy.Event] {
	if s.held != nil || s.stats.Events() == 0 {
		return func(yield func(konvoy.Event) bool) {
			for _, chunk := range s.held {
				for _, e := range chunk {
					if !yield(e) {
						return
					}
				}
			}
		}
	}
	return func(yield func(konvoy.Event) bool) {
		dec, f, err := s.decoder()
		if err != nil {
			s.fail(err)
			return
		}
		defer f.Close()
		for e, err := range dec.All() {
			if err != nil {
				s.fail(err)
				return
			}
			if !yield(e) {
				return
			}
		}
	}
}

// fail keeps the first error of a pass. Passes may run at once.
func (s *planSource) fail(err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err == nil {
		s.err = fmt.Errorf("%w (the trace changed while konvoy plan read it again)", err)
	}
}

// failed returns the first error of a pass after the check, if any.
func (s *planSource) failed() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}
