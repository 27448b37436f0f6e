package konvoy_test

import (
	"math"
	"slices"
	"sort"
	"strconv"

	gocmp "github.com/google/go-cmp/cmp"
	"github.com/sirali-konvoy/konvoy"
)

// This file holds an independent, deliberately naive transliteration of the
// lesson's JavaScript model (olay.mjs: kosum, uygula, duzen), the reference
// every optimisation of Simulate is compared with. It keeps the lesson's
// shape, with its names in English (kosum is refHeadOfLine, uygula refApply,
// duzen refSimulate); the only additions are the library's documented rules
// for Step 0 (history only: never applied, never a backward write) and for a
// key's right final state (its highest step, the lesson's teslim).

// refEvent is one event as the reference runs it: the lesson's olay, with
// its place in the input and, once dispatched, its consumer, times and lane.
type refEvent struct {
	key, line      string
	step, duration int
	arrival        int // not in the lesson, which is a batch
	index          int // in the input
	consumer       int
	taken          int // when its consumer took it
	start          int
	finish         int
	lane           *string
	outcome        konvoy.Outcome // what the handler made of it
	appliedAt      int            // when it changed its key's state; -1 never
}

// refHeadOfLine is the lesson's kosum: dispatch in input order to the
// consumer that is free first (lowest index among ties), waiting for the
// lane.
func refHeadOfLine(events []refEvent, consumers int, laneOf func(refEvent) *string) []refEvent {
	free := make([]int, consumers)
	laneFree := map[string]int{}
	out := make([]refEvent, 0, len(events))
	for _, e := range events {
		c := slices.Index(free, slices.Min(free))
		var lane *string
		if laneOf != nil {
			lane = laneOf(e)
		}
		taken := max(free[c], e.arrival)
		start := taken
		if lane != nil {
			start = max(start, laneFree[*lane])
		}
		finish := start + e.duration
		free[c] = finish
		if lane != nil {
			laneFree[*lane] = finish
		}
		e.consumer, e.taken, e.start, e.finish, e.lane = c, taken, start, finish, lane
		out = append(out, e)
	}
	return out
}

// refApply is the lesson's uygula: apply in finish order, ties by input
// index; last writer wins, or the stamp skips backward writes, or the
// resequencer holds steps ahead of the next. It writes each event's outcome
// and apply time into finished, which is in input order.
func refApply(finished []refEvent, handler string) konvoy.Result {
	byFinish := slices.Clone(finished)
	sort.SliceStable(byFinish, func(i, j int) bool {
		if byFinish[i].finish != byFinish[j].finish {
			return byFinish[i].finish < byFinish[j].finish
		}
		return byFinish[i].index < byFinish[j].index
	})
	state := map[string]int{}
	var r konvoy.Result
	if handler == "resequencer" {
		r = refResequence(byFinish, state, finished)
	}
	for _, e := range byFinish {
		if e.step == 0 {
			// History only: done when it finishes, under every handler.
			finished[e.index].outcome, finished[e.index].appliedAt = konvoy.HistoryOnly, e.finish
			continue
		}
		if handler == "resequencer" {
			continue
		}
		current := state[e.key]
		finished[e.index].outcome, finished[e.index].appliedAt = konvoy.Applied, e.finish
		if e.step < current {
			r.BackwardWrites++
			finished[e.index].outcome = konvoy.WrittenBackward
			if handler == "version-stamp" {
				r.Skipped++
				finished[e.index].outcome, finished[e.index].appliedAt = konvoy.Skipped, -1
				continue
			}
		}
		state[e.key] = e.step
	}
	highest := map[string]int{}
	var keyOrder []string
	for _, e := range finished {
		if _, ok := highest[e.key]; !ok {
			keyOrder = append(keyOrder, e.key)
		}
		highest[e.key] = max(highest[e.key], e.step)
		r.Rounds = max(r.Rounds, e.finish)
	}
	for _, k := range keyOrder {
		if state[k] != highest[k] {
			r.WrongKeys = append(r.WrongKeys, k)
		}
	}
	r.WrongFinal = len(r.WrongKeys)
	r.Keys = len(keyOrder)
	return r
}

