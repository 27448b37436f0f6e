package synth

import (
	"fmt"
	"iter"
	"math/rand/v2"

	"github.com/sirali-konvoy/konvoy"
)

// The second PCG seed word of each concern's generator: one generator per
// concern, so that changing one setting leaves the others' draws alone.
const (
	streamPick      = 0x6b6f6e766f792d70 // which lifecycle in the window writes next
	streamSwap      = 0x6b6f6e766f792d73 // out-of-order swaps
	streamDuration  = 0x6b6f6e766f792d64 // durations
	streamArrival   = 0x6b6f6e766f792d61 // arrivals
	streamKeyShares = 0x6b6f6e766f792d6b // key shares and phases
	streamLines     = 0x6b6f6e766f792d6c // the lines' offset
)

// Events returns the stream of cfg.Events events that cfg describes (the
// package documentation gives the model), in input order: Arrival never
// decreases, every key has one Line, and the events are valid input for
// [konvoy.Simulate] and [konvoy.Simulator] under every layout. The same cfg
// gives the same events every time the sequence is ranged over, on every
// platform.
//
// When cfg is invalid, the stream yields the error of [Config.Check] as its
// only element. A valid cfg's stream fails only when an event's duration,
// drawn from cfg.Duration, passes [MaxDuration] (a tail of [Exponential] or
// [LogNormal]): it then yields an error naming the event in its place, and
// ends. Each range over the sequence sets up in
// O(min(InFlight, lifecycles)) time, plus O(Keys) with KeySkew > 0 and
// O(Lines) with LineSkew > 0, allocating the tables the package
// documentation lists, and then emits each event in amortised O(1) time
// (O(log Keys) more per lifecycle with KeySkew > 0). Its memory grows with
// the keys and lines the stream uses, never with the events, nor with Keys
// or Lines as such but for 8 bytes per line with LineSkew > 0. It allocates while it runs only to make names as keys
// and lines first enter the window (or, past about two million keys or
// 65,536 lines, each time they enter it), once per 4,096 names, never per
// event. Stopping the range early stops the generator.
func Events(cfg Config) iter.Seq2[konvoy.Event, error] {
	if err := cfg.Check(); err != nil {
		return func(yield func(konvoy.Event, error) bool) { yield(konvoy.Event{}, err) }
	}
	return func(yield func(konvoy.Event, error) bool) {
		g := newGenerator(cfg)
		g.run(yield)
	}
}

// slot is a key in flight: the lifecycles of the key now in the window, of
// which the first is being written, and the names its events carry.
type slot struct {
	key      int32
	pos      int32  // the next event's position in the lifecycle
	held     int32  // lifecycles of the key in the window, as many as tickets
	swapped  bool   // the last ordered step emitted was swapped with this one
	life     int    // the lifecycle being written, 0 for the key's first
	keyName  string // the key's name, made when it entered the window
	lineName string // its line's name
}

// generator is one run of a stream.
type generator struct {
	events     int
	ordered    int     // ordered steps per lifecycle
	pattern    []int32 // per position in a lifecycle: its ordered step, 1 to ordered, or 0
	outOfOrder float64

	pick, swap *rand.PCG
	durations  *durations
	arrivals   *arrivals
	entries    *entries

	lineNames *names
	lines     lines

	index   keyIndex // the keys in flight and their slots
	slots   []slot
	free    []int32 // unused slots
	tickets []int32 // per lifecycle in the window: its key's slot
}

// newGenerator sets up a run of c, which must be valid, and fills the window.
func newGenerator(c Config) *generator {
	pcg := func(stream uint64) *rand.PCG { return rand.NewPCG(c.Seed, stream) }
	window := min(c.InFlight, c.lifecycles())
	g := &generator{
		events:     c.Events,
		ordered:    c.OrderedSteps,
		pattern:    pattern(c.StepsPerKey, c.OrderedSteps),
		outOfOrder: c.OutOfOrder,
		pick:       pcg(streamPick),
		swap:       pcg(streamSwap),
		durations:  newDurations(c.Duration, pcg(streamDuration)),
		arrivals:   newArrivals(c, pcg(streamArrival)),
		entries:    newEntries(c, pcg(streamKeyShares)),
		lineNames:  newNames('L', c.Lines, maxKeptLineNames),
		lines:      newLines(c.Lines, c.LineSkew, pcg(streamLines).Uint64()),
		index:      newKeyIndex(window),
	}
	g.slots = make([]slot, window)
	g.free = make([]int32, window)
	for i := range g.free {
		g.free[i] = int32(window - 1 - i)
	}
	g.tickets = make([]int32, window)
	for t := range g.tickets {
		g.admit(t)
	}
	return g
}

