package konvoy

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"iter"
	"math"
	"math/bits"
	"reflect"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/sirali-konvoy/konvoy/internal/memtest"
)

// What a sweep plans for a key is what it allocates for one, within a
// tenth, under every layout and policy: the stream's share, once, and each
// run's. Runs that plan for less than they take would let a sweep outgrow
// its budget; runs that plan for far more would take passes they need not.
// The plan counts the sizes of a 64-bit platform; where int and pointers
// have 32 bits a sweep takes less, two thirds of the plan or so, so there
// the test checks that it takes no more than planned, and at least half.
func TestSweepPlansWhatItsKeysTake(t *testing.T) {
	if !memtest.Alone(t) {
		return
	}
	low := 0.9
	if bits.UintSize == 32 {
		low = 0.5
	}
	const keys, lines = 100_000, 100
	names := make([]string, lines)
	for i := range names {
		names[i] = fmt.Sprint("L", i)
	}
	events := make([]Event, keys)
	for i := range events {
		events[i] = Event{Key: fmt.Sprintf("K%07d", i), Line: names[i%lines], Step: 1, Duration: 1, Arrival: i}
	}
	perKey := func(l Layout, p Policy, runs int) float64 {
		configs := make([]Config, runs)
		for i := range configs {
			configs[i] = Config{Layout: l, Consumers: 4, Options: []Option{WithPolicy(p)}}
		}
		return float64(memtest.Allocated(func() {
			if _, err := Sweep(context.Background(), Values(events), configs); err != nil {
				t.Fatal(err)
			}
		})) / keys
	}
	// The default run checks each layout under one policy, in turn, so
	// that every layout and every policy is checked; -konvoy.long checks
	// every pair.
	long := flag.Lookup("konvoy.long") != nil && flag.Lookup("konvoy.long").Value.String() == "true"
	for li, l := range AllLayouts(64) {
		lanes := map[laneKind]int{keyLanes: keys, lineLanes: lines, partitionLanes: 64}[l.lanes]
		in, _ := newInputs([]Layout{l})
		shared := batchBytes + spoolBytes + keysBytes + keys*keyBytes
		if len(in.tables) > 0 {
			shared += in.tables[0].bytes(keys, lanes)
		}
		for pi, p := range Policies() {
			if !long && pi != li%len(Policies()) {
				continue
			}
			r := runOf(&Simulator{layout: l, opts: options{policy: p}, consumers: consumerQueue{n: 4}})
			run := float64(r.bytes(keys, lanes, 4)) / keys
			plan := float64(shared)/keys + run
			one, more := perKey(l, p, 1), perKey(l, p, 3)
			more = (more - one) / 2
			if one > 1.1*plan || one < low*plan || more > 1.1*run || more < low*run {
				t.Errorf("%s, %s: %.1f bytes a key for one run, %.1f for each more; planned %.1f and %.1f", l, p, one, more, plan, run)
			}
		}
	}
}

// A pass after the first knows the stream's keys and lanes, so it takes,
// in order, every run that fits beside those before it, not only the
// first runs up to one that does not fit, and makes lane tables only for
// the layouts of the runs it takes: a convoy run that does not fit beside
// the first leaves room for a free run after it, and the pass makes no
// convoy lanes.
func TestSweepPassTakesTheRunsThatFit(t *testing.T) {
	const keys = 100_000
	seen := sweepSizes{keys: [2]int{keys, 0}, events: keys, layouts: []Layout{Convoy}, lanes: []int{keys}}
	configs := []Config{{Layout: Free, Consumers: 1}, {Layout: Convoy, Consumers: 1}, {Layout: Free, Consumers: 2}}
	free := runOf(&Simulator{layout: Free, consumers: consumerQueue{n: 1}})
	budget := batchBytes + spoolBytes + keysBytes + keys*keyBytes + 2*free.bytes(keys, 0, keys) + 1024 // and a consumer
	p := newSweepPass(configs, []int{0, 1, 2}, sweepOptions{maxMemory: budget}, seen, nil)
	defer p.wait()
	if p.active != 2 || p.runs[0].config != 0 || p.runs[1].config != 2 {
		t.Fatalf("the pass takes %d runs, first %d; want the two free runs, 0 and 2", p.active, p.runs[0].config)
	}
	if got := p.deferred(); len(got) != 1 || got[0] != 1 {
		t.Errorf("deferred %v; want [1], the convoy run", got)
	}
	if n := len(p.groups[0].in.tables); n != 0 {
		t.Errorf("the pass makes %d lane tables; want none", n)
	}
}

// A first pass told how many events the stream holds stops, early on, the
// runs that will not fit by its end at the rate its keys grow, rather than
// running them partway: over a stream of a new key an event, three convoy
// runs fit in the memory for the first quarter of it, one by the end, and
// the pass told so keeps one run after that quarter, the pass not told
// keeps three. Both give the same results (TestSweepEqualsRunsOneByOne).
func TestFirstPassStopsEarlyTheRunsThatWillNotFit(t *testing.T) {
	t.Parallel()
	const n = 20 * sweepBatch
	events := make([]Event, n)
	for i := range events {
		events[i] = Event{Key: fmt.Sprint("k", i), Step: 1, Duration: 1, Arrival: i}
	}
	configs := []Config{{Layout: Convoy, Consumers: 1}, {Layout: Convoy, Consumers: 1}, {Layout: Convoy, Consumers: 1}}
	one := runOf(&Simulator{layout: Convoy, consumers: consumerQueue{n: 1}})
	end := sweepSizes{keys: [2]int{n, 0}, events: n, layouts: []Layout{Convoy}, lanes: []int{n}}
	tables := [2][]Layout{{Convoy}}
	budget := planned(&end, []*sweepRun{one}, [2]bool{true}, tables) + 1
	quarter := sweepSizes{keys: [2]int{n / 4, 0}, events: n / 4, layouts: []Layout{Convoy}, lanes: []int{n / 4}}
	if planned(&quarter, []*sweepRun{one, one, one}, [2]bool{true}, tables) > budget {
		t.Fatal("three runs do not fit in the first quarter: the test's budget is wrong")
	}
	// Told the stream is a hundred times as long, the pass still keeps its
	// first run, which only the memory it takes may stop.
	for _, c := range []struct {
		expected, active int
	}{{0, 3}, {n, 1}, {100 * n, 1}} {
		p := newSweepPass(configs, []int{0, 1, 2}, sweepOptions{maxMemory: budget, expected: c.expected}, sweepSizes{}, nil)
		if err := p.feed(context.Background(), Values(events), n/4); err != nil {
			t.Fatal(err)
		}
		if e := p.wait(); e != nil {
			t.Fatal(e.err)
		}
		if p.active != c.active {
			t.Errorf("told the stream holds %d events, the first pass keeps %d runs a quarter in; want %d", c.expected, p.active, c.active)
		}
	}
}