// refSimulate is the lesson's duzen for any lane function (nil: no lanes)
// and handler ("last-writer-wins", "version-stamp" or "resequencer"), under
// the lesson's head-of-line dispatch.
func refSimulate(events []konvoy.Event, consumers int, lane konvoy.LaneFunc, handler string) konvoy.Result {
	return refSimulateWith(events, consumers, lane, handler, refHeadOfLine)
}

// refRun dispatches events as dispatch does and returns them, in input
// order, with their consumers, starts and finishes.
func refRun(events []konvoy.Event, consumers int, lane konvoy.LaneFunc,
	dispatch func([]refEvent, int, func(refEvent) *string) []refEvent) []refEvent {
	refs := make([]refEvent, len(events))
	for i, e := range events {
		refs[i] = refEvent{key: e.Key, line: e.Line, step: e.Step, duration: e.Duration, arrival: e.Arrival, index: i}
	}
	var laneOf func(refEvent) *string
	if lane != nil {
		laneOf = func(e refEvent) *string {
			name, ok := lane(events[e.index])
			if !ok {
				return nil
			}
			return &name
		}
	}
	return dispatch(refs, consumers, laneOf)
}

// refSimulateWith is refSimulate with any dispatch.
func refSimulateWith(events []konvoy.Event, consumers int, lane konvoy.LaneFunc, handler string,
	dispatch func([]refEvent, int, func(refEvent) *string) []refEvent) konvoy.Result {
	r, _ := refMeasure(events, consumers, lane, handler, dispatch)
	return r
}

// refScheduled is refSimulateWith with the run's schedule, as WithSchedule
// keeps it: each event's consumer, lane, times, outcome and apply time.
func refScheduled(events []konvoy.Event, consumers int, lane konvoy.LaneFunc, handler string,
	dispatch func([]refEvent, int, func(refEvent) *string) []refEvent) konvoy.Result {
	r, finished := refMeasure(events, consumers, lane, handler, dispatch)
	r.Schedule = refSlots(finished)
	return r
}

// refSlots is the schedule of events run and applied by the reference, in
// input order.
func refSlots(finished []refEvent) []konvoy.Slot {
	slots := make([]konvoy.Slot, 0, len(finished))
	for _, e := range finished {
		lane := ""
		if e.lane != nil {
			lane = *e.lane
		}
		slots = append(slots, konvoy.Slot{Index: e.index, Key: e.key, Lane: lane, Consumer: e.consumer, Arrival: e.arrival,
			Taken: e.taken, Start: e.start, Finish: e.finish, Outcome: e.outcome, AppliedAt: e.appliedAt})
	}
	return slots
}

