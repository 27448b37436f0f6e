package konvoy

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"maps"
	"math"
	"math/bits"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
)

// Config is one run of a [Sweep]: a layout on a number of consumers, with
// options such as [WithPolicy].
type Config struct {
	Layout    Layout
	Consumers int
	Options   []Option

	orderedOnly bool // runs only the events that change state (Step > 0)
}

// sweepBatch is how many events go to the configurations at a time, and
// sweepBatchBytes how many bytes of keys and lines at most, give or take
// one event's, so that the batches in flight hold a few megabytes however
// long the keys; sweepBatches is how many batches are in flight.
const (
	sweepBatch      = 4096
	sweepBatchBytes = 1 << 20
	sweepBatches    = 3
)

// sweepAhead is the most events Sweep reads past the slowest of its runs,
// as its doc states: 12,288.
const sweepAhead = sweepBatch * sweepBatches

// DefaultMaxMemory is the memory a [Sweep] plans for unless told otherwise
// with [WithMaxMemory]: 1 GiB.
const DefaultMaxMemory = 1 << 30

// SweepOption changes how [Sweep] runs.
type SweepOption func(*sweepOptions)

type sweepOptions struct {
	maxMemory int
	expected  int // events the stream holds, about; 0: unknown
}

// WithMaxMemory sets the memory a [Sweep] may plan for, in bytes; the
// default is [DefaultMaxMemory]. It panics, with a "konvoy:" prefix, when
// bytes < 1.
func WithMaxMemory(bytes int) SweepOption {
	if bytes < 1 {
		panic(fmt.Sprintf("konvoy: WithMaxMemory(%d): want at least 1 byte", bytes))
	}
	return func(o *sweepOptions) { o.maxMemory = bytes }
}

// WithExpectedEvents tells a [Sweep] that its stream holds about n events,
// as a caller that can count a file's lines knows. A first pass that
// cannot hold every run then stops, from early on, the runs that would not
// fit by the stream's end, at the rate the pass's keys and lanes grow,
// instead of running them partway and stopping them as the memory fills;
// the next pass runs them from the start either way. A wrong n costs
// passes or time, never a different result, and n ≤ 0 means unknown, the
// default. A single run left is stopped only by the memory it does take.
func WithExpectedEvents(n int) SweepOption {
	return func(o *sweepOptions) { o.expected = n }
}

// Sweep runs every configuration over events and returns their results in
// the order of configs, the same whatever the goroutines' timing and
// however the runs are batched; no configurations give no results, and the
// stream is not read. It is the way to run many configurations over one
// stream: each event is decoded, its key and line numbered, its own faults
// checked and its lane under each layout found once for all the runs of a
// pass, and each run keeps only its own state, a few bytes a key. The runs
// of a pass go in parallel on up to GOMAXPROCS goroutines, and Sweep holds
// at most 12,288 events beyond what each run holds itself: when a run fails
// at an event, Sweep has read at most 12,288 events past it, so that a
// caller that keeps the positions of the last 12,288 events it yielded (the
// lines of a file) can say where the failing one is, without reading the
// stream again.
//
// Sweep plans its memory, [DefaultMaxMemory] or [WithMaxMemory]'s: its own,
// some 1.8 MiB for the events in flight, its spool and a key table; what the
// stream's keys and lanes take once, some 90 bytes a key and 24 a lane (16
// a key more under layouts that do not give each key a lane), besides the
// bytes of their names (keys', lines' and [LaneFunc] lanes'), and what each
// run takes for them, 4 bytes a key (8 under the resequencer) and 24 a lane
// (40 under [LaneAware]), with 64 KiB a run besides (72 KiB under
// LaneAware), 208 bytes for each consumer that takes an event, and the most
// its backlog has held (see [Layout.HoldsBacklog]), as of a few thousand
// events before: some 128 bytes an event under LaneAware, 64 under
// [Static], and 128 for an event the resequencer holds (224 under a Timeout
// or Capacity), half as much on 32-bit platforms, beside its latency
// histograms' counts beyond 16 KiB (up to 864 KiB) and 96 bytes (48) for
// each lane whose total wait passed 2⁶⁴, as of a few thousand events
// before too; 96 bytes (48) for each key's load in a lane other than its
// first, under layouts whose keys may move between lanes; and the results
// made, 16 bytes (8 on 32-bit platforms) for each key a result names in
// WrongKeys, which a run's state gives way to once its result is made.
// When the runs would not fit at once, the runs at the end of configs give
// way and run in later passes, whether their keys, their backlogs or their
// results outgrow the memory; a later pass knows what each run held in the
// passes before, and where a run gives way changes only the passes, never
// a result. The runs' latency histograms, which can grow faster than the
// plan counts (thousands of runs may each take 800 KiB in them within a
// few hundred events), may pass the memory by a sixteenth; beyond, the
// runs from the first that passes it on give way at once, where the
// workers' timing has them, and a later pass plans for their histograms'
// most. A first pass told the stream's length by [WithExpectedEvents]
// stops early the runs whose keys will not fit by its end, rather than
// running them partway. The first pass of a sweep of more than one
// configuration keeps the stream as it interned it, some 10 to 30 bytes an event in a temporary file (on a tmpfs, memory
// beside the plan), unless, told the stream's length, it finds every run
// will fit; it removes the file before it returns, cancelled or not, and
// where the system allows, as Unix does, as soon as it has made it, so that
// a process killed leaves nothing behind. The later passes replay it, with
// its keys and lanes, rather than read the stream again, and take in order
// every run left that fits beside them. Where no file can be written, or a
// pass's first run would not fit beside them, or a run left alone in a
// pass outgrows the memory beside the lanes the spool keeps for other
// runs where it would fit without them, or runs give way after a first
// pass told the stream's length kept no file, the later passes read the
// stream again, keeping lanes only for their runs' layouts; events must
// then yield the same events each time it is ranged over, as a stream of a
// slice ([Values]) or of a file read afresh does, and one that ends sooner
// when read again is an error. The plan leaves out the garbage
// collector's headroom.
//
// Sweep returns the error of the first event, in input order, that a run
// fails at, of the first such run in configs (an invalid configuration
// fails before any event, with NewSimulator's error after "konvoy: Sweep:
// configs[i]: ", i its index), which may take passes over the events up
// to it; or, when every run took every event, the stream's first error; or
// else the error of the first run in configs whose end fails (see
// [Simulator.Result]), naming the run; or ctx's error when ctx is done
// first. A single run whose keys, lanes and backlog alone, beside the
// results made, outgrow the memory fails, at the event where Sweep finds
// it, with an [EventError] that wraps [ErrMemory]: Sweep plans memory at
// the end of each batch of events it reads (4,096 events, or fewer when
// their names fill 1 MiB), so a run that does not fit even empty fails at
// the first batch's last event, and the error's bytes, the sweep's own
// among them, tell it; with no event, before any, with an error that wraps
// ErrMemory and names no event. A run whose result does not fit beside it
// and the results made fails at its end with an error that wraps
// ErrMemory. Sweep panics, with a "konvoy:" prefix, when ctx, events or an
// option is nil.
func Sweep(ctx context.Context, events iter.Seq2[Event, error], configs []Config, opts ...SweepOption) ([]Result, error) {
	if ctx == nil {
		panic("konvoy: Sweep: ctx is nil; want a context, such as context.Background()")
	}
	if events == nil {
		panic("konvoy: Sweep: events is nil")
	}
	o := sweepOptions{maxMemory: DefaultMaxMemory}
	for i, opt := range opts {
		if opt == nil {
			panic(fmt.Sprintf("konvoy: Sweep: option %d is nil", i))
		}
		opt(&o)
	}
	return sweep(ctx, events, configs, o, nil)
}