// A pass after the first replays the first pass's spool only when its
// first run fits beside the spool's keys and every lane table it keeps;
// otherwise it reads the stream with inputs of its own, whose tables are
// only its runs' layouts'.
func TestAPassReplaysOnlyWhenTheSpoolLeavesRoom(t *testing.T) {
	const keys = 100_000
	in, _ := newInputs([]Layout{Convoy, LineConvoy})
	sp := &sweepSpool{kept: true, groups: [2]sweepGroup{{in: in}}}
	seen := sweepSizes{keys: [2]int{keys, 0}, events: keys, layouts: []Layout{Convoy, LineConvoy}, lanes: []int{keys, 100}}
	free := runOf(&Simulator{layout: Free, consumers: consumerQueue{n: 1}})
	alone := planned(&seen, []*sweepRun{free}, [2]bool{true}, [2][]Layout{})
	beside := planned(&seen, []*sweepRun{free}, [2]bool{true}, [2][]Layout{{Convoy, LineConvoy}})
	// The first run's reserve from an earlier pass is left aside, as when
	// it is alone.
	reserved := runOf(&Simulator{layout: Free, consumers: consumerQueue{n: 1}})
	reserved.reserve = 1 << 20
	if !sp.holds(reserved, &seen, beside) || sp.holds(reserved, &seen, beside-1) {
		t.Errorf("a first run with a reserve: the spool holds it at %d bytes %v, at one less %v; want true, false", beside, sp.holds(reserved, &seen, beside), sp.holds(reserved, &seen, beside-1))
	}
	for _, c := range []struct {
		budget  int
		replays bool
	}{{beside, true}, {beside - 1, false}, {alone, false}} {
		p := newSweepPass([]Config{{Layout: Free, Consumers: 1}}, []int{0}, sweepOptions{maxMemory: c.budget}, seen, sp)
		p.wait()
		if got := p.replays() != nil; got != c.replays || got != (p.groups[0].in == in) {
			t.Errorf("budget %d: the pass replays the spool: %v, with its inputs: %v; want %v", c.budget, got, p.groups[0].in == in, c.replays)
		}
	}
}

// A first pass's sizes are projected at their recent rate: the trend keeps
// the sizes each time the events read double, and the point before, and
// grows the sizes now at the rate since that point. Keys that came one an
// event up to 4,000 events and one in ten since are projected at one in
// ten, not at the average since the start.
func TestSizeTrendProjectsTheRecentRate(t *testing.T) {
	var tr sizeTrend
	at := func(events, keys int) sweepSizes { // and as many keys away from their first lines
		return sweepSizes{events: events, keys: [2]int{keys, 0}, layouts: []Layout{LineConvoy}, lanes: []int{10}, away: []int{keys}, named: []int{keys}}
	}
	for _, z := range []sweepSizes{at(1000, 1000), at(2000, 2000), at(3000, 3000), at(4000, 4000), at(6000, 4200), at(8000, 4400)} {
		tr.note(z)
	}
	if tr.before.events != 4000 || tr.last.events != 8000 {
		t.Fatalf("the trend's points are at %d and %d events; want 4000 and 8000", tr.before.events, tr.last.events)
	}
	end, ok := tr.at(at(8000, 4400), 16000)
	if !ok || end.keys[0] != 5200 || end.events != 16000 || end.awayOf(LineConvoy) != 5200 || end.namedOf(LineConvoy) != 5200 {
		t.Errorf("projected to 16,000 events: %d keys, %d away from their first lanes, %d bytes of lane names (%v); want 5,200 each",
			end.keys[0], end.awayOf(LineConvoy), end.namedOf(LineConvoy), ok)
	}
	if _, ok := tr.at(at(8000, 4400), 8000); ok {
		t.Error("projected to the events already read; want no projection")
	}
}

// A spool cut short, as a temporary file truncated under a sweep would be,
// ends its replay with an error, not a panic: the record it stops in adds
// nothing to the batch, which stays whole.
func TestASpoolCutShortIsAnError(t *testing.T) {
	events := make([]Event, 100)
	for i := range events {
		events[i] = Event{Key: fmt.Sprint("k", i%7), Line: fmt.Sprint("L", i%3), Step: i/7 + 1, Duration: 1, Arrival: i}
	}
	configs := []Config{{Layout: Convoy, Consumers: 2}, {Layout: LineConvoy, Consumers: 2}}
	sp := newSweepSpool(len(configs))
	defer sp.drop()
	first := newSweepPass(configs, []int{0, 1}, sweepOptions{maxMemory: DefaultMaxMemory}, sweepSizes{}, sp)
	if err := first.feed(context.Background(), Values(events), len(events)); err != nil {
		t.Fatal(err)
	}
	if e := first.wait(); e != nil || !sp.keep(first.groups) || sp.file != nil {
		t.Fatalf("error %v; want a spool kept in memory", e)
	}
	for _, cut := range []int{1, 2, 5} {
		sp.buf = sp.buf[:len(sp.buf)-cut]
		p := newSweepPass(configs, []int{0, 1}, sweepOptions{maxMemory: DefaultMaxMemory}, first.sizes(), sp)
		err := p.replay(context.Background(), len(events))
		if e := p.wait(); e != nil {
			t.Fatal(e.err)
		}
		if err == nil || !strings.Contains(err.Error(), "reading the first pass again: unexpected EOF") {
			t.Errorf("cut by %d bytes: error %v; want the spool's unexpected end", cut, err)
		}
	}
}

// A spool whose bytes changed under the sweep (a disk fault: the file is
// the sweep's own, unlinked from the start) is an error or, where the
// change still reads as events of the first pass's keys, lines and lanes,
// a replay of those; never a panic, whichever byte changed to whatever.
func TestASpoolWhoseBytesChangedIsNeverAPanic(t *testing.T) {
	t.Parallel()
	events := make([]Event, 24)
	for i := range events {
		events[i] = Event{Key: fmt.Sprint("k", i%7), Line: fmt.Sprint("L", i%3), Step: i/7 + 1, Duration: 1, Arrival: i}
	}
	configs := []Config{{Layout: Convoy, Consumers: 2}, {Layout: LineConvoy, Consumers: 2}, {Layout: Free, Consumers: 2, orderedOnly: true}}
	sp := newSweepSpool(len(configs))
	defer sp.drop()
	first := newSweepPass(configs, []int{0, 1, 2}, sweepOptions{maxMemory: DefaultMaxMemory}, sweepSizes{}, sp)
	if err := first.feed(context.Background(), Values(events), len(events)); err != nil {
		t.Fatal(err)
	}
	if e := first.wait(); e != nil || !sp.keep(first.groups) || sp.file != nil {
		t.Fatalf("error %v; want a spool kept in memory", e)
	}
	good := slices.Clone(sp.buf)
	corrupt := 0
	for i := range good {
		for _, v := range []byte{0x00, 0x0f, 0x7f, 0x80, 0xff} {
			sp.buf = slices.Clone(good)
			sp.buf[i] = v
			p := newSweepPass(configs, []int{0, 1, 2}, sweepOptions{maxMemory: DefaultMaxMemory}, first.sizes(), sp)
			err := p.replay(context.Background(), len(events))
			p.wait()
			if err != nil && !strings.Contains(err.Error(), "konvoy: Sweep: reading the first pass again: ") {
				t.Fatalf("byte %d set to %#x: error %v; want one that says the spool could not be read again", i, v, err)
			}
			if err != nil && strings.Contains(err.Error(), errSpoolCorrupt.Error()) {
				corrupt++
			}
		}
	}
	if corrupt == 0 {
		t.Fatal("no changed byte was found corrupt")
	}
	sp.buf = slices.Clone(good)
	sp.buf[0] |= 0x10 // the first record's flags name a third group
	p := newSweepPass(configs, []int{0, 1, 2}, sweepOptions{maxMemory: DefaultMaxMemory}, first.sizes(), sp)
	err := p.replay(context.Background(), len(events))
	p.wait()
	if err == nil || !strings.Contains(err.Error(), errSpoolCorrupt.Error()) {
		t.Errorf("a record flagged for a third group: error %v; want the spool corrupt", err)
	}
}