// refMeasure runs events through the reference and returns its measures and
// the events run, in input order, with their outcomes.
func refMeasure(events []konvoy.Event, consumers int, lane konvoy.LaneFunc, handler string,
	dispatch func([]refEvent, int, func(refEvent) *string) []refEvent) (konvoy.Result, []refEvent) {
	finished := refRun(events, consumers, lane, dispatch)
	r := refApply(finished, handler)
	load := map[string]int{}
	keyLoad := map[[2]string]int{} // [lane, key] → load
	var laneOrder, keyOrder []string
	for _, e := range finished {
		if !slices.Contains(keyOrder, e.key) {
			keyOrder = append(keyOrder, e.key)
		}
		if e.lane != nil {
			if _, ok := load[*e.lane]; !ok {
				laneOrder = append(laneOrder, *e.lane)
			}
			load[*e.lane] += e.duration
			keyLoad[[2]string{*e.lane, e.key}] += e.duration
		}
		r.Work += e.duration
	}
	r.Lanes = len(load)
	heaviest := 0
	for _, l := range laneOrder {
		heaviest = max(heaviest, load[l])
	}
	// Among the heaviest lanes, the one whose heaviest key carries most,
	// then the first opened; in it, the heaviest key, then the first seen.
	for _, l := range laneOrder {
		if load[l] != heaviest {
			continue
		}
		for _, k := range keyOrder {
			kl, ok := keyLoad[[2]string{l, k}]
			if ok && (kl > r.HeaviestKeyLoad || r.HeaviestKey == "") {
				r.HeaviestLane, r.HeaviestLaneName, r.HeaviestKey, r.HeaviestKeyLoad = load[l], l, k, kl
			}
		}
	}
	r.Events = len(events)
	var waits, responses []int
	laneWaits := map[string]*konvoy.LaneWait{}
	totalWait := map[string]int{}
	for _, e := range finished {
		waits = append(waits, e.start-e.arrival)
		responses = append(responses, e.finish-e.arrival)
		if e.lane != nil {
			w := laneWaits[*e.lane]
			if w == nil {
				w = &konvoy.LaneWait{Lane: *e.lane}
				laneWaits[*e.lane] = w
			}
			w.Events++
			w.MaxWait = max(w.MaxWait, e.start-e.arrival)
			totalWait[*e.lane] += e.start - e.arrival
		}
	}
	r.Wait, r.Response = refLatency(waits), refLatency(responses)
	var worst []konvoy.LaneWait
	for _, l := range laneOrder {
		w := laneWaits[l]
		w.MeanWait = float64(totalWait[l]) / float64(w.Events)
		worst = append(worst, *w)
	}
	sort.SliceStable(worst, func(i, j int) bool {
		if worst[i].MaxWait != worst[j].MaxWait {
			return worst[i].MaxWait > worst[j].MaxWait
		}
		return totalWait[worst[i].Lane] > totalWait[worst[j].Lane]
	})
	if len(worst) > 0 {
		r.WorstLanes = worst[:min(5, len(worst))]
	}
	return r, finished
}

// refLatency sorts every value and reads the nearest ranks off the list.
func refLatency(v []int) konvoy.Latency {
	if len(v) == 0 {
		return konvoy.Latency{}
	}
	slices.Sort(v)
	at := func(p float64) int { return v[int(math.Ceil(p*float64(len(v))-1e-9))-1] }
	sum := 0
	for _, x := range v {
		sum += x
	}
	return konvoy.Latency{P50: at(0.50), P95: at(0.95), P99: at(0.99), Max: v[len(v)-1], Mean: float64(sum) / float64(len(v))}
}

// withinPrecision compares a Latency from Simulate with one from refLatency
// as Latency's documentation promises: Max and Mean exactly, and each
// percentile exactly below konvoy.ExactLatency and, at or above it, within
// 1/1024 of the exact one. (That the reported percentile is never below the
// exact one is TestLatencyPercentilesKeepTheirPrecision's; a Comparer must
// be symmetric.)
var withinPrecision = gocmp.Comparer(func(a, b konvoy.Latency) bool {
	close := func(x, y int) bool {
		lo, hi := min(x, y), max(x, y)
		if lo < konvoy.ExactLatency {
			return x == y
		}
		return (hi-lo)*1024 < lo
	}
	return a.Max == b.Max && a.Mean == b.Mean && close(a.P50, b.P50) && close(a.P95, b.P95) && close(a.P99, b.P99)
})