// sweep is Sweep, which also puts each run's percentile, as withPercentile
// asks for it, and the most work a consumer owns under Static, in at
// unless at is nil.
func sweep(ctx context.Context, events iter.Seq2[Event, error], configs []Config, o sweepOptions, at []runNote) ([]Result, error) {
	if len(configs) == 0 {
		return nil, nil
	}
	for i, c := range configs {
		if _, err := NewSimulator(c.Layout, c.Consumers, c.Options...); err != nil {
			return nil, configError{i, err}
		}
	}
	return sweepPasses(ctx, events, configs, o, at)
}

// runNote is what sweep notes of a run for PlanLatency besides its
// Result: its percentile (see withPercentile), and under Static the most
// work the lanes one consumer owns brought it (see Simulator.pinnedMost).
type runNote struct{ at, pinned int }

// sweepPasses runs the configurations, valid all, in as many passes over
// events as o's memory needs; see sweep.
func sweepPasses(ctx context.Context, events iter.Seq2[Event, error], configs []Config, o sweepOptions, at []runNote) ([]Result, error) {
	results := make([]Result, len(configs))
	todo := make([]int, len(configs))
	for i := range todo {
		todo[i] = i
	}
	f := sweepFailures{limit: math.MaxInt, endAt: len(configs)}
	var seen sweepSizes
	sp := newSweepSpool(len(configs)) // the first pass, which the later ones replay
	defer sp.drop()
	for len(todo) > 0 {
		p := newSweepPass(configs, todo, o, seen, sp)
		sp = sp.usedBy(p)
		err := p.takeOrStop(ctx, events, f.limit)
		e := p.wait()
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if e != nil && e == p.memErr && p.alone {
			// A run alone did not fit beside the inputs that the spool
			// keeps, or keeps filling as it records, for every run, where
			// it fits with its own: the next pass reads the stream
			// without a spool, with the inputs of the runs that fit, and
			// there the run fails only where a sweep of it alone would.
			sp.drop()
			sp, seen = nil, p.sizes()
			continue
		}
		f.note(e, err, p.read)
		if f.first == nil && f.streamErr == nil {
			// A run's end may fail (Simulator.Result): kept, the first
			// in configs, and given only once no later pass finds an
			// event that fails, as one pass would.
			f.noteEnd(p.results(results, at))
		}
		todo, seen = p.deferred(), p.sizes()
		sp = sp.after(p, len(todo) > 0 && f.first == nil && f.streamErr == nil)
	}
	if err := f.err(); err != nil {
		return nil, err
	}
	return results, nil
}

// sweepFailures are the failures a sweep's passes met so far, and how far
// the next pass need read.
type sweepFailures struct {
	first     *sweepError // the first event a run fails at
	streamErr error       // the stream's first error
	endErr    error       // the first run's in configs whose end failed
	endAt     int         // its configuration
	limit     int         // the events a pass need read: after an error, those up to it
}

// note takes a pass's first event error e and its stream's error err,
// the pass having read read events.
func (f *sweepFailures) note(e *sweepError, err error, read int) {
	if e != nil && e.before(f.first) {
		f.first, f.limit = e, min(f.limit, e.index+1)
	}
	if err != nil && f.streamErr == nil {
		f.streamErr, f.limit = err, min(f.limit, read)
	}
}

// noteEnd takes the error of a pass's first run whose end failed, of
// configuration config.
func (f *sweepFailures) noteEnd(config int, err error) {
	if err != nil && config < f.endAt {
		f.endErr, f.endAt = err, config
	}
}

// err returns the sweep's error: the first event a run fails at, else
// the stream's, else the first run's end error.
func (f *sweepFailures) err() error {
	switch {
	case f.first != nil:
		return f.first.err
	case f.streamErr != nil:
		return f.streamErr
	}
	return f.endErr
}

// What a sweep plans for, in bytes, beside its lane tables' (see
// laneTable.bytes) and its runs' (see sweepRun.bytes); memory_internal_test.go
// checks them against what sweeps allocate.
const (
	keyBytes       = 88             // a key's keyName (24), its hash slot (8, 1⅓ to 2⅔ times over, and as much again while the table grows)
	stateBytes     = 4              // a run's state of a key (8 under the resequencer: see keySteps)
	reseqKeyBytes  = 8              // a run's reseqKey of a key, under a ResequencerConfig that can make old steps
	laneRunBytes   = 24             // a run's laneRun of a lane
	queueBytes     = 16             // a run's laneQueue of a lane, under LaneAware
	ownerBytes     = 88             // a Static run's owner of a partition lane, dealt by number (24, as it grows), and its member's entry (64)
	runBytes       = 64 << 10       // a run's histograms, heaps and lists, at the least
	histogramBytes = 16 << 10       // of runBytes, its latency histograms' counts: any more grow its backlog's (see grownBytes)
	carryBytes     = 12 * wordBytes // a lane whose total wait passed 2⁶⁴: its entry in laneCarry (2 words, some 6 in the map's tables as they fill and grow)
	awayBytes      = 12 * wordBytes // a key's load in a lane not its first: its entry in laneTable.away (3 words, some 9 in the map's tables)
	laneAwareBytes = 8 << 10        // a LaneAware run's slots of held events, and its list of those that can run, at the least
	consumerBytes  = 208            // a consumer that has taken an event: its tree nodes (16, up to 4), last event (40, up to 2) and its share of the lists of those due to finish (8 a list, up to 8)
	keysBytes      = 256 << 10      // a key table's recent-key cache and smallest table
	laneAwareHeld  = 16 * wordBytes // an event LaneAware holds: its queued (7 words, up to twice as its list grows) and its place in a list of those that can run
	staticHeld     = 8 * wordBytes  // an event Static holds to apply: its finished (4 words, up to twice as its queue grows)
	reseqHeld      = 16 * wordBytes // an event the resequencer holds: its map entry (5 words, some 6 to 12 in the map's tables as they fill)
	reseqQueued    = 12 * wordBytes // and, under a Timeout or Capacity, its queue entry (5 words, up to twice as the queue grows)
	wordBytes      = bits.UintSize / 8
	batchBytes     = 128 * sweepAhead                    // the batches in flight: each event, interned, with its lanes
	spoolBytes     = spoolBuffer                         // the spool's buffer, or its reader's (see sweepSpool)
	resultBytes    = 2 * wordBytes                       // a key a Result names in WrongKeys
	sweepOwnBytes  = batchBytes + spoolBytes + keysBytes // what a sweep of one run takes before any key: some 1.8 MiB
)