// backloggedEvents returns n events of 7 keys on one line, arriving 5 a
// round with 2 rounds of work each on average: on 3 consumers, a
// lane-aware or static line-convoy run falls further behind with every
// event, and its backlog grows with n.
func backloggedEvents(n int) []Event {
	events := make([]Event, n)
	for i := range events {
		events[i] = Event{Key: sevenKeys[i%7], Line: "L", Step: 1 + i/7, Duration: 1 + i%3, Arrival: i / 5}
	}
	return events
}

// sevenKeys are the names of backloggedEvents' keys, made once.
var sevenKeys = [7]string{"K0", "K1", "K2", "K3", "K4", "K5", "K6"}

// heldRun runs l on consumers over events, as a sweep's worker would, and
// returns, after the first mid events and after all of them, the most bytes
// its backlog took by the plan at the end of a batch and at that point, the
// events it holds then, and the bytes it holds then, live after a
// collection: what a run of mid events, and one of all, would return at
// their ends, from one run.
func heldRun(t *testing.T, l Layout, consumers int, events []Event, mid int, opts ...Option) (peak, held [2]int, live [2]uint64) {
	t.Helper()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	s, err := NewSimulator(l, consumers, opts...)
	if err != nil {
		t.Fatal(err)
	}
	r := runOf(s)
	for i := range events {
		if err := s.Add(events[i]); err != nil {
			t.Fatal(err)
		}
		for k, end := range [2]int{mid, len(events)} {
			if i < end && (i%sweepBatch == sweepBatch-1 || i == end-1) {
				peak[k] = max(peak[k], r.backlogBytes())
			}
			if i == end-1 {
				runtime.GC()
				runtime.ReadMemStats(&after)
				n, _ := s.dispatch.held()
				held[k], live[k] = n+s.maxBuffered, after.HeapAlloc-before.HeapAlloc
			}
		}
	}
	runtime.KeepAlive(s)
	return peak, held, live
}

// What a sweep plans for an event a run's backlog holds is what the run
// keeps for it at the most, some twice what it keeps at the least, as its
// lists grow, so at most 2.5 times what it is found to keep: under each policy
// that holds a backlog, and under the resequencer, the live bytes of a run
// of 2n events less those of one of n, over the events it holds more. A
// plan for less would let a sweep outgrow its budget; one for far more
// would take passes it need not. The plan counts the sizes of a 64-bit
// platform; where int and pointers have 32 bits a held event takes about
// half, so there the plan may be up to 5 times what it is found to keep.
func TestSweepPlansWhatABacklogTakes(t *testing.T) {
	if !memtest.Alone(t) {
		return
	}
	const n = 30_000
	most := 2.5
	if bits.UintSize == 32 {
		most = 5
	}
	reseq := make([]Event, 2*n) // every key's step 1 last: the resequencer holds the rest
	for i := range reseq {
		reseq[i] = Event{Key: sevenKeys[i%7], Step: 2 + i/7, Duration: 1, Arrival: i}
	}
	for _, c := range []struct {
		name   string
		l      Layout
		events []Event
		opts   []Option
	}{
		{"lane-aware", LineConvoy, backloggedEvents(2 * n), []Option{WithPolicy(LaneAware)}},
		{"static", LineConvoy, backloggedEvents(2 * n), []Option{WithPolicy(Static)}},
		{"resequencer", Resequencer, reseq, nil},
		{"resequencer with a timeout", Resequencer, reseq, []Option{WithResequencer(ResequencerConfig{Timeout: math.MaxInt32})}},
	} {
		planned, held, live := heldRun(t, c.l, 3, c.events, n, c.opts...)
		more := float64(held[1] - held[0])
		if more < n/2 {
			t.Fatalf("%s: the run holds %.0f events more over %d more; want a backlog that grows", c.name, more, n)
		}
		kept, plan := (float64(live[1])-float64(live[0]))/more, float64(planned[1]-planned[0])/more
		t.Logf("%s: %.1f bytes kept an event held, %.1f planned", c.name, kept, plan)
		if plan < kept || plan > most*kept {
			t.Errorf("%s: %.1f bytes kept an event held; planned %.1f, want as much to %g times as much", c.name, kept, plan, most)
		}
	}
}

// A run whose backlog outgrows its share of the memory gives way to a
// later pass, as a run whose keys do: the pass that ran it beside four
// free runs, all of which fit by their keys, stops it as its backlog
// grows, the next pass runs it alone, and the results are those of the
// runs one by one. A run alone whose backlog cannot fit fails, naming the
// memory.
func TestARunWhoseBacklogOutgrowsItsShareGivesWay(t *testing.T) {
	if !memtest.Alone(t) {
		return
	}
	t.Setenv("TMPDIR", "/nonexistent/konvoy") // no spool: each pass reads the stream, and the reads count the passes
	events := backloggedEvents(20 * sweepBatch)
	var configs []Config
	for range 4 {
		configs = append(configs, Config{Layout: Free, Consumers: 3})
	}
	configs = append(configs, Config{Layout: LineConvoy, Consumers: 3, Options: []Option{WithPolicy(LaneAware)}})
	// What the runs take for their keys and lanes, and the backlog's most.
	p := newSweepPass(configs, []int{0, 1, 2, 3, 4}, sweepOptions{maxMemory: math.MaxInt}, sweepSizes{}, nil)
	if err := p.feed(context.Background(), Values(events), len(events)); err != nil {
		t.Fatal(err)
	}
	if e := p.wait(); e != nil {
		t.Fatal(e.err)
	}
	z, la := p.sizes(), p.runs[4]
	held := z.held[4]
	if held < 1<<20 || la.held != held {
		t.Fatalf("the lane-aware run's backlog took %d bytes; want a MiB or more", held)
	}
	la.held = 0
	has, tables := p.inputsOf()
	all, alone := planned(&z, p.runs, has, tables), planned(&z, p.runs[4:], has, tables)
	// The free runs fit beside the lane-aware run's keys and lanes, not
	// beside its backlog; it fits alone, backlog and all.
	budget := all + held - (all-alone)/2
	want := make([]Result, len(configs))
	for i, c := range configs {
		r, err := Simulate(events, c.Layout, c.Consumers, c.Options...)
		if err != nil {
			t.Fatal(err)
		}
		want[i] = r
	}
	reads := 0
	stream := readsCounted(events, &reads)
	got, err := Sweep(context.Background(), stream, configs, WithMaxMemory(budget))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Error("the sweep in passes differs from the runs one by one")
	}
	if reads != 2 {
		t.Errorf("the sweep read the stream %d times; want 2: the lane-aware run gives way to a second pass", reads)
	}
	// Alone, with room for its keys and lanes and some half its backlog:
	// 21/40 of it, between two of the batches at which its backlog is
	// known, 1/20 of it apart, so that the pass with a free run stops it
	// with more known than the room it would have alone.
	tooLittle := alone + held*21/40
	_, err = Sweep(context.Background(), stream, configs[4:], WithMaxMemory(tooLittle))
	var ev *EventError
	if !errors.As(err, &ev) || !errors.Is(err, ErrMemory) || !strings.Contains(err.Error(), "keys and their names, lanes and backlog") || ev.Index >= len(events)-1 {
		t.Fatalf("alone in too little memory: error %v; want ErrMemory before the last event", err)
	}
	// Where it fails does not depend on the pass it is alone in: after a
	// free run, in a second pass that knows its backlog from the first, it
	// fails at the same event, not at the pass's first batch.
	alone1 := ev.Index
	_, err = Sweep(context.Background(), stream, []Config{configs[0], configs[4]}, WithMaxMemory(tooLittle))
	if !errors.As(err, &ev) || !errors.Is(err, ErrMemory) || ev.Index != alone1 {
		t.Errorf("alone in a second pass: error %v; want ErrMemory at event %d, as alone in the first", err, alone1)
	}
}