// refResequence applies events in apply order through a resequencer kept as
// plain lists: a key's held steps are scanned, not searched. It writes each
// event's outcome and apply time into out, which is in input order.
func refResequence(byFinish []refEvent, state map[string]int, out []refEvent) konvoy.Result {
	var r konvoy.Result
	held := map[string][]refEvent{}
	total := 0
	for _, e := range byFinish {
		if e.step == 0 {
			continue
		}
		k := e.key
		expected := state[k] + 1
		duplicate := e.step < expected || slices.ContainsFunc(held[k], func(h refEvent) bool { return h.step == e.step })
		switch {
		case duplicate:
			r.Duplicates++
			out[e.index].outcome, out[e.index].appliedAt = konvoy.Duplicate, -1
		case e.step > expected:
			out[e.index].outcome, out[e.index].appliedAt = konvoy.NeverApplied, -1 // until released
			held[k] = append(held[k], e)
			r.Buffered++
			total++
			r.MaxBuffered = max(r.MaxBuffered, total)
			r.MaxKeyBuffered = max(r.MaxKeyBuffered, len(held[k]))
		default:
			state[k] = e.step
			out[e.index].outcome, out[e.index].appliedAt = konvoy.Applied, e.finish
			for {
				i := slices.IndexFunc(held[k], func(h refEvent) bool { return h.step == state[k]+1 })
				if i < 0 {
					break
				}
				out[held[k][i].index].outcome, out[held[k][i].index].appliedAt = konvoy.Held, e.finish
				r.HeldRounds += e.finish - held[k][i].finish
				state[k]++
				held[k] = slices.Delete(held[k], i, i+1)
				total--
			}
		}
	}
	r.NeverApplied = total
	return r
}

// refStatic is the static policy, plainly: a lane belongs to consumer
// (order in which the lane was first seen) mod c; an event without a lane
// goes to the consumer free first.
func refStatic(events []refEvent, consumers int, laneOf func(refEvent) *string) []refEvent {
	return refStaticOf(0)(events, consumers, laneOf)
}

// refStaticOf is the static policy, plainly, under a layout of partitions
// partitions, whose lanes are named by partition number and dealt by Kafka's
// range assignor (see refRange); with 0 partitions it is refStatic.
func refStaticOf(partitions int) func([]refEvent, int, func(refEvent) *string) []refEvent {
	return func(events []refEvent, consumers int, laneOf func(refEvent) *string) []refEvent {
		return refStaticRun(events, consumers, laneOf, refRange(partitions, consumers))
	}
}

// refRange is Kafka's RangeAssignor for one topic of n partitions and c
// consumers, as its documentation says: the partitions in numeric order, the
// consumers in member order, each consumer taking n/c of them in a run, the
// first n%c one more. It returns each partition's consumer.
func refRange(n, c int) []int {
	var owner []int
	for i := range c {
		count := n / c
		if i < n%c {
			count++
		}
		for range count {
			owner = append(owner, i)
		}
	}
	return owner
}

// refStaticRun is the static policy, plainly, with partition lanes dealt by
// partitionOwner when it is not nil.
func refStaticRun(events []refEvent, consumers int, laneOf func(refEvent) *string, partitionOwner []int) []refEvent {
	free := make([]int, consumers)
	laneFree := map[string]int{}
	owner := map[string]int{}
	out := make([]refEvent, 0, len(events))
	for _, e := range events {
		var lane *string
		if laneOf != nil {
			lane = laneOf(e)
		}
		c := slices.Index(free, slices.Min(free))
		taken := max(free[c], e.arrival)
		start := taken
		if lane != nil {
			if _, ok := owner[*lane]; !ok {
				owner[*lane] = len(owner) % consumers
				if partitionOwner != nil {
					p, _ := strconv.Atoi(*lane)
					owner[*lane] = partitionOwner[p]
				}
			}
			c = owner[*lane]
			taken = max(free[c], e.arrival)
			start = max(taken, laneFree[*lane])
		}
		finish := start + e.duration
		free[c] = finish
		if lane != nil {
			laneFree[*lane] = finish
		}
		e.consumer, e.taken, e.start, e.finish, e.lane = c, taken, start, finish, lane
		out = append(out, e)
	}
	return out
}

