package konvoy

// unlimited is the dispatch of a run with a consumer for every event, the
// capacity planner's (see chainRounds): each event starts as soon as it has
// arrived and its lane is free, the least any number of consumers, under
// any policy, can do. Event i runs on consumer i, which takes it on
// arrival; the consumers' queue is not used. It keeps the lane that sets
// the run's length, with the arrival from which that lane has been busy
// without a break. Its users, the planners, read a run's times alone (its
// rounds, work, ceiling lane and latencies), so it applies no event: a
// batch of n events would otherwise hold all n until the end, and memory
// would grow with the events. Its Result's measures of keys' states
// (backward writes, wrong final states, the resequencer's counts) are
// therefore not the run's, and no planner reads them.
type unlimited struct {
	s        *Simulator
	last     int   // the lane of the first event, in input order, to finish last; -1: none
	lastFrom int   // the round from which that event's lane, or the event alone, ran without a break
	from     []int // by lane: the arrival that started its latest busy stretch
}

// withConsumerPerEvent makes a Simulator dispatch as unlimited does,
// whatever its policy and consumers.
func withConsumerPerEvent() Option {
	return func(o *options) { o.consumerPerEvent = true }
}

// add starts event e, interned, of lane ln (-1: none), when it has
// arrived and its lane is free, in O(1) time.
func (u *unlimited) add(e task, ln int) {
	s := u.s
	start, from := e.arrival, e.arrival
	if ln >= 0 {
		if ln >= len(u.from) {
			u.from = append(u.from, make([]int, ln+1-len(u.from))...)
		}
		if free := s.lanes.at(ln).free; free >= start {
			start, from = free, u.from[ln] // the lane's stretch goes on
		}
		u.from[ln] = from
	}
	finish := start + e.duration
	if finish > s.rounds || s.events == 0 {
		u.last, u.lastFrom = ln, from
	}
	s.started(&e, s.events, ln, s.events, e.arrival, start)
}

// finish does nothing: no event waits to be applied.
func (u *unlimited) finish() {}

// held returns 0: no event waits to be applied.
func (u *unlimited) held() (int, string) { return 0, "taken but not yet applied" }

// holdsBacklog is false: no event waits to be applied.
func (u *unlimited) holdsBacklog(Layout) bool { return false }