// sweepRun is one run of a pass, and what planning its memory needs.
type sweepRun struct {
	config int // index in the configurations
	sim    *Simulator
	// layout, consumers and opts are sim's, for the reader's plan, which
	// does not read sim while the workers run: a worker may let it go
	// (see drop).
	layout    Layout
	consumers int
	opts      options
	group     int // the inputs it takes
	table     int // its layout's lane table in them; -1: none
	// held is the most bytes its backlog, and what else grows as it runs,
	// is known to take (see grownBytes), by the pass's reader: at a batch
	// its workers are done with, or in an earlier pass; holds is this
	// pass's part of it.
	held, holds int
	// reserve is what the plan counts for it beyond held when it takes
	// runs into a pass, from an earlier pass where its worker let it go
	// (see drop): what it took beyond held there, which the plan saw late,
	// and what its latency histograms may still grow by; not when it is
	// alone, nor at its end.
	reserve int
	peak    int  // the most they took at a batch's end, by its worker
	grown   int  // what it took at its last batch's end, by its worker, in the pass's grown (see giveWay)
	hist    int  // and its latency histograms beyond histogramBytes then
	fast    bool // its histograms grew by more than fastGrowth in a batch of the pass
	// gaveWay is what it took when its worker let it go, and gaveReserve
	// what its latency histograms may still grow by (see drop).
	gaveWay, gaveReserve int
	// result is what its result keeps, known once it ended in a pass (see
	// results), for the next pass to plan for, when it gave way there.
	result int
}

// runOf returns a run of s, of the first configuration, group and lane
// table.
func runOf(s *Simulator) *sweepRun {
	return &sweepRun{sim: s, layout: s.layout, consumers: s.consumers.n, opts: s.opts}
}

// backlogBytes returns what the backlog of run r takes now by the plan:
// the events its policy holds beyond one for each consumer that has taken
// one (which bytes counts), and the most the resequencer has held at once.
// Its worker reads it after each batch; it takes O(1) time.
func (r *sweepRun) backlogBytes() int {
	s := r.sim
	n, _ := s.dispatch.held()
	perHeld := 0
	switch p := dispatchedAs(s.layout, s.consumers.n, s.opts); {
	case s.opts.consumerPerEvent: // the planner's run holds no event (see unlimited)
	case p == LaneAware:
		perHeld = laneAwareHeld
	case p == Static:
		perHeld = staticHeld
	}
	perBuffered := reseqHeld
	if s.opts.reseq.Timeout > 0 || s.opts.reseq.Capacity > 0 {
		perBuffered += reseqQueued
	}
	return n*perHeld + s.maxBuffered*perBuffered
}

// grownBytes returns what run r takes now, by the plan, beyond what
// bytes counts for its keys, lanes and consumers: its backlog
// (backlogBytes), its latency histograms' counts beyond histogramBytes
// (up to 864 KiB, for waits and responses of every length), and its lanes
// whose total wait passed 2⁶⁴. Its worker reads it after each batch; it
// takes O(1) time.
func (r *sweepRun) grownBytes() int {
	s := r.sim
	return r.backlogBytes() + histogramsBeyond(s) + len(s.laneCarry)*carryBytes
}

// bytes returns what run r takes, by the plan, for keys keys, lanes lanes
// and events events, which bound the consumers that take one.
func (r *sweepRun) bytes(keys, lanes, events int) int {
	perLane, fixed := laneRunBytes, runBytes
	switch o, p := r.opts, dispatchedAs(r.layout, r.consumers, r.opts); {
	case p == LaneAware:
		perLane, fixed = perLane+queueBytes, fixed+laneAwareBytes
	case p == Static && r.layout.partitions > 0 && o.assignor != FirstSeenAssignor:
		perLane += ownerBytes
	}
	perKey := stateBytes
	if r.layout.handler == resequence { // see keySteps
		perKey *= 2
	}
	if reseqKeys(r.layout, r.opts) {
		perKey += reseqKeyBytes
	}
	return fixed + keys*perKey + lanes*perLane + consumerBytes*min(r.consumers, events)
}

// String returns "the run of LAYOUT, POLICY, on N consumers", as the
// sweep's errors name run r.
func (r *sweepRun) String() string {
	return fmt.Sprintf("the run of %s, %s, on %s", r.layout, r.opts.policy, counted(r.consumers, "consumer", "consumers"))
}

// named returns err, the end of run r's, naming the run: a sweep has many.
func (r *sweepRun) named(err error) error {
	if pe := (prefixed{}); errors.As(err, &pe) {
		return prefixed{fmt.Errorf("%s: %w", r, pe.err)}
	}
	return err
}

// sweepSizes is how many keys each group's inputs had, and how many lanes
// each layout, at the end of a pass: what the next pass will meet, so that
// it stops the runs that will not fit at once.
type sweepSizes struct {
	keys    [2]int
	names   [2]int // the bytes of each group's keys' and lines' names (inputs.names)
	results int    // the bytes the results made so far keep: see resultBytes
	events  int
	layouts []Layout
	lanes   []int
	away    []int       // by layout, as lanes: its keys' loads in lanes not their first (see laneTable.addKeyLoad)
	named   []int       // by layout, as lanes: the bytes of its LaneFunc lanes' names (laneTable.nameBytes)
	held    map[int]int // by configuration: the most bytes its backlog and what else grows took (see grownBytes), when more than 0
	reserve map[int]int // by configuration: its reserve (see sweepRun), when more than 0
	result  map[int]int // by configuration: what its result keeps, of a run that gave way at its end (see results)
}

// ofLayout returns the size of layout l in by, one of the sizes by
// layout (lanes, away, named), 0 when the sizes count no l or by is
// shorter (none).
func (z *sweepSizes) ofLayout(by []int, l Layout) int {
	if i := slices.IndexFunc(z.layouts, l.Equal); i >= 0 && i < len(by) {
		return by[i]
	}
	return 0
}

