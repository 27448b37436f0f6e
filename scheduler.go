package konvoy

// dispatcher is a dispatch policy with its own state: how consumers take
// events, and when the events they took are applied. The Simulator checks
// each event, its inputs number its key and find its lane (once for all the
// runs of a sweep), and it keeps what every policy shares
// (the consumers' queue, the lanes, the apply rule, the measures); its
// dispatcher decides the rest, calling started when an event starts and
// apply when it may be applied. NewSimulator picks the one dispatcher a run
// has (see newDispatcher), so nothing else asks which policy runs.
type dispatcher interface {
	// add dispatches event e, the next in input order (input index
	// Simulator.events), of lane ln (-1: none), and applies every event
	// that no event yet to come can finish before. e comes by value, in
	// registers.
	add(e task, ln int)
	// finish dispatches every event still held and applies every one
	// still waiting, at the end of a run.
	finish()
	// held returns the events the policy holds beyond one for each
	// consumer that has taken an event, and what they are, for the
	// backlog.
	held() (n int, what string)
	// holdsBacklog tells whether the policy can hold more events than
	// one for each consumer under layout l, whatever its handler; see
	// [Layout.HoldsBacklog].
	holdsBacklog(l Layout) bool
}

// newDispatcher returns the dispatcher of the policy o sets, for s, of
// layout l on c consumers (see dispatchedAs): the one place that asks
// which policy runs.
func newDispatcher(s *Simulator, l Layout, c int, o options) dispatcher {
	switch p := dispatchedAs(l, c, o); {
	case o.consumerPerEvent:
		return &unlimited{s: s, last: -1}
	case p == LaneAware:
		return &laneAware{s: s, vacant: -1}
	case p == Static:
		return &static{s: s}
	}
	return &headOfLine{s: s}
}

// dispatchedAs returns the policy whose dispatcher runs layout l on c
// consumers under options o: o's policy, or HeadOfLine for a run without
// lanes whose policy makes no difference.
//
// Without lanes the three policies run alike: each gives every event, in
// input order, to a consumer free by the time it can start, so the starts,
// finishes and applies agree (TestPoliciesWithoutLanesRunAlike). Only what
// no Result shows differs: which consumer takes an event, and the backlog
// counted, at most the consumers taken, and the resequencer's held events.
// So a run without lanes whose schedule names no consumers, and whose
// backlog limit, if any, is its consumers or more and holds no
// resequencer, gets the head-of-line dispatcher, the cheapest.
func dispatchedAs(l Layout, c int, o options) Policy {
	if l.lanes == noLanes && o.scheduleLimit == 0 && (o.maxBacklog == 0 || l.handler != resequence && o.maxBacklog >= c) {
		return HeadOfLine
	}
	return o.policy
}
