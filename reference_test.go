package konvoy_test

import (
	"cmp"
	"math"
	"math/big"
	"reflect"
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
// key's right final state (its highest step, the lesson's teslim). Besides
// the measures, it records each event's outcome and apply time (the lesson's
// uygula, event by event), so that Simulate's schedule is checked slot by
// slot. The plain versions of the other policies, and the configured
// resequencer (refResequenced, written from ResequencerConfig's
// documentation), follow.

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
	byFinish := refByFinish(finished)
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

// refByFinish returns events in finish order, ties by input index, as
// the lesson applies them; it sorts their positions, not the events, which
// are large.
func refByFinish(events []refEvent) []refEvent {
	order := make([]int, len(events))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { // indices differ: no ties
		return cmp.Or(cmp.Compare(events[a].finish, events[b].finish), cmp.Compare(events[a].index, events[b].index))
	})
	byFinish := make([]refEvent, len(events))
	for i, j := range order {
		byFinish[i] = events[j]
	}
	return byFinish
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
	seen := map[string]bool{}
	for _, e := range finished {
		if !seen[e.key] {
			seen[e.key] = true
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
	totalWait := map[string]*big.Int{}
	blocked := new(big.Int) // of Start − Taken, the rounds a consumer held an event before it could start
	for _, e := range finished {
		blocked.Add(blocked, big.NewInt(int64(e.start-e.taken)))
		waits = append(waits, e.start-e.arrival)
		responses = append(responses, e.finish-e.arrival)
		if e.lane != nil {
			w := laneWaits[*e.lane]
			if w == nil {
				w = &konvoy.LaneWait{Lane: *e.lane}
				laneWaits[*e.lane], totalWait[*e.lane] = w, new(big.Int)
			}
			w.Events++
			w.MaxWait = max(w.MaxWait, e.start-e.arrival)
			totalWait[*e.lane].Add(totalWait[*e.lane], big.NewInt(int64(e.start-e.arrival)))
		}
	}
	r.Wait, r.Response = refLatency(waits), refLatency(responses)
	if len(finished) > 0 {
		r.BlockedMean = refMean(blocked, len(finished))
	}
	var worst []konvoy.LaneWait
	for _, l := range laneOrder {
		w := laneWaits[l]
		w.MeanWait = refMean(totalWait[l], w.Events)
		worst = append(worst, *w)
	}
	sort.SliceStable(worst, func(i, j int) bool {
		if worst[i].MaxWait != worst[j].MaxWait {
			return worst[i].MaxWait > worst[j].MaxWait
		}
		return totalWait[worst[i].Lane].Cmp(totalWait[worst[j].Lane]) > 0
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
	sum := new(big.Int)
	for _, x := range v {
		sum.Add(sum, big.NewInt(int64(x)))
	}
	return konvoy.Latency{P50: at(0.50), P95: at(0.95), P99: at(0.99), Max: v[len(v)-1], Mean: refMean(sum, len(v))}
}

// refMean is sum/n rounded once to the nearest float64: latencies near
// the largest int add up past it.
func refMean(sum *big.Int, n int) float64 {
	m, _ := new(big.Rat).SetFrac(sum, big.NewInt(int64(n))).Float64()
	return m
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

// refDiff is gocmp.Diff(want, got, withinPrecision), made quick where the
// two schedules agree: their slots are compared as values first, and
// go-cmp's report, which walks every slot by reflection, is made of them
// only when they differ.
func refDiff(want, got konvoy.Result) string {
	if slices.Equal(want.Schedule, got.Schedule) {
		want.Schedule, got.Schedule = nil, nil
	}
	if reflect.DeepEqual(want, got) { // equal within any precision, and far quicker to tell
		return ""
	}
	return gocmp.Diff(want, got, withinPrecision)
}

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
				r.HeldRounds = refHeld(r.HeldRounds, e.finish-held[k][i].finish)
				state[k]++
				held[k] = slices.Delete(held[k], i, i+1)
				total--
			}
		}
	}
	r.NeverApplied = total
	return r
}

// refHeld adds d rounds held to the sum held, or returns -1, the
// reference's mark of a sum past the largest int (for which Simulate
// returns an error), when it passes it or has already.
func refHeld(held, d int) int {
	if held < 0 || held > math.MaxInt-d {
		return -1
	}
	return held + d
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

// refStaticDealt is the static policy, plainly, under a layout of
// partitions partitions (0 for a layout without them) whose partition lanes
// are dealt by assignor a, as Kafka's assignor of its name deals them:
// refRange or refRoundRobin; first-seen lanes, and every lane of a layout
// without partitions, go round-robin in the order they are first seen.
func refStaticDealt(partitions int, a konvoy.Assignor) func([]refEvent, int, func(refEvent) *string) []refEvent {
	return func(events []refEvent, consumers int, laneOf func(refEvent) *string) []refEvent {
		var owner []int
		switch {
		case partitions == 0 || a == konvoy.FirstSeenAssignor:
		case a == konvoy.RoundRobinAssignor:
			owner = refRoundRobin(partitions, consumers)
		default:
			owner = refRange(partitions, consumers)
		}
		return refStaticRun(events, consumers, laneOf, owner)
	}
}

// refRoundRobin is Kafka's RoundRobinAssignor for one topic of n partitions
// and c consumers: the partitions in numeric order dealt to the consumers in
// member order, one each in turn, as cards are. It returns each partition's
// consumer.
func refRoundRobin(n, c int) []int {
	owner := make([]int, n)
	next := 0
	for p := range owner {
		owner[p] = next
		if next++; next == c {
			next = 0
		}
	}
	return owner
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
	out := slices.Clone(events)
	taken := make([]bool, len(out))
	left := len(out)
	// Lanes by number, in order of appearance, so that the scans below
	// index laneFree rather than hash a lane's name: lane[i] is out[i]'s,
	// -1 for none.
	lane := make([]int, len(out))
	var laneFree []int
	number := map[string]int{}
	for i := range out {
		lane[i] = -1
		if laneOf != nil {
			out[i].lane = laneOf(out[i])
		}
		if out[i].lane == nil {
			continue
		}
		n, ok := number[*out[i].lane]
		if !ok {
			n = len(laneFree)
			number[*out[i].lane] = n
			laneFree = append(laneFree, 0)
		}
		lane[i] = n
	}
	ready := func(j, now int) bool {
		return out[j].arrival <= now && (lane[j] < 0 || laneFree[lane[j]] <= now)
	}
	// The events before lo are all taken, and those that arrive after now
	// cannot be ready: each scan runs from lo to the first of them.
	lo := 0
	now := 0
	for left > 0 {
		for {
			for lo < len(out) && taken[lo] {
				lo++
			}
			c := slices.IndexFunc(free, func(f int) bool { return f <= now }) // lowest index free
			i := -1
			for j := lo; j < len(out) && out[j].arrival <= now && c >= 0; j++ {
				if !taken[j] && ready(j, now) {
					i = j // the oldest ready
					break
				}
			}
			if c < 0 || i < 0 {
				break
			}
			taken[i], left = true, left-1
			out[i].consumer, out[i].taken, out[i].start, out[i].finish = c, now, now, now+out[i].duration
			free[c] = out[i].finish
			if lane[i] >= 0 {
				laneFree[lane[i]] = out[i].finish
			}
		}
		next := math.MaxInt
		for _, f := range free {
			if f > now {
				next = min(next, f)
			}
		}
		for j := lo; j < len(out); j++ {
			e := &out[j]
			if e.arrival > now {
				next = min(next, e.arrival) // and no later event is ready before it
				break
			}
			if !taken[j] && lane[j] >= 0 && laneFree[lane[j]] > now {
				next = min(next, laneFree[lane[j]])
			}
		}
		if left > 0 {
			now = next
		}
	}
	return out
}

// refResequenced runs events under the resequencer configured by cfg,
// dispatched by dispatch, and returns every measure and the schedule. The
// dispatch and the measures that do not depend on the handler are the
// lesson's reference (refScheduled); what the handler makes of each event
// is worked out by refKeys from ResequencerConfig's documentation, not from
// resequencer.go's design: each key keeps the set of steps it applied
// since its start or its last gap skipped, and the value it shows, rather
// than a watermark and a flag; a held event's timeout is a time of its own,
// met in time order among the events' finishes.
func refResequenced(events []konvoy.Event, consumers int, cfg konvoy.ResequencerConfig,
	dispatch func([]refEvent, int, func(refEvent) *string) []refEvent) konvoy.Result {
	r, finished := refMeasure(events, consumers, nil, "resequencer", dispatch)
	q := refKeys{cfg: cfg, keys: map[string]*refKey{}, out: finished}
	highest := map[string]int{}
	var keyOrder []string
	for _, e := range finished { // in input order
		if _, ok := highest[e.key]; !ok {
			keyOrder = append(keyOrder, e.key)
			q.keys[e.key] = &refKey{applied: map[int]bool{}, held: map[int]refEvent{}}
		}
		highest[e.key] = max(highest[e.key], e.step)
		if k := q.keys[e.key]; cfg.Start == konvoy.StartFirstSeen && !k.started && e.step > 0 {
			// The key starts where its first step in the input says:
			// it waits for that step, and has applied none below it.
			k.started, k.next, k.shows = true, e.step, e.step-1
		}
	}
	for _, k := range q.keys {
		if !k.started {
			k.next = 1
		}
	}
	byFinish := refByFinish(finished)
	for _, e := range byFinish {
		if e.step == 0 {
			continue // history only: refApply's outcome stands
		}
		q.timeUpBefore(e.finish)
		q.offer(e, e.finish)
	}
	q.timeUpBefore(math.MaxInt) // every timeout that is a time at all
	q.r.NeverApplied = 0
	for _, k := range q.keys {
		q.r.NeverApplied += len(k.held)
	}
	q.r.Rounds, q.r.Events, q.r.Keys, q.r.Work = r.Rounds, r.Events, r.Keys, r.Work
	q.r.Wait, q.r.Response, q.r.BlockedMean = r.Wait, r.Response, r.BlockedMean
	q.r.WrongKeys = nil
	for _, key := range keyOrder {
		if q.keys[key].shows != highest[key] {
			q.r.WrongKeys = append(q.r.WrongKeys, key)
		}
	}
	q.r.WrongFinal = len(q.r.WrongKeys)
	q.r.Schedule = refSlots(finished)
	return q.r
}

// refKey is one key under a configured resequencer.
type refKey struct {
	started bool             // under StartFirstSeen: its first step set its start
	next    int              // the step it waits for
	shows   int              // the step its state shows: the last one written
	applied map[int]bool     // the steps applied in order since its start or its last gap skipped
	held    map[int]refEvent // by step
}

// refKeys is the configured resequencer over every key.
type refKeys struct {
	cfg  konvoy.ResequencerConfig
	keys map[string]*refKey
	out  []refEvent // in input order: each event's outcome and apply time
	r    konvoy.Result
}

// set records what became of event e.
func (q *refKeys) set(e refEvent, o konvoy.Outcome, at int) {
	q.out[e.index].outcome, q.out[e.index].appliedAt = o, at
}

// holding counts the events held over all keys.
func (q *refKeys) holding() int {
	n := 0
	for _, k := range q.keys {
		n += len(k.held)
	}
	return n
}

// oldest returns the held event that finished first, ties in input order.
func (q *refKeys) oldest() (refEvent, bool) {
	var all []refEvent
	for _, k := range q.keys {
		for _, h := range k.held {
			all = append(all, h)
		}
	}
	if len(all) == 0 {
		return refEvent{}, false
	}
	return slices.MinFunc(all, func(a, b refEvent) int {
		return cmp.Or(cmp.Compare(a.finish, b.finish), cmp.Compare(a.index, b.index))
	}), true
}

// timeUpBefore applies, at its timeout, each held event whose time is up
// before now: finished Timeout rounds before it. A finish plus Timeout past
// the largest int is no time, and never comes.
func (q *refKeys) timeUpBefore(now int) {
	for q.cfg.Timeout > 0 {
		h, ok := q.oldest()
		if !ok || h.finish > math.MaxInt-q.cfg.Timeout {
			return
		}
		due := h.finish + q.cfg.Timeout
		if due >= now && now != math.MaxInt {
			return
		}
		q.force(h, due)
	}
}

// offer is what the resequencer does with event e when it is applied, at
// time now.
func (q *refKeys) offer(e refEvent, now int) {
	k := q.keys[e.key]
	_, isHeld := k.held[e.step]
	switch {
	case k.applied[e.step] || isHeld:
		q.r.Duplicates++
		q.set(e, konvoy.Duplicate, -1)
	case e.step < k.next:
		q.old(e, now)
	case e.step == k.next:
		q.write(e, now, konvoy.Applied)
	case q.cfg.Capacity > 0 && q.holding() >= q.cfg.Capacity:
		h, _ := q.oldest()
		q.force(h, now)
		q.offer(e, now) // the held event applied may have moved e's key
	default:
		k.held[e.step] = e
		q.set(e, konvoy.NeverApplied, -1) // until released
		q.r.Buffered++
		q.r.MaxBuffered = max(q.r.MaxBuffered, q.holding())
		q.r.MaxKeyBuffered = max(q.r.MaxKeyBuffered, len(k.held))
	}
}

// old handles e, a step below the one its key waits for that it never
// applied: rejected, or written backward.
func (q *refKeys) old(e refEvent, now int) {
	if q.cfg.RejectOld {
		q.r.RejectedOld++
		q.set(e, konvoy.RejectedOld, -1)
		return
	}
	q.r.BackwardWrites++
	q.keys[e.key].shows = e.step
	q.set(e, konvoy.WrittenBackward, now)
}

// write applies e, at or above the step its key waits for, at time now, as
// outcome o, forgetting the steps applied before a gap it skips; then every
// held step that follows on, as held.
func (q *refKeys) write(e refEvent, now int, o konvoy.Outcome) {
	k := q.keys[e.key]
	if e.step > k.next {
		q.r.GapsSkipped += e.step - k.next
		k.applied = map[int]bool{}
	}
	k.applied[e.step], k.next, k.shows = true, e.step+1, e.step
	q.set(e, o, now)
	if h, ok := k.held[k.next]; ok {
		delete(k.held, k.next)
		q.r.HeldRounds = refHeld(q.r.HeldRounds, now-h.finish)
		q.write(h, now, konvoy.Held)
	}
}

// force gives up, at time now, for held event h, the gap before the
// lowest step h's key holds: it applies that step's event, skipping the
// steps before it, or handles it as any event below the step its key
// waits for.
func (q *refKeys) force(h refEvent, now int) {
	k := q.keys[h.key]
	for step, e := range k.held {
		if step < h.step {
			h = e
		}
	}
	delete(k.held, h.step)
	q.r.Forced++
	q.r.HeldRounds = refHeld(q.r.HeldRounds, now-h.finish)
	if h.step < k.next {
		if k.applied[h.step] {
			q.r.Duplicates++
			q.set(h, konvoy.Duplicate, -1)
			return
		}
		q.old(h, now)
		return
	}
	q.write(h, now, konvoy.Held)
}