// awayOf returns the keys' loads away from their first lanes that the
// sizes count under layout l, 0 if none.
func (z *sweepSizes) awayOf(l Layout) int { return z.ofLayout(z.away, l) }

// namedOf returns the bytes of layout l's lane names that the sizes
// count, 0 if none: a layout's own, as a run that does not take the
// layout keeps none of them.
func (z *sweepSizes) namedOf(l Layout) int { return z.ofLayout(z.named, l) }

// lanesOf returns the lanes of layout l the sizes count, 0 if none.
func (z *sweepSizes) lanesOf(l Layout) int { return z.ofLayout(z.lanes, l) }

// sizes returns the sizes of the pass's inputs now, no smaller than those
// of earlier passes.
func (p *sweepPass) sizes() sweepSizes { return p.sizesFrom(p.seen) }

// sizesNow returns the sizes of the pass's inputs now, and the results
// made: what its runs take, whatever earlier passes met.
func (p *sweepPass) sizesNow() sweepSizes {
	return p.sizesFrom(sweepSizes{results: p.seen.results})
}

// sizesFrom returns the sizes of the pass's inputs now, no smaller than
// seen, and the results made.
func (p *sweepPass) sizesFrom(seen sweepSizes) sweepSizes {
	z := sweepSizes{keys: seen.keys, names: seen.names, results: seen.results + p.kept,
		events: max(seen.events, p.read), held: maps.Clone(seen.held), reserve: maps.Clone(seen.reserve), result: maps.Clone(seen.result)}
	z.layouts, z.lanes, z.away, z.named = slices.Clone(seen.layouts), slices.Clone(seen.lanes), slices.Clone(seen.away), slices.Clone(seen.named)
	z.away = append(z.away, make([]int, max(0, len(z.lanes)-len(z.away)))...)    // as awayOf reads a shorter one: none
	z.named = append(z.named, make([]int, max(0, len(z.lanes)-len(z.named)))...) // as namedOf reads a shorter one: none
	for _, r := range p.runs {
		if r.held > z.held[r.config] {
			if z.held == nil {
				z.held = make(map[int]int)
			}
			z.held[r.config] = r.held
		}
		if r.reserve > z.reserve[r.config] {
			if z.reserve == nil {
				z.reserve = make(map[int]int)
			}
			z.reserve[r.config] = r.reserve
		}
		if r.result > 0 {
			if z.result == nil {
				z.result = make(map[int]int)
			}
			z.result[r.config] = r.result
		}
	}
	for g, gr := range p.groups {
		if gr.in == nil {
			continue
		}
		z.keys[g] = max(z.keys[g], gr.in.keys.len())
		z.names[g] = max(z.names[g], gr.in.names)
		for _, t := range gr.in.tables {
			if i := slices.IndexFunc(z.layouts, t.layout.Equal); i >= 0 {
				z.lanes[i], z.away[i] = max(z.lanes[i], t.len()), max(z.away[i], len(t.away))
				z.named[i] = max(z.named[i], t.nameBytes)
				continue
			}
			z.layouts = append(z.layouts, t.layout)
			z.lanes, z.away, z.named = append(z.lanes, t.len()), append(z.away, len(t.away)), append(z.named, t.nameBytes)
		}
	}
	return z
}

// sweepGroup is the inputs of a pass shared by the runs that take the
// same events: every event, or only those that change state.
type sweepGroup struct {
	in      *inputs
	ordered bool
}

// sweepEvents is a run of consecutive events of the stream, with each
// group's interned events.
type sweepEvents struct {
	start   int // the input index of events[0]
	events  []Event
	groups  [2]sweepInterned
	active  int          // runs still in the pass: those before it
	bytes   int          // of the events' keys and lines
	pending atomic.Int32 // workers yet to finish with it
	held    []int        // by run of the pass: the most bytes its backlog took by the end of the batch, written by its worker
}

// sweepInterned is what one group's runs take of a batch: its events
// interned, each with its index in the batch and its lane under each of
// the group's lane tables, stride a row.
type sweepInterned struct {
	at     []int32
	events []internedEvent
	lanes  []int32
	stride int
}

// sweepError is the error of the run with index run at input index index.
type sweepError struct {
	index, run int
	err        error
}

// before orders errors by input index, then by run, so that the error
// returned does not depend on how runs are spread over workers or passes.
func (e *sweepError) before(o *sweepError) bool {
	return o == nil || e.index < o.index || e.index == o.index && e.run < o.run
}

// sweepPass is one pass of a sweep over the stream: the runs that fit
// in memory at its start, each event interned once for them, spread over
// worker goroutines; each run belongs to one worker, which feeds it each
// batch in turn while the reader fills the next one. The batches are
// recycled, so memory does not grow with the events. When the runs outgrow
// the memory, the reader stops the last ones, and the workers the runs
// from one whose histograms grow too fast (see giveWay), which the next
// pass runs.
type sweepPass struct {
	runs      []*sweepRun
	groups    [2]sweepGroup
	active    int         // runs 0 … active−1 go on; the others wait for the next pass
	spool     *sweepSpool // the first pass's: recorded by it, replayed by the others
	maxMemory int
	expected  int       // events the stream holds, about; 0: unknown
	trend     sizeTrend // how the sizes of a first pass grow
	read      int       // events read, errors aside
	memErr    *sweepError
	alone     bool       // memErr's run would fit with its own inputs alone, without the spool's for the other runs
	kept      int        // the bytes its results keep: see resultBytes
	seen      sweepSizes // the keys and lanes a pass before this one read
	workers   []chan *sweepEvents
	free      chan *sweepEvents
	made      int // batches made so far, up to sweepBatches (see batch)
	failed    atomic.Bool
	// grown is what the runs being fed take now beyond what bytes counts
	// (see grownBytes), by their workers; room is how much of it the
	// reader's last plan leaves room for; the runs from stopFrom on give
	// way at once (see giveWay).
	grown, room atomic.Int64
	stopFrom    atomic.Int64
	wg          sync.WaitGroup
	errs        []*sweepError // per worker: its first error
}