// A resequencer keeps its held events in a queue, to apply the one that
// finished first, only under a Timeout or a Capacity, so a sweep plans a
// queue entry for an event it holds only then: without either, an event
// held is planned at less, and under either, at the same.
func TestSweepPlansAResequencerQueueOnlyUnderATimeoutOrACapacity(t *testing.T) {
	events := make([]Event, 1000) // every key's step 1 missing: the resequencer holds them all
	for i := range events {
		events[i] = Event{Key: fmt.Sprint("K", i%7), Step: 2 + i/7, Duration: 1, Arrival: i}
	}
	per := map[string]float64{}
	for name, opts := range map[string][]Option{
		"neither":    nil,
		"a timeout":  {WithResequencer(ResequencerConfig{Timeout: 1})},
		"a capacity": {WithResequencer(ResequencerConfig{Capacity: 1})},
	} {
		s, err := NewSimulator(Resequencer, 3, opts...)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range events {
			if err := s.Add(e); err != nil {
				t.Fatal(err)
			}
		}
		if s.maxBuffered < 1 {
			t.Fatalf("%s: the resequencer held nothing", name)
		}
		per[name] = float64(runOf(s).backlogBytes()) / float64(s.maxBuffered)
	}
	if per["neither"] <= 0 || per["neither"] >= per["a timeout"] || per["a timeout"] != per["a capacity"] {
		t.Errorf("bytes planned for an event held: %v; want less without a Timeout or a Capacity than with either, and the same with either", per)
	}
}

// A run alone in a pass fails by the memory it takes in this pass, its
// backlog so far (holds) in place of the most an earlier pass found it
// held: at exactly the budget it goes on, a byte over it fails, and the
// error names what it takes in this pass.
func TestARunAloneFailsByWhatItTakesInThisPass(t *testing.T) {
	events, p := fedBackloggedPass(t)
	r := p.runs[0]
	r.held, r.holds = 3000, 1000 // an earlier pass found it held more than this one has
	z := p.sizes()
	has, tables := p.inputsOf()
	used := planned(&z, p.runs[:1], has, tables)
	now := used - r.held + r.holds
	b := &sweepEvents{events: events[:1]}
	p.maxMemory = now
	if p.plan(b); p.memErr != nil || p.active != 1 {
		t.Fatalf("a run alone that takes %d bytes in this pass fails a budget of as much: %v", now, p.memErr.err)
	}
	p.maxMemory = now - 1
	if p.plan(b); p.memErr == nil {
		t.Fatalf("a run alone that takes %d bytes in this pass goes on in a budget of a byte less", now)
	}
	if msg := p.memErr.err.Error(); !errors.Is(p.memErr.err, ErrMemory) || !strings.Contains(msg, fmt.Sprintf("needs some %d bytes", now)) {
		t.Errorf("the error is %q; want ErrMemory and the %d bytes the run takes in this pass", msg, now)
	}
}

// A projection is cut short only beyond any memory, past 2³⁹ of a count
// (on a 64-bit platform), so that the plan's sums stay within int: ten
// billion keys are projected as they come, and a stream of MaxInt events
// that brings a key every other event projects 2³⁹−1 more keys, not more.
func TestSizeTrendCutsAProjectionShortOnlyBeyondAnyMemory(t *testing.T) {
	if bits.UintSize == 32 {
		t.Skip("ten billion keys are beyond a 32-bit int")
	}
	at := func(events, keys int) sweepSizes { return sweepSizes{events: events, keys: [2]int{keys, 0}} }
	tr := sizeTrend{before: at(1000, 500), last: at(2000, 1000)}
	// Variables, not constants, so that the test builds where int has 32 bits.
	tenBillion, cap39 := int64(10_000_000_000), int64(1)<<39
	if end, ok := tr.at(at(2000, 1000), 2000+2*int(tenBillion)); !ok || end.keys[0] != 1000+int(tenBillion) {
		t.Errorf("projected 20 billion events on at a key every other one: %d keys (%v); want 10,000,001,000", end.keys[0], ok)
	}
	if end, ok := tr.at(at(2000, 1000), math.MaxInt); !ok || end.keys[0] != 1000+int(cap39)-1 {
		t.Errorf("projected to MaxInt events: %d keys (%v); want 2³⁹−1 more than the 1,000 read", end.keys[0], ok)
	}
}

// A sweep that runs out of memory names the event it stopped at: its index
// in the stream and that event's key, however many batches it read before
// (a batch is planned before it is sent, when its start is not yet set).
func TestAMemoryErrorNamesTheEventItStopsAt(t *testing.T) {
	events := make([]Event, 60_000)
	for i := range events {
		events[i] = Event{Key: fmt.Sprint("k", i), Step: 1, Duration: 1, Arrival: i}
	}
	_, err := Sweep(context.Background(), Values(events), []Config{{Layout: Convoy, Consumers: 2}}, WithMaxMemory(6<<20))
	var ev *EventError
	if !errors.As(err, &ev) || !errors.Is(err, ErrMemory) || ev.Index < sweepAhead || ev.Index >= len(events) {
		t.Fatalf("error %v; want ErrMemory at an event past the first %d", err, sweepAhead)
	}
	if ev.Key != events[ev.Index].Key {
		t.Errorf("the error names event %d and key %q; event %d has key %q", ev.Index, ev.Key, ev.Index, events[ev.Index].Key)
	}
}

