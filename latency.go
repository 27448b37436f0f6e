package konvoy

import (
	"cmp"
	"maps"
	"slices"
)

// Latency summarises one latency, in rounds, over every event of a run:
// exact nearest-rank percentiles (the smallest value that at least p% of the
// events do not exceed), the largest value and the mean. It is zero for an
// empty run.
type Latency struct {
	P50, P95, P99, Max int
	Mean               float64
}

// histogram counts integer latencies exactly: a dense count per value below
// denseLimit, a map for the rare larger ones. Its memory grows with the
// number of distinct values, never with the number of events.
type histogram struct {
	dense  []int
	sparse map[int]int
	n      int
	sum    float64
}

const denseLimit = 1 << 16

func (h *histogram) add(v int) {
	h.n++
	h.sum += float64(v)
	if v < denseLimit {
		if v >= len(h.dense) {
			h.dense = append(h.dense, make([]int, v+1-len(h.dense))...)
		}
		h.dense[v]++
		return
	}
	if h.sparse == nil {
		h.sparse = make(map[int]int)
	}
	h.sparse[v]++
}

// latency returns the summary. It takes O(d log d) time for d distinct
// values.
func (h *histogram) latency() Latency {
	if h.n == 0 {
		return Latency{}
	}
	values := make([]valueCount, 0, len(h.sparse))
	for v, c := range h.dense {
		if c > 0 {
			values = append(values, valueCount{v, c})
		}
	}
	for _, v := range slices.Sorted(maps.Keys(h.sparse)) {
		values = append(values, valueCount{v, h.sparse[v]})
	}
	return Latency{
		P50:  rank(values, h.n, 50),
		P95:  rank(values, h.n, 95),
		P99:  rank(values, h.n, 99),
		Max:  values[len(values)-1].value,
		Mean: h.sum / float64(h.n),
	}
}

type valueCount struct{ value, count int }

// rank returns the smallest value whose cumulative count reaches
// ⌈n·percent/100⌉, computed in integers so that no rounding creeps in.
func rank(values []valueCount, n, percent int) int {
	need := (n*percent + 99) / 100
	seen := 0
	for _, vc := range values {
		seen += vc.count
		if seen >= need {
			return vc.value
		}
	}
	return values[len(values)-1].value
}

// LaneWait is what events waited, from arrival to start, in one lane.
type LaneWait struct {
	Lane      string
	Events    int
	MaxWait   int
	TotalWait int
}

// worstLanes returns up to n lanes with the longest single wait, longest
// total wait among equals, then the lane opened first.
func worstLanes(lanes []lane, n int) []LaneWait {
	var order []int
	for i, l := range lanes {
		if l.opened >= 0 && l.events > 0 {
			order = append(order, i)
		}
	}
	slices.SortFunc(order, func(a, b int) int {
		la, lb := lanes[a], lanes[b]
		return cmp.Or(cmp.Compare(lb.maxWait, la.maxWait), cmp.Compare(lb.totalWait, la.totalWait), cmp.Compare(la.opened, lb.opened))
	})
	var out []LaneWait
	for _, i := range order[:min(n, len(order))] {
		l := lanes[i]
		out = append(out, LaneWait{Lane: l.name, Events: l.events, MaxWait: l.maxWait, TotalWait: l.totalWait})
	}
	return out
}