// newSweepPass returns the pass of the configurations todo, whose runs are
// made, and starts its workers, up to GOMAXPROCS. seen is what earlier
// passes read; when they read the whole stream, the pass takes only the
// runs that fit (see fit), and the others wait for the next pass from the
// start.
func newSweepPass(configs []Config, todo []int, o sweepOptions, seen sweepSizes, sp *sweepSpool) *sweepPass {
	p := &sweepPass{maxMemory: o.maxMemory, expected: o.expected, seen: seen, free: make(chan *sweepEvents, sweepBatches)}
	for _, ci := range todo {
		c := configs[ci]
		s, _ := NewSimulator(c.Layout, c.Consumers, c.Options...) // checked by Sweep
		g := 0
		if c.orderedOnly {
			g, s.subset = 1, true
		}
		r := runOf(s)
		r.config, r.group, r.held, r.reserve, r.result = ci, g, seen.held[ci], seen.reserve[ci], seen.result[ci] // its table is its inputs' (see makeInputs)
		p.runs = append(p.runs, r)
	}
	p.active = len(p.runs)
	p.stopFrom.Store(int64(len(p.runs)))
	if sp != nil && sp.kept && !sp.holds(p.runs[0], &seen, o.maxMemory) {
		sp = nil // its inputs leave no room for the first run: read the stream
	}
	p.spool = sp
	if seen.events > 0 {
		p.fit(p.replays())
	}
	if p.replays() != nil {
		p.replayInputs()
	} else {
		p.makeInputs()
	}
	z := p.sizes()
	has, tables := p.inputsOf()
	p.leaveRoom(&z, has, tables) // for a batch sent before any plan: one the stream's error ends
	n := max(1, min(runtime.GOMAXPROCS(0), p.active))
	p.errs = make([]*sweepError, n)
	for w := range n {
		in := make(chan *sweepEvents, sweepBatches)
		p.workers = append(p.workers, in)
		var mine []int
		for i := w; i < p.active; i += n {
			mine = append(mine, i)
		}
		p.wg.Add(1)
		go p.work(w, mine, in)
	}
	return p
}

// makeInputs gives the runs of the pass inputs of their own, a group's
// for each group they take, with lane tables for their layouts.
func (p *sweepPass) makeInputs() {
	var layouts [2][]Layout
	for _, r := range p.runs[:p.active] {
		layouts[r.group] = append(layouts[r.group], r.layout)
	}
	for g := range p.groups {
		if len(layouts[g]) == 0 {
			continue
		}
		in, at := newInputs(layouts[g])
		p.groups[g] = sweepGroup{in: in, ordered: g == 1}
		i := 0
		for _, r := range p.runs[:p.active] {
			if r.group == g {
				r.table = at[i]
				r.sim.use(in, at[i])
				i++
			}
		}
	}
}

// work feeds the batches that arrive on in to the runs mine, recording
// the first error, at the lowest input index. A run stopped for the next
// pass is dropped, and its memory with it, as soon as its worker sees it
// stopped: by the reader, at a batch's start, or by a worker, after any
// run it feeds (see giveWay).
func (p *sweepPass) work(w int, mine []int, in <-chan *sweepEvents) {
	defer p.wg.Done()
	end := len(mine) // mine[end:] are dropped
	for b := range in {
		for i := 0; i < end; i++ {
			if end = p.dropFrom(mine, end, b.active); i < end {
				p.feedOne(w, mine[i], b)
			}
		}
		if b.pending.Add(-1) == 0 {
			b.events, b.bytes = b.events[:0], 0
			for g := range b.groups {
				bg := &b.groups[g]
				bg.at, bg.events, bg.lanes = bg.at[:0], bg.events[:0], bg.lanes[:0]
			}
			p.free <- b
		}
	}
}

// dropFrom drops the runs of mine[:end] from the first stopped on, by the
// reader (active) or a worker (stopFrom), and returns how many are left.
// mine is in order, so that they are its last.
func (p *sweepPass) dropFrom(mine []int, end, active int) int {
	from := min(active, int(p.stopFrom.Load()))
	for ; end > 0 && mine[end-1] >= from; end-- {
		p.drop(p.runs[mine[end-1]])
	}
	return end
}

// feedOne feeds batch b to run ri of worker w, unless it has failed, and
// counts what it grew.
func (p *sweepPass) feedOne(w, ri int, b *sweepEvents) {
	r := p.runs[ri]
	if r.sim.err != nil {
		return
	}
	if err := p.feedRun(r, b); err != nil {
		if err.before(p.errs[w]) {
			p.errs[w] = err
		}
		p.failed.Store(true)
	}
	g := r.grownBytes()
	r.peak = max(r.peak, g)
	b.held[ri] = r.peak
	p.giveWay(ri, r, g)
}

// giveWay counts what run ri, r, grew by the end of its batch beyond what
// bytes counts, g (see grownBytes), in the pass's grown, and stops r and
// the runs after it, for the next pass, when its latency histograms grew
// by more than fastGrowth in the batch while the runs take more than the
// room the reader's plan left. The plan knows what runs grow as of a batch
// its workers are done with, which serves backlogs, which grow by some
// bytes an event, and histograms that grow an octave at a time; but within
// the batches in flight thousands of runs can each grow their histograms
// by some 800 KiB (to 864 KiB, for waits and responses of every length).
// The first run never gives way: each pass ends one run at least, and one
// alone fails by the plan (see plan). Where runs give way this way depends
// on the workers' timing; it changes the passes, never a result.
func (p *sweepPass) giveWay(ri int, r *sweepRun, g int) {
	h := histogramsBeyond(r.sim)
	fast := h-r.hist > fastGrowth
	r.fast = r.fast || fast
	total := p.grown.Add(int64(g - r.grown))
	r.grown, r.hist = g, h
	if fast && ri > 0 && total > p.room.Load() {
		for s := p.stopFrom.Load(); int64(ri) < s && !p.stopFrom.CompareAndSwap(s, int64(ri)); s = p.stopFrom.Load() {
		}
	}
}

// fastGrowth is what a run's latency histograms grow by in a batch, at
// most, for it to go on when the runs pass the room the plan left (see
// giveWay): four octaves' counts, as when its waits grow sixteenfold.
const fastGrowth = 4 * octaveSize * wordBytes

// histogramsBeyond returns what s's latency histograms take beyond the
// histogramBytes that a run's plan holds, 0 when no more.
func histogramsBeyond(s *Simulator) int {
	return max(0, s.waits.bytes()+s.responses.bytes()-histogramBytes)
}

// mostHistograms is what a run's latency histograms take at most beyond
// histogramBytes, for every value an int holds: some 848 KiB where int has
// 64 bits, 160 KiB where it has 32.
const mostHistograms = 2*(ExactLatency+(bits.UintSize-1-exactBits)*octaveSize)*wordBytes - histogramBytes

// drop lets run r go, by its worker, for the next pass, with its memory,
// leaving for the next pass's plan the most it grew, and, when its
// latency histograms grew fast (see giveWay), what they may still grow
// by: so that the next pass takes no more runs than fit as they grow,
// rather than give way again, pass after pass.
func (p *sweepPass) drop(r *sweepRun) {
	if r.sim != nil {
		r.gaveWay = r.peak
		if r.fast {
			r.gaveReserve = mostHistograms - histogramsBeyond(r.sim)
		}
	}
	r.sim = nil
	p.grown.Add(-int64(r.grown))
	r.grown = 0
}