// A run alone can outgrow the budget at the plan of an empty batch, when
// the stream ends at a batch's end and the backlogs of the last batches
// come in: the error then names the last event read, by index, and does
// not panic.
func TestARunAloneCanFailAtAnEmptyBatch(t *testing.T) {
	events, p := fedBackloggedPass(t)
	z := p.sizes()
	has, tables := p.inputsOf()
	p.maxMemory = planned(&z, p.runs[:1], has, tables) - 1
	p.plan(&sweepEvents{})
	var ev *EventError
	if p.memErr == nil || p.memErr.index != len(events)-1 || !errors.As(p.memErr.err, &ev) || ev.Index != len(events)-1 || ev.Key != "" {
		t.Fatalf("out of memory at an empty batch after %d events: %+v; want ErrMemory at event %d", len(events), p.memErr, len(events)-1)
	}
}

// A run that does not fit even before the stream's first event, in a
// budget of a byte, fails with ErrMemory, naming no event, on an empty
// stream as on one with events, and does not panic.
func TestARunThatDoesNotFitEmptyFailsBeforeAnyEvent(t *testing.T) {
	for _, events := range [][]Event{nil, {{Key: "a", Step: 1, Duration: 1}}} {
		_, err := Sweep(context.Background(), Values(events), []Config{{Layout: Convoy, Consumers: 2}}, WithMaxMemory(1))
		var ev *EventError
		if !errors.Is(err, ErrMemory) {
			t.Fatalf("%d events in a budget of a byte: %v; want ErrMemory", len(events), err)
		}
		if isEvent := errors.As(err, &ev); isEvent != (len(events) > 0) || isEvent && ev.Index != 0 {
			t.Errorf("%d events in a budget of a byte: %v; want an EventError at event 0 exactly when there is one", len(events), err)
		}
	}
}

// fedBackloggedPass returns 100 backlogged events and a pass of one
// lane-aware line-convoy run, without a memory limit, that has read them
// all.
func fedBackloggedPass(t *testing.T) ([]Event, *sweepPass) {
	t.Helper()
	events := backloggedEvents(100)
	configs := []Config{{Layout: LineConvoy, Consumers: 3, Options: []Option{WithPolicy(LaneAware)}}}
	p := newSweepPass(configs, []int{0}, sweepOptions{maxMemory: math.MaxInt}, sweepSizes{}, nil)
	if err := p.feed(context.Background(), Values(events), len(events)); err != nil {
		t.Fatal(err)
	}
	if e := p.wait(); e != nil {
		t.Fatal(e.err)
	}
	return events, p
}

// What a run grows as it goes, beyond its backlog, counts in its plan
// after each batch too: its latency histograms' counts beyond the
// histogramBytes its fixed plan holds (a run whose waits and responses
// span every power of two takes some 800 KiB in them), and each lane
// whose total wait passed 2⁶⁴, an entry in a map of its own. Uncounted,
// a lane's carries ended konvoy in Go's fatal out-of-memory error under
// ulimit -v 2300000 (histograms that grow faster than the plan counts:
// TestRunsWhoseHistogramsOutgrowThePlanGiveWayAtOnce).
func TestSweepPlansWhatARunGrowsAsItGoes(t *testing.T) {
	s, _ := NewSimulator(Convoy, 1)
	r := runOf(s)
	if got := r.grownBytes(); got != 0 {
		t.Fatalf("an empty run grew %d bytes; want 0", got)
	}
	for i := range bits.UintSize - 2 { // waits of 2^i − 1 rounds, responses of 2^(i+1) − 1: every octave
		if err := s.Add(Event{Key: "K", Step: i + 1, Duration: 1 << i}); err != nil {
			t.Fatal(err)
		}
	}
	octaves := bits.UintSize - 1 - exactBits - 2 // the wait's and the response's, most of them
	if got, least := r.grownBytes(), 2*octaves*octaveSize*wordBytes-histogramBytes; got < least {
		t.Errorf("waits and responses of every length: the run grew %d bytes; want at least %d", got, least)
	}
	if _, err := s.Result(); err != nil {
		t.Fatal(err)
	}

	c, _ := NewSimulator(Convoy, 1)
	r = runOf(c)
	long := math.MaxInt / 4 * 3 // three events that wait as long pass 2⁶⁴ together, where int has 64 bits
	for i, d := range []int{long, 1, 1, 1} {
		if err := c.Add(Event{Key: "C", Step: i + 1, Duration: d}); err != nil {
			t.Fatal(err)
		}
	}
	carries := 0
	if bits.UintSize == 64 {
		carries = 1
	}
	if got, want := r.grownBytes()-max(0, c.waits.bytes()+c.responses.bytes()-histogramBytes), carries*carryBytes; got != want || len(c.laneCarry) != carries {
		t.Errorf("a lane whose waits passed 2⁶⁴: the run grew %d bytes beyond its histograms (%d lanes carried); want %d", got, len(c.laneCarry), want)
	}
}

// Runs whose latency histograms grow faster than the plan can see give
// way at once, rather than take the memory: the plan knows what runs grow
// as of a batch its workers are done with, and within the batches in
// flight each run's histograms can grow to some 800 KiB (here within 300
// events: durations of every power of two below 2^50). 3,570 such runs
// (konvoy -layouts all -policy all -consumers 1..170, on 13,056 events)
// took 2.7 GB under a plan of 1 GiB, and ended in Go's fatal out-of-memory
// error under ulimit -v 4000000. The workers count what the runs grow as
// they go, and stop the runs from the first that passes the room the plan
// left, and a sixteenth of the memory besides; the first run goes on (a
// pass ends one run at least), and a run let go leaves a reserve for its
// histograms to the next pass's plan. The results are those of one pass.
func TestRunsWhoseHistogramsOutgrowThePlanGiveWayAtOnce(t *testing.T) {
	events := make([]Event, 300)
	for i := range events {
		events[i] = Event{Key: "K", Step: i + 1, Duration: 1 << (i % (bits.UintSize - 14))}
	}
	const runs = 48
	configs := make([]Config, runs)
	for i := range configs {
		configs[i] = Config{Layout: Free, Consumers: 1}
	}
	grown := histogramsBeyond(mustSimulator(t, events)) // what each run grows, all of it within the one batch
	if grown < (bits.UintSize-14-exactBits-2)*octaveSize*wordBytes {
		t.Fatalf("a run grew %d bytes; want its histograms' octaves", grown)
	}
	pass := func(budget int) *sweepPass {
		p := newSweepPass(configs, slices.Collect(func(yield func(int) bool) {
			for i := range runs {
				if !yield(i) {
					return
				}
			}
		}), sweepOptions{maxMemory: budget}, sweepSizes{}, nil)
		if err := p.feed(context.Background(), Values(events), len(events)); err != nil {
			t.Fatal(err)
		}
		if e := p.wait(); e != nil {
			t.Fatal(e.err)
		}
		return p
	}
	unlimited := pass(math.MaxInt)
	if unlimited.active != runs {
		t.Fatalf("without a limit, %d of %d runs went through the pass", unlimited.active, runs)
	}
	z := unlimited.sizes()
	has, tables := unlimited.inputsOf()
	base := planned(&z, unlimited.runs, has, tables) // the plan of the runs, none grown
	want, err := Sweep(context.Background(), Values(events), configs)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name   string
		budget int
	}{
		{"a quarter of their growth", base + runs*grown/4},
		{"the plan alone", base},
	} {
		p := pass(c.budget)
		if p.active < 1 || p.active >= runs {
			t.Errorf("%s: %d of %d runs went through the pass; want some, not all", c.name, p.active, runs)
		}
		taken := 0
		for _, r := range p.runs[:p.active] {
			taken += histogramsBeyond(r.sim)
		}
		if got := int(p.grown.Load()); got != taken {
			t.Errorf("%s: the pass counts %d bytes grown; its runs took %d", c.name, got, taken)
		}
		// The room, and a run's growth a worker over it before it stops.
		if most := int(p.room.Load()) + runtime.GOMAXPROCS(0)*grown; taken > most {
			t.Errorf("%s: the runs that went on took %d bytes beyond the plan; want at most %d", c.name, taken, most)
		}
		// A run let go that took events reserves, for the next pass, what
		// its histograms take at most beyond the plan's histogramBytes.
		most := mostHistograms
		z := p.sizes()
		for _, r := range p.runs[p.active:] {
			if r.sim != nil {
				t.Fatalf("%s: a run that gave way keeps its state", c.name)
			}
			if r.gaveWay > 0 && r.reserve < most || z.reserve[r.config] != r.reserve {
				t.Errorf("%s: a run that gave way, having grown %d bytes, reserves %d for the next pass, which knows of %d; want %d", c.name, r.gaveWay, r.reserve, z.reserve[r.config], most)
			}
		}
		got, err := Sweep(context.Background(), Values(events), configs, WithMaxMemory(c.budget))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: the results differ from one pass's", c.name)
		}
	}
	// A budget of the plan alone leaves a sixteenth of it, less than a
	// run's histograms where int has 64 bits (not 32, where they are
	// smaller): only the first run goes on.
	if p := pass(base); base/lateGrowth < grown && p.active != 1 {
		t.Errorf("a budget with no room for one run's growth: %d runs went through the pass; want the first alone", p.active)
	}
	// Growth within a sixteenth of the memory beyond the plan goes on, as
	// the plan's own sees it late.
	if p := pass((base+runs*grown)*lateGrowth/(lateGrowth+1) + lateGrowth); p.active != runs {
		t.Errorf("growth within a sixteenth of the memory: %d of %d runs went through the pass; want all", p.active, runs)
	}
}