// refLaneAware is the lane-aware policy with the whole input known: at each
// time, while a consumer is free and an arrived event's lane is free, the
// free consumer with the lowest index takes the oldest such event; then time
// moves to the next finish, arrival or lane coming free.
func refLaneAware(events []refEvent, consumers int, laneOf func(refEvent) *string) []refEvent {
	free := make([]int, consumers)
	laneFree := map[string]int{}
	out := slices.Clone(events)
	taken := make([]bool, len(out))
	left := len(out)
	for i := range out {
		if laneOf != nil {
			out[i].lane = laneOf(out[i])
		}
	}
	ready := func(e refEvent, now int) bool {
		return e.arrival <= now && (e.lane == nil || laneFree[*e.lane] <= now)
	}
	now := 0
	for left > 0 {
		for {
			c := slices.IndexFunc(free, func(f int) bool { return f <= now }) // lowest index free
			i := slices.IndexFunc(out, func(e refEvent) bool { return !taken[e.index] && ready(e, now) })
			if c < 0 || i < 0 {
				break
			}
			taken[i], left = true, left-1
			out[i].consumer, out[i].taken, out[i].start, out[i].finish = c, now, now, now+out[i].duration
			free[c] = out[i].finish
			if out[i].lane != nil {
				laneFree[*out[i].lane] = out[i].finish
			}
		}
		next := math.MaxInt
		for _, f := range free {
			if f > now {
				next = min(next, f)
			}
		}
		for i, e := range out {
			if taken[i] {
				continue
			}
			if e.arrival > now {
				next = min(next, e.arrival)
			}
			if e.lane != nil && laneFree[*e.lane] > now {
				next = min(next, laneFree[*e.lane])
			}
		}
		if left > 0 {
			now = next
		}
	}
	return out
}

// refSimulateReseq is refSimulate under the resequencer configured by cfg:
// the lesson's dispatch, then refReseq in apply order.
func refSimulateReseq(events []konvoy.Event, consumers int, cfg konvoy.ResequencerConfig) konvoy.Result {
	r := refSimulate(events, consumers, nil, "resequencer")
	finished := refRun(events, consumers, nil, refHeadOfLine)
	byFinish := slices.Clone(finished)
	sort.SliceStable(byFinish, func(i, j int) bool {
		if byFinish[i].finish != byFinish[j].finish {
			return byFinish[i].finish < byFinish[j].finish
		}
		return byFinish[i].index < byFinish[j].index
	})
	q := refReseq{cfg: cfg, state: map[string]int{}, low: map[string]int{}, backward: map[string]bool{}}
	if cfg.Start == konvoy.StartFirstSeen {
		for _, e := range finished { // in input order
			if _, ok := q.low[e.key]; !ok && e.step > 0 {
				q.state[e.key], q.low[e.key] = e.step-1, e.step
			}
		}
	}
	for _, e := range byFinish {
		if e.step == 0 {
			continue
		}
		for cfg.Timeout > 0 {
			h, ok := q.first()
			if !ok || h.finish+cfg.Timeout >= e.finish {
				break
			}
			q.force(h, h.finish+cfg.Timeout)
		}
		q.handle(e, e.finish)
	}
	for cfg.Timeout > 0 {
		h, ok := q.first()
		if !ok {
			break
		}
		q.force(h, h.finish+cfg.Timeout)
	}
	backward := r.BackwardWrites
	r.Duplicates, r.Buffered, r.MaxBuffered, r.MaxKeyBuffered = q.r.Duplicates, q.r.Buffered, q.r.MaxBuffered, q.r.MaxKeyBuffered
	r.HeldRounds, r.NeverApplied, r.GapsSkipped, r.RejectedOld, r.Forced = q.r.HeldRounds, len(q.held), q.r.GapsSkipped, q.r.RejectedOld, q.r.Forced
	r.BackwardWrites = backward + q.r.BackwardWrites
	highest := map[string]int{}
	var keyOrder []string
	for _, e := range finished {
		if _, ok := highest[e.key]; !ok {
			keyOrder = append(keyOrder, e.key)
		}
		highest[e.key] = max(highest[e.key], e.step)
	}
	r.WrongKeys = nil
	for _, k := range keyOrder {
		if q.state[k] != highest[k] || q.backward[k] {
			r.WrongKeys = append(r.WrongKeys, k)
		}
	}
	r.WrongFinal = len(r.WrongKeys)
	return r
}

