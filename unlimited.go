package konvoy

import "math"

// unlimited is the dispatch of a run with a consumer for every event, the
// capacity planner's (see chainRounds): each event starts as soon as it has
// arrived and its lane is free, the least any number of consumers, under
// any policy, can do. Event i runs on consumer i, which takes it on
// arrival; the consumers' queue is not used. It holds the events not yet
// applied, and the lane that sets the run's length, with the arrival from
// which that lane has been busy without a break.
type unlimited struct {
	s        *Simulator
	pending  minHeap[finished] // events not applied yet, by finish and input index
	last     int               // the lane of the first event, in input order, to finish last; -1: none
	lastFrom int               // the round from which that event's lane, or the event alone, ran without a break
	from     []int             // by lane: the arrival that started its latest busy stretch
}

// withConsumerPerEvent makes a Simulator dispatch as unlimited does,
// whatever its policy and consumers.
func withConsumerPerEvent() Option {
	return func(o *options) { o.consumerPerEvent = true }
}

// add starts event e, interned, of lane ln (-1: none), when it has
// arrived and its lane is free, and applies the events finished by its
// arrival: every later event starts no earlier, and one that finishes then
// has a higher input index. It takes O(log n) time for n events not yet
// applied, plus O(log n) for each event applied.
func (u *unlimited) add(e task, ln int) {
	k := e.key
	s := u.s
	start, from := e.arrival, e.arrival
	if ln >= 0 {
		if ln >= len(u.from) {
			u.from = append(u.from, make([]int, ln+1-len(u.from))...)
		}
		if free := s.lanes.at(ln).free; free > start {
			start, from = free, u.from[ln] // the lane's stretch goes on
		}
		u.from[ln] = from
	}
	finish := start + e.duration
	if finish > s.rounds || s.events == 0 {
		u.last, u.lastFrom = ln, from
	}
	s.started(&e, s.events, ln, s.events, e.arrival, start)
	if e.step > 0 {
		u.pending.push(finish, s.events, finished{finish: finish, index: s.events, key: k, step: e.step})
	}
	s.applyPending(&u.pending, e.arrival)
}

// finish applies every event still pending, at the end of a run, in order
// of finish time, ties by input index.
func (u *unlimited) finish() { u.s.applyPending(&u.pending, math.MaxInt) }

// held returns the events taken but not yet applied, and what they are.
func (u *unlimited) held() (int, string) { return len(u.pending), "taken but not yet applied" }

// holdsBacklog is true: with a consumer for every event, every event runs
// at once and may wait to be applied.
func (u *unlimited) holdsBacklog(Layout) bool { return true }