// dropFrom drops a worker's runs from the first stopped, by the reader's
// active or a worker's stopFrom, on, and leaves the others.
func TestDropFromDropsTheRunsStopped(t *testing.T) {
	p := &sweepPass{}
	for range 6 {
		s, _ := NewSimulator(Free, 1)
		p.runs = append(p.runs, runOf(s))
	}
	mine := []int{1, 3, 5}
	for _, c := range []struct{ active, stopFrom, end int }{{6, 6, 3}, {5, 6, 2}, {6, 3, 1}, {6, 4, 2}, {1, 6, 0}} {
		for _, r := range p.runs {
			r.sim = &Simulator{}
		}
		p.stopFrom.Store(int64(c.stopFrom))
		if end := p.dropFrom(mine, len(mine), c.active); end != c.end {
			t.Errorf("active %d, stopFrom %d: %d runs left; want %d", c.active, c.stopFrom, end, c.end)
		}
		for i, ri := range mine {
			if dropped := p.runs[ri].sim == nil; dropped != (i >= c.end) {
				t.Errorf("active %d, stopFrom %d: run %d dropped %v", c.active, c.stopFrom, ri, dropped)
			}
		}
	}
}

// The room the workers' count leaves the runs' histograms is what the plan
// leaves beside what their backlogs take now: 40 resequencer runs, each
// holding 6,000 events for a step that never comes, whose histograms then
// grow within a batch, under a budget with room for the backlogs and an
// eighth of the histograms. Counting the backlogs the plan knew as room
// for histograms, the runs that went on took 1.64 times the budget (found
// by a review), and a trace of the kind ended konvoy in Go's fatal
// out-of-memory error under ulimit -v 3000000.
func TestRunsWhoseHistogramsOutgrowThePlanGiveWayBesideTheirBacklogs(t *testing.T) {
	events := []Event{{Key: "A", Line: "LA", Step: 1, Duration: 1}}
	for i := range 6000 {
		events = append(events, Event{Key: "A", Line: "LA", Step: i + 3, Duration: 1}) // held for step 2
	}
	for i := range 9000 {
		events = append(events, Event{Key: "C", Line: "LC", Step: i + 1, Duration: 1})
	}
	for i := range 300 {
		events = append(events, Event{Key: "B", Line: "LB", Step: i + 1, Duration: 1 << (i % (bits.UintSize - 14))})
	}
	const runs = 40
	configs, todo := make([]Config, runs), make([]int, runs)
	for i := range configs {
		configs[i], todo[i] = Config{Layout: Resequencer, Consumers: 1}, i
	}
	pass := func(budget int) *sweepPass {
		p := newSweepPass(configs, todo, sweepOptions{maxMemory: budget}, sweepSizes{}, nil)
		if err := p.feed(context.Background(), Values(events), len(events)); err != nil {
			t.Fatal(err)
		}
		if e := p.wait(); e != nil {
			t.Fatal(e.err)
		}
		return p
	}
	// What the runs that went on take by the plan's own counts, with what
	// each has grown now, not as of a batch before.
	now := func(p *sweepPass) int {
		z := p.sizes()
		has, tables := p.inputsOf()
		went := p.runs[:p.active]
		for _, r := range went {
			r.held, r.reserve = 0, 0
		}
		used := planned(&z, went, has, tables)
		for _, r := range went {
			used += r.grownBytes()
		}
		return used
	}
	u := pass(math.MaxInt)
	hist := histogramsBeyond(u.runs[0].sim)
	budget := now(u) - runs*hist + runs*hist/8
	p := pass(budget)
	if bound, used := budget+budget/lateGrowth+runtime.GOMAXPROCS(0)*hist, now(p); used > bound || p.active == runs {
		t.Errorf("%d of %d runs went on, taking %d bytes by the plan's counts; want at most %d, the budget %d and a sixteenth, and a run's histograms a worker", p.active, runs, used, bound, budget)
	}
}