// refReseq is the configured resequencer kept as plain lists: every held
// event in one list, scanned for the one that finished first and for a
// key's next step.
type refReseq struct {
	cfg      konvoy.ResequencerConfig
	state    map[string]int  // the key's last step applied
	low      map[string]int  // the lowest step applied without a gap since the start or the last gap skipped
	backward map[string]bool // the key's value was last written backward by an old step
	held     []refEvent
	r        konvoy.Result
}

// first returns the held event that finished first (ties: input order).
func (q *refReseq) first() (refEvent, bool) {
	if len(q.held) == 0 {
		return refEvent{}, false
	}
	return slices.MinFunc(q.held, func(a, b refEvent) int {
		if a.finish != b.finish {
			return a.finish - b.finish
		}
		return a.index - b.index
	}), true
}

// remove takes held event e off the list.
func (q *refReseq) remove(e refEvent) {
	q.held = slices.DeleteFunc(q.held, func(h refEvent) bool { return h.index == e.index })
}

// handle is the resequencer's rule for event e at time now.
func (q *refReseq) handle(e refEvent, now int) {
	k := e.key
	switch {
	case e.step <= q.state[k]:
		q.old(e)
	case e.step == q.state[k]+1:
		q.advance(e, now)
	case slices.ContainsFunc(q.held, func(h refEvent) bool { return h.key == k && h.step == e.step }):
		q.r.Duplicates++
	case q.cfg.Capacity > 0 && len(q.held) >= q.cfg.Capacity:
		h, _ := q.first()
		q.force(h, now)
		q.handle(e, now)
	default:
		q.held = append(q.held, e)
		q.r.Buffered++
		q.r.MaxBuffered = max(q.r.MaxBuffered, len(q.held))
		n := 0
		for _, h := range q.held {
			if h.key == k {
				n++
			}
		}
		q.r.MaxKeyBuffered = max(q.r.MaxKeyBuffered, n)
	}
}

// old handles e, at or below its key's state: a duplicate of a step
// applied, or an old step, rejected or written backward.
func (q *refReseq) old(e refEvent) {
	switch {
	case e.step >= q.low[e.key]:
		q.r.Duplicates++
	case q.cfg.RejectOld:
		q.r.RejectedOld++
	default:
		q.r.BackwardWrites++
		q.backward[e.key] = true
	}
}

// advance applies e, above its key's state, skipping any gap, then the held
// steps that follow on, at time now.
func (q *refReseq) advance(e refEvent, now int) {
	k := e.key
	if e.step > q.state[k]+1 {
		q.r.GapsSkipped += e.step - q.state[k] - 1
		q.low[k] = e.step
	}
	q.state[k], q.backward[k] = e.step, false
	for {
		i := slices.IndexFunc(q.held, func(h refEvent) bool { return h.key == k && h.step == q.state[k]+1 })
		if i < 0 {
			return
		}
		q.r.HeldRounds += now - q.held[i].finish
		q.state[k]++
		q.held = slices.Delete(q.held, i, i+1)
	}
}

// force applies held event h at time now, its gap skipped, or handles it as
// an old step.
func (q *refReseq) force(h refEvent, now int) {
	q.remove(h)
	q.r.HeldRounds += now - h.finish
	q.r.Forced++
	if h.step <= q.state[h.key] {
		q.old(h)
		return
	}
	q.advance(h, now)
}