// feedRun feeds batch b to run r, and returns the error it fails at.
func (p *sweepPass) feedRun(r *sweepRun, b *sweepEvents) *sweepError {
	g := &b.groups[r.group]
	s := r.sim
	for j := range g.events {
		ln := -1
		if r.table >= 0 {
			ln = int(g.lanes[j*g.stride+r.table])
		}
		at, slots := int(g.at[j]), len(s.schedule)
		err := s.addInterned(&b.events[at], &g.events[j], ln)
		ordered := p.groups[r.group].ordered
		if ordered && len(s.schedule) > slots {
			s.schedule[slots].Index = b.start + at // as its errors do, below
		}
		if err != nil {
			var ev *EventError
			if ordered && errors.As(err, &ev) {
				ev.Index = b.start + at // not the index among the events it took
			}
			return &sweepError{index: b.start + at, run: r.config, err: err}
		}
	}
	return nil
}

// feed reads events in batches, interning each for every group, and hands
// each batch to every worker, until the stream ends or fails, a run fails,
// ctx is done, or limit events are read; it returns the stream's error or
// ctx's.
func (p *sweepPass) feed(ctx context.Context, events iter.Seq2[Event, error], limit int) error {
	b := p.batch()
	for e, err := range events {
		if err != nil {
			p.send(b)
			return err
		}
		if p.read == limit {
			break // shortRead then finds none short: limit is read
		}
		p.intern(b, &e)
		if b, err = p.next(ctx, b); b == nil {
			return err
		}
	}
	p.plan(b)
	p.send(b)
	if err := ctx.Err(); err != nil {
		return err
	}
	return p.shortRead(limit)
}

// shortRead returns an error when the stream, read again by a pass after
// the first, ended before the events a pass before it read (up to limit):
// a stream that yields its events only once, say. Its results would be
// those of part of the stream.
func (p *sweepPass) shortRead(limit int) error {
	if want := min(limit, p.seen.events); p.read < want {
		return fmt.Errorf("konvoy: Sweep: the stream ended at %d events when read again, where a pass before read %d; want a stream that yields the same events each time it is ranged over, as a stream of a slice (Values) or of a file read afresh does", p.read, want)
	}
	return nil
}

// takeOrStop is take, which, when the stream panics (a LaneFunc's bug,
// say), stops the pass's workers before the panic goes on, so that a
// caller that recovers it, as net/http does, keeps none of them behind.
func (p *sweepPass) takeOrStop(ctx context.Context, events iter.Seq2[Event, error], limit int) error {
	taken := false
	defer func() {
		if !taken {
			p.wait()
		}
	}()
	err := p.take(ctx, events, limit)
	taken = true
	return err
}

// take feeds the pass up to limit events, from the spool when it replays
// it, else from events.
func (p *sweepPass) take(ctx context.Context, events iter.Seq2[Event, error], limit int) error {
	if p.replays() != nil {
		return p.replay(ctx, limit)
	}
	return p.feed(ctx, events, limit)
}

// replay is feed for a pass that replays the first pass's spool, up to
// limit events.
func (p *sweepPass) replay(ctx context.Context, limit int) error {
	sp := p.spool
	r, err := sp.reader()
	if err != nil {
		return err
	}
	b := p.batch()
	for p.read < min(sp.events, limit) {
		if err := sp.replay(r, b); err != nil {
			p.send(b)
			return err
		}
		if b, err = p.next(ctx, b); b == nil {
			return err
		}
	}
	p.plan(b)
	p.send(b)
	return ctx.Err()
}