// giveWay counts what a run grew, and stops the runs from it on only when
// its histograms grew by more than fastGrowth in its batch and the runs
// take more than the room the plan left; never the first run.
func TestGiveWayStopsOnlyFastGrowthBeyondTheRoom(t *testing.T) {
	block := lowBlock * wordBytes
	for _, c := range []struct {
		name      string
		ri, grew  int // its histograms' growth
		backlog   int // what else it grew
		roomLess  int // room = what the runs take − roomLess
		stopsFrom int
	}{
		{"four octaves, over the room", 1, fastGrowth, 0, 1, 9},
		{"more, over the room", 1, fastGrowth + block, 0, 1, 1},
		{"more, at the room", 1, fastGrowth + block, 0, 0, 9},
		{"more, over the room by its backlog", 1, fastGrowth + block, 5000, 5000, 1},
		{"more, at the room with its backlog", 1, fastGrowth + block, 5000, 0, 9},
		{"more, over the room, the first run", 0, fastGrowth + block, 0, 1, 9},
	} {
		p := &sweepPass{}
		p.stopFrom.Store(9)
		s, _ := NewSimulator(Free, 1)
		s.waits.made = histogramBytes + c.grew
		r := runOf(s)
		g := c.grew + c.backlog
		p.room.Store(int64(g - c.roomLess))
		p.giveWay(c.ri, r, g)
		if got := p.stopFrom.Load(); got != int64(c.stopsFrom) || r.grown != g || r.hist != c.grew || r.fast != (c.grew > fastGrowth) || p.grown.Load() != int64(g) {
			t.Errorf("%s: the runs from %d on stop, run %d counted %d grown (%d histograms, fast %v), the pass %d; want from %d, and %d (%d)",
				c.name, got, c.ri, r.grown, r.hist, r.fast, p.grown.Load(), c.stopsFrom, g, c.grew)
		}
	}
	// A second batch counts only what the run grew since the first.
	p := &sweepPass{}
	p.stopFrom.Store(9)
	s, _ := NewSimulator(Free, 1)
	r := runOf(s)
	s.waits.made = histogramBytes + 2*fastGrowth
	p.room.Store(math.MaxInt64)
	p.giveWay(1, r, 2*fastGrowth)
	p.room.Store(0)
	s.waits.made += fastGrowth
	if p.giveWay(1, r, 3*fastGrowth); p.stopFrom.Load() != 9 || p.grown.Load() != 3*fastGrowth {
		t.Errorf("a second batch's four octaves: the runs from %d on stop, the pass counts %d; want none, %d", p.stopFrom.Load(), p.grown.Load(), 3*fastGrowth)
	}
}

// The end of a pass takes the runs stopped by a worker out of it, with
// their state, and leaves each run that gave way a reserve for the next
// pass: what it grew beyond what the plan knew, and its histograms'
// room; a run that went through the pass keeps none. The room the plan
// leaves the workers is the memory less the plan, with what the plan
// counts the runs to have grown, and a sixteenth of the memory.
func TestTheEndOfAPassLeavesTheRunsThatGaveWayAReserve(t *testing.T) {
	p := &sweepPass{maxMemory: 10 << 20}
	for range 4 {
		s, _ := NewSimulator(Free, 1)
		p.runs = append(p.runs, runOf(s))
	}
	p.active = 3
	p.stopFrom.Store(2)
	for i, r := range p.runs {
		r.held, r.reserve, r.peak, r.gaveReserve = 100*(i+1), 7, 1000, 50
	}
	z := sweepSizes{}
	room := p.maxMemory - planned(&z, p.runs[:3], [2]bool{}, [2][]Layout{}) + 3*7 + 100 + 200 + 300 + p.maxMemory/lateGrowth
	p.leaveRoom(&z, [2]bool{}, [2][]Layout{})
	if got := p.room.Load(); got != int64(room) {
		t.Errorf("the room left: %d; want %d", got, room)
	}
	p.wait()
	if p.active != 2 {
		t.Fatalf("%d runs went through the pass; want 2, those before the first stopped", p.active)
	}
	for i, r := range p.runs {
		want := 0
		if i >= 2 {
			want = 1000 - r.held + 50
		}
		if r.reserve != want || (r.sim == nil) != (i >= 2) {
			t.Errorf("run %d: a reserve of %d, state let go %v; want %d, %v", i, r.reserve, r.sim == nil, want, i >= 2)
		}
	}
}

// drop lets a run's state go, leaves what it grew for the next pass and,
// when its histograms grew fast, what they may still grow by, and takes
// what it grew out of the pass's count.
func TestDropLeavesWhatARunGrewAndItsHistogramsRoom(t *testing.T) {
	for _, c := range []struct {
		h    int
		fast bool
	}{{-histogramBytes, false}, {octaveSize * wordBytes, false}, {0, true}, {lowBlock * wordBytes, true}, {octaveSize * wordBytes, true}} {
		p := &sweepPass{}
		s, _ := NewSimulator(Free, 1)
		s.waits.made = histogramBytes + c.h
		r := runOf(s)
		r.peak, r.grown, r.fast = 3000, 2000, c.fast
		p.grown.Store(2007)
		p.drop(r)
		want := 0
		if c.fast {
			want = mostHistograms - max(0, c.h)
		}
		if r.sim != nil || r.gaveWay != 3000 || r.gaveReserve != want || r.grown != 0 || p.grown.Load() != 7 {
			t.Errorf("histograms %d beyond the plan, fast %v: state kept %v, left %d and %d, %d counted, the pass %d; want none, 3000 and %d, 0 and 7",
				c.h, c.fast, r.sim != nil, r.gaveWay, r.gaveReserve, r.grown, p.grown.Load(), want)
		}
	}
	var h histogram // every part made: each block below ExactLatency, each octave up to the largest int's
	for v := 0; v < ExactLatency; v += lowBlock {
		h.addElsewhere(v)
	}
	for v := ExactLatency; v > 0; v <<= 1 {
		h.addElsewhere(v)
	}
	h.addElsewhere(math.MaxInt)
	if mostHistograms != 2*h.bytes()-histogramBytes {
		t.Errorf("mostHistograms is %d; want what two histograms of every part take, %d, less histogramBytes", mostHistograms, 2*h.bytes())
	}
}

// A run's plan counts what its policy keeps beside its keys and lanes,
// and the resequencer's key of each key only when its configuration can
// make old steps.
func TestARunsPlanCountsWhatItsConfigurationKeeps(t *testing.T) {
	const keys, lanes, events = 100, 10, 1000
	plan := func(l Layout, o options) int {
		return runOf(&Simulator{layout: l, opts: o, consumers: consumerQueue{n: 2}}).bytes(keys, lanes, events)
	}
	base := plan(Convoy, options{policy: HeadOfLine})
	if got, want := plan(Convoy, options{policy: LaneAware})-base, laneAwareBytes+lanes*queueBytes; got != want {
		t.Errorf("lane-aware: %d bytes more than head-of-line; want %d", got, want)
	}
	if got, want := plan(Partitioned(4), options{policy: Static, assignor: RangeAssignor})-plan(Partitioned(4), options{policy: HeadOfLine}), lanes*ownerBytes; got != want {
		t.Errorf("static over partitions: %d bytes more than head-of-line; want %d", got, want)
	}
	// The plan of a sweep counts a run's lanes at the sizes read, none for
	// a layout without lanes.
	z := sweepSizes{keys: [2]int{keys, 0}, events: events, layouts: []Layout{Convoy}, lanes: []int{lanes}}
	convoy, free := runOf(&Simulator{layout: Convoy, consumers: consumerQueue{n: 2}}), runOf(&Simulator{layout: Free, consumers: consumerQueue{n: 2}})
	if got, want := planned(&z, []*sweepRun{convoy}, [2]bool{}, [2][]Layout{})-planned(&z, []*sweepRun{free}, [2]bool{}, [2][]Layout{}), convoy.bytes(keys, lanes, events)-free.bytes(keys, 0, events); got != want {
		t.Errorf("a convoy run's plan is %d bytes over a free run's at %d lanes; want %d", got, lanes, want)
	}
	for _, c := range []struct {
		reseq ResequencerConfig
		keeps bool
	}{{ResequencerConfig{}, false}, {ResequencerConfig{Timeout: 1}, true}, {ResequencerConfig{Capacity: 1}, true}, {ResequencerConfig{Start: StartFirstSeen}, true}} {
		if got := reseqKeys(Resequencer, options{reseq: c.reseq}); got != c.keeps || reseqKeys(Convoy, options{reseq: c.reseq}) {
			t.Errorf("%+v: the resequencer keeps a key's reseqKey %v; want %v, and none under the convoy", c.reseq, got, c.keeps)
		}
	}
}