// pattern returns the ordered step of each position in a lifecycle of steps
// events with ordered ordered steps, or 0 for a history-only record: the
// ordered steps go to positions ⌊k·(steps−1)/(ordered−1)⌋ for k = 0 …
// ordered−1, spreading the history-only records evenly between them (7
// steps, 4 ordered: 1 0 2 0 3 0 4), and a lone ordered step comes first.
// The product is taken in 64 bits: k·(steps−1) passes a 32-bit int from
// 46,342 steps on, within MaxSteps.
func pattern(steps, ordered int) []int32 {
	p := make([]int32, steps)
	for k := range ordered {
		at := 0
		if ordered > 1 {
			at = int(int64(k) * int64(steps-1) / int64(ordered-1))
		}
		p[at] = int32(k + 1)
	}
	return p
}

// admit lets the next lifecycle into the window on ticket t, and reports
// whether there was one. A lifecycle of a key in flight queues behind the
// key's lifecycles in the window.
func (g *generator) admit(t int) bool {
	key, name, life, ok := g.entries.next()
	if !ok {
		return false
	}
	var s int32
	if cell, found := g.index.find(key); found {
		s = g.index.slot(cell)
		g.slots[s].held++
	} else {
		s = g.free[len(g.free)-1]
		g.free = g.free[:len(g.free)-1]
		g.slots[s] = slot{
			key:      key,
			held:     1,
			life:     life,
			keyName:  g.entries.name(name),
			lineName: g.lineNames.name(int(g.lines.of(key)) + 1),
		}
		g.index.put(cell, key, s)
	}
	g.tickets[t] = s
	return true
}

// run emits the events to yield until all are out, yield returns false,
// or a duration drawn passes MaxDuration, which it yields as an error.
func (g *generator) run(yield func(konvoy.Event, error) bool) {
	active := len(g.tickets)
	steps := int32(len(g.pattern))
	for i := range g.events {
		t := 0
		if active > 1 {
			t = int(below(g.pick, uint64(active)))
		}
		s := g.tickets[t]
		sl := &g.slots[s]
		k := int(g.pattern[sl.pos])
		if g.outOfOrder > 0 && k > 0 {
			switch {
			case sl.swapped: // the lower step of a swapped pair
				k--
				sl.swapped = false
			case k < g.ordered && unit(g.swap) < g.outOfOrder:
				k++
				sl.swapped = true
			}
		}
		step := sl.life*g.ordered + k
		if k == 0 { // history only
			step = 0
		}
		d, ok := g.durations.next()
		if !ok {
			yield(konvoy.Event{}, fmt.Errorf("synth: event %d: its duration, drawn from %v, passes %d rounds (MaxDuration), the longest an event's may be", i, g.durations.d, MaxDuration))
			return
		}
		e := konvoy.Event{
			Key:      sl.keyName,
			Line:     sl.lineName,
			Step:     step,
			Duration: d,
			Arrival:  g.arrivals.next(),
		}
		if !yield(e, nil) {
			return
		}
		if sl.pos++; sl.pos < steps {
			continue
		}
		// The lifecycle is over: its ticket goes to the next one.
		sl.pos = 0
		sl.life++
		if sl.held--; sl.held == 0 {
			cell, _ := g.index.find(sl.key)
			g.index.remove(cell)
			g.free = append(g.free, s)
		}
		if !g.admit(t) {
			active--
			g.tickets[t] = g.tickets[active]
		}
	}
}