// next counts the event just added to batch b and, once b is full, plans
// the runs' memory, sends b and returns the next batch to fill; it returns
// nil when the pass stops there, with ctx's error if that is why.
func (p *sweepPass) next(ctx context.Context, b *sweepEvents) (*sweepEvents, error) {
	p.read++
	if len(b.events) < sweepBatch && b.bytes < sweepBatchBytes {
		return b, nil
	}
	p.plan(b)
	if !p.send(b) {
		return nil, nil
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	// A batch comes free once every worker is done with it, so a run that
	// failed in it has said so by then: stopping here, the reader is at
	// most the batches in flight ahead of it (sweepAhead).
	if b = p.batch(); p.failed.Load() {
		p.free <- b
		return nil, nil
	}
	p.noteHeld(b)
	return b, nil
}

// batch returns an empty batch to fill: a new one until the pass has made
// sweepBatches, then the first to come free. Batches are made only as the
// stream needs them (a stream of one batch makes one), and the reader gets
// them in the same order as if all were made at the start.
func (p *sweepPass) batch() *sweepEvents {
	if p.made < sweepBatches {
		p.made++
		return &sweepEvents{events: make([]Event, 0, sweepBatch), held: make([]int, len(p.runs))}
	}
	return <-p.free
}

// noteHeld takes what the runs' backlogs took by the end of batch b, which
// every worker is done with, for the plan. The batches come free in the
// order they were read, so what the plan knows of the backlogs, and so
// every choice of which runs go on but the workers' (see giveWay), is the
// same however the workers are timed: as of the batch read sweepBatches−1
// before the one planned.
func (p *sweepPass) noteHeld(b *sweepEvents) {
	if b.active == 0 {
		return // fresh, or empty
	}
	for i, r := range p.runs[:min(p.active, b.active)] {
		r.held, r.holds = max(r.held, b.held[i]), max(r.holds, b.held[i])
	}
}

// intern adds event e to batch b, interned for each group.
func (p *sweepPass) intern(b *sweepEvents, e *Event) {
	at := int32(len(b.events))
	b.events = append(b.events, *e)
	b.bytes += len(e.Key) + len(e.Line)
	for g := range p.groups {
		gr := &p.groups[g]
		if gr.in == nil || gr.ordered && e.Step == 0 {
			continue
		}
		bg := &b.groups[g]
		ie := internedEvent{valid: gr.in.valid(e)}
		added := gr.in.intern(e, &ie)
		for _, t := range gr.in.tables {
			named := t.nameBytes
			bg.lanes = append(bg.lanes, int32(t.lane(e, &ie, added)))
			b.bytes += t.nameBytes - named // a LaneFunc lane's new name, kept as a key is
		}
		bg.at = append(bg.at, at)
		bg.events = append(bg.events, ie)
		bg.stride = len(gr.in.tables)
	}
}

// fit puts first, in order, the runs of the pass that fit in its memory
// together at the sizes an earlier pass read, the first run always, and
// the others after them, which wait for the next pass: by the plan of
// plan, with lane tables only for the layouts of the runs that fit. A pass
// so takes the runs that fit beyond one that does not, and makes no lane
// table for a run it will not take. It takes O(r·l) time for r runs of l
// layouts.
func (p *sweepPass) fit(sp *sweepSpool) {
	var in, out []*sweepRun
	has, tables := sp.planned()
	for _, r := range p.runs {
		g, l := r.group, r.layout
		h, t := has, tables
		h[g] = true
		if l.lanes != noLanes && !slices.ContainsFunc(t[g], l.Equal) {
			t[g] = append(slices.Clip(t[g]), l)
		}
		if len(in) == 0 || planned(&p.seen, append(in, r), h, t) <= p.maxMemory {
			in, has, tables = append(in, r), h, t
		} else {
			out = append(out, r)
		}
	}
	for _, r := range out {
		r.sim = nil // made again in the pass that takes it
	}
	p.runs, p.active = append(in, out...), len(in)
}

// planned returns the memory runs take at sizes z, by the plan: the
// batches in flight, the keys of each group that has inputs (has) and the
// lane tables of its layouts (tables), and each run's own. It takes
// O(r + l) time for r runs and l layouts.
func planned(z *sweepSizes, runs []*sweepRun, has [2]bool, tables [2][]Layout) int {
	used := batchBytes + spoolBytes + z.results
	for g := range has {
		if !has[g] {
			continue
		}
		used += keysBytes + z.keys[g]*keyBytes + z.names[g]
		for _, l := range tables[g] {
			used += tableBytes(l, z.keys[g], z.lanesOf(l)) + z.awayOf(l)*awayBytes + z.namedOf(l)
		}
	}
	for _, r := range runs {
		lanes := 0
		if r.layout.lanes != noLanes {
			lanes = z.lanesOf(r.layout)
		}
		used += r.bytes(z.keys[r.group], lanes, z.events) + r.held + r.reserve + r.result
	}
	return used
}

// plan stops the last runs of the pass, for the next one, while the runs
// would take more memory than the pass may, at the keys and lanes read so
// far, or met by an earlier pass; a single run left that does not fit
// fails at the last event read.
func (p *sweepPass) plan(b *sweepEvents) {
	p.active = min(p.active, int(p.stopFrom.Load()))
	z := p.sizes()
	has, tables := p.inputsOf()
	defer p.leaveRoom(&z, has, tables)
	if p.seen.events == 0 && p.expected > 0 {
		p.trend.note(z)
		if end, ok := p.trend.at(z, p.expected); ok {
			for p.active > 1 && planned(&end, p.runs[:p.active], has, tables) > p.maxMemory {
				p.active--
			}
			if p.active == len(p.runs) && p.spool != nil && !p.spool.kept {
				p.spool.drop() // one pass will do: nothing to replay
			}
		}
	}
	for p.active > 0 {
		used := planned(&z, p.runs[:p.active], has, tables)
		if used <= p.maxMemory {
			return
		}
		// A run alone fails by what it takes in this pass, not by what
		// an earlier one found it would (its keys, lanes and backlog by
		// the end, and its result): where it fails does not depend on the
		// pass it is alone in.
		if p.active == 1 {
			r, now := p.runs[0], p.sizesNow()
			if taken := planned(&now, p.runs[:1], has, tables) - r.held - r.reserve - r.result + r.holds; taken > p.maxMemory {
				p.memErr = p.tooBig(b, taken)
				p.failed.Store(true)
				ownHas, ownTables := ownInputs(r, has, tables)
				others := planned(&now, nil, has, tables) - planned(&now, nil, ownHas, ownTables) // the inputs it does not need
				p.alone = p.spool != nil && taken-others <= p.maxMemory
			}
			return
		}
		p.active--
	}
}

// leaveRoom tells the workers how much their runs may take beyond what
// bytes counts for them (see giveWay): the memory that the pass's active
// runs leave at sizes z, with what the plan counts them to have grown
// (held and reserve), and a sixteenth of the memory besides, for what
// they grow in the batches in flight, which the plan sees a few thousand
// events late, as it always has: the workers stop runs only when their
// histograms grow faster.
func (p *sweepPass) leaveRoom(z *sweepSizes, has [2]bool, tables [2][]Layout) {
	room := p.maxMemory - planned(z, p.runs[:p.active], has, tables) // below 0 when a run alone does not fit
	for _, r := range p.runs[:p.active] {
		room = satAdd(room, r.held+r.reserve) // satAdd's sum is right for room < 0 too
	}
	p.room.Store(int64(satAdd(room, p.maxMemory/lateGrowth)))
}

// lateGrowth is the share of a pass's memory, one in lateGrowth, that its
// runs may take beyond its plan, as the plan sees what they grow late (see
// leaveRoom).
const lateGrowth = 16

// ownInputs returns, of the groups has and the layouts of their lane
// tables, what run r needs alone: its group, and its layout's table.
func ownInputs(r *sweepRun, has [2]bool, tables [2][]Layout) (own [2]bool, ownTables [2][]Layout) {
	own[r.group] = has[r.group]
	if i := slices.IndexFunc(tables[r.group], r.layout.Equal); i >= 0 {
		ownTables[r.group] = tables[r.group][i : i+1]
	}
	return own, ownTables
}

// inputsOf returns the groups the pass has inputs for, and the layouts of
// each one's lane tables, for planned.
func (p *sweepPass) inputsOf() (has [2]bool, tables [2][]Layout) {
	for g, gr := range p.groups {
		if has[g] = gr.in != nil; has[g] {
			for _, t := range gr.in.tables {
				tables[g] = append(tables[g], t.layout)
			}
		}
	}
	return has, tables
}

// sizeTrend is how the sizes of a first pass grow: its sizes at the last
// point, recorded whenever the events read have doubled since the one
// before, and at that one, between a quarter and a half of the events read
// now, so that the rate of growth since then is a recent one, not the
// start's.
type sizeTrend struct {
	before, last sweepSizes
}

// note records z, the sizes now, when the pass has read twice the events
// of the last point.
func (t *sizeTrend) note(z sweepSizes) {
	if z.events >= 2*t.last.events && z.events > 0 {
		t.before, t.last = t.last, z
		t.last.layouts, t.last.lanes, t.last.away, t.last.named = slices.Clone(z.layouts), slices.Clone(z.lanes), slices.Clone(z.away), slices.Clone(z.named)
	}
}

// at returns the sizes z, the sizes now, grow to by the time the pass has
// read n events, at the rate they grew since the earlier point, but no more
// keys or lanes than events; and false when n is not beyond the events
// read, or before the earlier point is recorded: a rate taken from the
// stream's start, where keys come fastest, would stop runs that fit.
func (t *sizeTrend) at(z sweepSizes, n int) (sweepSizes, bool) {
	from := t.before
	if from.events == 0 || z.events <= from.events || n <= z.events {
		return z, false
	}
	scale := float64(n-z.events) / float64(z.events-from.events)
	grow := func(now, then int) int {
		// A count beyond 2³⁹ is beyond any memory, and the plan's sums
		// of it stay within int. Where int has 32 bits the cap is 2²³,
		// within int for a run's plan: a projection it cuts short stops
		// the runs later, at the sizes read.
		return now + int(min(float64(now-then)*scale, math.MaxInt>>(bits.UintSize/2-8)))
	}
	end := sweepSizes{events: n, results: z.results, layouts: slices.Clone(z.layouts), lanes: slices.Clone(z.lanes), away: slices.Clone(z.away), named: slices.Clone(z.named)}
	for g := range z.keys {
		end.keys[g] = min(grow(z.keys[g], from.keys[g]), n)
		end.names[g] = grow(z.names[g], from.names[g])
	}
	for i, l := range z.layouts {
		end.lanes[i] = min(grow(z.lanes[i], from.lanesOf(l)), n)
		if i < len(z.away) {
			end.away[i] = min(grow(z.away[i], from.awayOf(l)), n)
		}
		if i < len(z.named) {
			end.named[i] = grow(z.named[i], from.namedOf(l))
		}
	}
	return end, true
}

// tooBig returns the error of the one run left in the pass, which needs
// used bytes at the last event read, more than the pass may take. b is the
// batch being planned, not yet sent (its start is not set): the event is
// its last, named by its key, or, when b is empty, the last of the batch
// before, named by its index alone; before any event, the error names none.
func (p *sweepPass) tooBig(b *sweepEvents, used int) *sweepError {
	r := p.runs[0]
	i, key := p.read-1, ""
	if n := len(b.events); n > 0 {
		key = b.events[n-1].Key
	}
	results := ""
	if n := p.seen.results; n > 0 { // as taken counts them: the run's own result is not made yet
		results = fmt.Sprintf(" and the results (%d of them for the names of keys left in a wrong final state)", n)
	}
	want := fmt.Sprintf("%s needs some %d bytes (the sweep's own %d among them) for the keys and their names, lanes and backlog so far%s, more than the sweep's %d (WithMaxMemory)",
		r, used, sweepOwnBytes, results, p.maxMemory)
	if i < 0 { // no event read: the run does not fit empty
		return &sweepError{index: i, run: r.config, err: prefixed{fmt.Errorf("%w, before any event: %s", ErrMemory, want)}}
	}
	return &sweepError{index: i, run: r.config, err: eventError(i, key, "", 0, want, ErrMemory)}
}

// send hands b to every worker, and reports whether the runs are all still
// well; an empty b goes back to the free list.
func (p *sweepPass) send(b *sweepEvents) bool {
	if len(b.events) == 0 {
		p.free <- b
		return !p.failed.Load()
	}
	b.start = p.read - len(b.events)
	b.active = p.active
	if p.spool != nil && !p.spool.kept {
		p.spool.record(b)
	}
	b.pending.Store(int32(len(p.workers)))
	for _, in := range p.workers {
		in <- b
	}
	return !p.failed.Load()
}

// wait lets the workers finish and returns the error at the lowest input
// index, if any run failed, of the first run among equals.
func (p *sweepPass) wait() *sweepError {
	for _, in := range p.workers {
		close(in)
	}
	p.wg.Wait()
	p.active = min(p.active, int(p.stopFrom.Load()))
	for _, r := range p.runs[p.active:] {
		p.drop(r) // stopped after its worker's last batch
	}
	for _, r := range p.runs[:p.active] {
		r.reserve = 0 // it took what it takes: its end is planned as it is
	}
	for _, r := range p.runs[p.active:] {
		r.reserve = max(r.reserve, max(0, r.gaveWay-r.held)+r.gaveReserve)
	}
	first := p.memErr
	for _, e := range p.errs {
		if e != nil && e.before(first) {
			first = e
		}
	}
	return first
}

// results puts the results of the runs that went through the pass in
// place, and their percentiles in at unless it is nil; or returns the
// error of the first run whose Result fails, and its configuration. A
// run's result keeps the names of the keys it left in a wrong final state
// (see resultBytes), which the pass planned no room for: each run's state
// goes once its result is made, and when a result does not fit beside the
// runs left and the results before, it and the runs after it give way,
// for a later pass that knows what it keeps; one that would not fit
// there either, beside the results before, fails with ErrMemory.
func (p *sweepPass) results(out []Result, at []runNote) (int, error) {
	z := p.sizes() // before any result of the pass: z.results are the passes' before
	has, tables := p.inputsOf()
	runs := p.runs[:p.active]
	for i, r := range runs {
		if err := r.sim.end(); err != nil {
			return r.config, r.named(err)
		}
		r.result = r.sim.wrongN * resultBytes // which planned counts from now on
		if planned(&z, runs[i:], has, tables)+p.kept > p.maxMemory {
			if alone := planned(&z, runs[i:i+1], has, tables) + p.kept; alone > p.maxMemory {
				return r.config, prefixed{fmt.Errorf("%w: at the end of %s: its result names %d keys left in a wrong final state, some %d bytes, which with the run and the results before it make some %d, more than the sweep's %d (WithMaxMemory)",
					ErrMemory, r, r.result/resultBytes, r.result, alone, p.maxMemory)}
			}
			for _, q := range runs[i:] {
				if q.sim.end() == nil { // else its end fails again in the pass that takes it
					q.result = q.sim.wrongN * resultBytes // for the next pass to plan for
				}
				q.sim = nil // made again in the pass that takes it
			}
			p.active = i
			return 0, nil
		}
		res, err := r.sim.Result()
		if err != nil {
			return r.config, r.named(err)
		}
		out[r.config] = res
		if at != nil {
			at[r.config] = runNote{r.sim.percentile(), r.sim.pinnedMost()}
		}
		r.sim = nil // its state goes: its result keeps its own
		p.kept += r.result
	}
	return 0, nil
}

// deferred returns the configurations whose runs were stopped for the next
// pass, in the order of the configurations: so every pass ends its runs in
// that order (fit keeps it), and the first end that fails in a pass is
// the first in configs of the pass's, as Sweep's error must be. (Runs that
// gave way at their end come before those fit left out, which may be
// earlier configurations.)
func (p *sweepPass) deferred() []int {
	var todo []int
	for _, r := range p.runs[p.active:] {
		todo = append(todo, r.config)
	}
	slices.Sort(todo)
	return todo
}