// mustSimulator returns a Free run on one consumer that took events.
func mustSimulator(t *testing.T, events []Event) *Simulator {
	t.Helper()
	s, _ := NewSimulator(Free, 1)
	for _, e := range events {
		if err := s.Add(e); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

// A key's load in a lane other than its first, as when keys move between
// lines, takes an entry in its layout's lane table, planned at awayBytes
// each: 5,000,000 events whose keys kept moving ended konvoy in Go's fatal
// out-of-memory error under ulimit -v 2000000, uncounted.
func TestSweepPlansTheKeysAwayFromTheirFirstLanes(t *testing.T) {
	p := newSweepPass([]Config{{Layout: LineConvoy, Consumers: 1}}, []int{0}, sweepOptions{maxMemory: 1 << 30}, sweepSizes{}, nil)
	defer p.wait()
	b := p.batch()
	for i := range 30 { // K0 in lines 0 to 9, K1 in 0 and 1, each more than once
		line := i / 2 % 10
		if i%2 == 1 {
			line = i / 2 % 2
		}
		e := Event{Key: fmt.Sprint("K", i%2), Line: fmt.Sprint("L", line), Step: i/2 + 1, Duration: 1}
		p.intern(b, &e)
	}
	z := p.sizes()
	if got := z.awayOf(LineConvoy); got != 9+1 {
		t.Fatalf("%d loads away from their keys' first lanes; want 10 (K0's in 9 lines, K1's in 1)", got)
	}
	// A later pass counts the most any pass met: here K0 in two lines more.
	later := newSweepPass([]Config{{Layout: LineConvoy, Consumers: 1}}, []int{0}, sweepOptions{maxMemory: 1 << 30}, z, nil)
	defer later.wait()
	lb := later.batch()
	for i := range 12 {
		e := Event{Key: "K0", Line: fmt.Sprint("L", i), Step: i + 1, Duration: 1}
		later.intern(lb, &e)
	}
	if lz := later.sizes(); lz.awayOf(LineConvoy) != 11 {
		got := lz.awayOf(LineConvoy)
		t.Errorf("a later pass: %d loads away from their keys' first lanes; want 11, its own", got)
	}
	has, tables := p.inputsOf()
	without := z
	without.away = []int{0}
	if got, want := planned(&z, p.runs, has, tables)-planned(&without, p.runs, has, tables), 10*awayBytes; got != want {
		t.Errorf("the plan counts %d bytes for them; want %d", got, want)
	}
}

// The maps that grow as a run goes take what the plan counts for an
// entry, awayBytes and carryBytes, with their growth, and not many times
// less: a plan below what they take would let a sweep outgrow its budget.
func TestTheMapsARunGrowsTakeWhatThePlanCounts(t *testing.T) {
	if !memtest.Alone(t) {
		return
	}
	const n = 100_000
	away := memtest.Allocated(func() {
		m := make(map[laneKey]int)
		for i := range n {
			m[laneKey{i, i}] += i
		}
	})
	carries := memtest.Allocated(func() {
		m := make(map[int]uint64)
		for i := range n {
			m[i]++
		}
	})
	for _, c := range []struct {
		name          string
		took, planned int
	}{{"a key's load away from its first lane", int(away) / n, awayBytes}, {"a lane's carry", int(carries) / n, carryBytes}} {
		if c.took > c.planned || 3*c.took < c.planned {
			t.Errorf("%s takes %d bytes; the plan counts %d, want it no less, and at most three times as much", c.name, c.took, c.planned)

		}
	}
}

// A run needs, of a pass's inputs, its own group's and its own layout's
// lane table alone, whichever place the table has among the group's.
func TestOwnInputsAreARunsGroupAndTable(t *testing.T) {
	has, tables := [2]bool{true, true}, [2][]Layout{{Convoy, LineConvoy}, {Convoy}}
	for _, c := range []struct {
		layout Layout
		group  int
		want   []Layout
	}{{Convoy, 0, []Layout{Convoy}}, {LineConvoy, 0, []Layout{LineConvoy}}, {Free, 0, nil}, {Convoy, 1, []Layout{Convoy}}} {
		r := runOf(&Simulator{layout: c.layout})
		r.group = c.group
		own, ownTables := ownInputs(r, has, tables)
		if !own[c.group] || own[1-c.group] || !slices.EqualFunc(ownTables[c.group], c.want, Layout.Equal) || len(ownTables[1-c.group]) > 0 {
			t.Errorf("%s in group %d: %v, %v; want its group, and %v", c.layout, c.group, own, ownTables, c.want)
		}
	}
}

// A layout's lane names count as its own, beside its lanes, not as its
// group's: a pass's sizes count the bytes of the names its LaneFunc gave
// (here 3 lanes of 5 bytes), its group's names only the keys', and a later
// pass counts the most any pass met, its own when more.
func TestSweepPlansALayoutsLaneNamesAsItsOwn(t *testing.T) {
	named := NewLayout("named", func(e Event) (string, bool) { return "lane" + e.Line, true })
	p := newSweepPass([]Config{{Layout: named, Consumers: 1}}, []int{0}, sweepOptions{maxMemory: 1 << 30}, sweepSizes{}, nil)
	defer p.wait()
	b := p.batch()
	for i := range 6 {
		e := Event{Key: "K" + strconv.Itoa(i%2), Line: strconv.Itoa(i % 3), Step: i/2 + 1, Duration: 1}
		p.intern(b, &e)
	}
	z := p.sizes()
	if z.namedOf(named) != 3*5 || z.names[0] != 2*2 || z.namedOf(Convoy) != 0 {
		t.Fatalf("sizes: %d bytes of named's lane names, %d of the group's, %d of Convoy's; want 15, 4 (the keys') and 0", z.namedOf(named), z.names[0], z.namedOf(Convoy))
	}
	later := newSweepPass([]Config{{Layout: named, Consumers: 1}}, []int{0}, sweepOptions{maxMemory: 1 << 30}, z, nil)
	defer later.wait()
	lb := later.batch()
	for i := range 5 {
		e := Event{Key: "K0", Line: strconv.Itoa(10 + i), Step: i + 1, Duration: 1}
		later.intern(lb, &e)
	}
	if lz := later.sizes(); lz.namedOf(named) != 5*6 {
		got := lz.namedOf(named)
		t.Errorf("a later pass: %d bytes of lane names; want 30, its own 5 lanes of 6 bytes", got)
	}
}

// readsCounted returns a stream of events that counts in *reads the times
// it is ranged over: the passes that read it.
func readsCounted(events []Event, reads *int) iter.Seq2[Event, error] {
	return func(yield func(Event, error) bool) {
		*reads++
		for _, e := range events {
			if !yield(e, nil) {
				return
			}
		}
	}
}
