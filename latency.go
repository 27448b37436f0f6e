package konvoy

import (
	"cmp"
	"maps"
	"math/bits"
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

// histogram counts integer latencies exactly, in pages of pageSize
// consecutive values: memory grows with the ranges of values seen, never
// with the number of events. Consecutive events tend to have close
// latencies, so the page of the last value is kept at hand.
type histogram struct {
	pages    map[int]*page
	last     *page
	lastBase int
}

const pageSize = 1 << 12

type page [pageSize]int

// add counts one value v ≥ 0. It takes O(1) time, and a map lookup when v
// is on another page than the last value.
func (h *histogram) add(v int) {
	if base := v &^ (pageSize - 1); h.last == nil || base != h.lastBase {
		h.turnTo(base)
	}
	h.last[v&(pageSize-1)]++
}

// turnTo makes the page of values from base on the last page, adding it
// when it is new. It is kept apart from add so that add stays small enough
// to be inlined.
func (h *histogram) turnTo(base int) {
	if h.pages == nil {
		h.pages = make(map[int]*page)
	}
	p, ok := h.pages[base]
	if !ok {
		p = new(page)
		h.pages[base] = p
	}
	h.last, h.lastBase = p, base
}

// latency returns the summary. It takes O(p log p + p·pageSize) time for p
// pages. The mean is the exact sum of the values, kept in 128 bits, divided
// by their count, so it is rounded once.
func (h *histogram) latency() Latency {
	var values []valueCount
	n := 0
	var sumHi, sumLo uint64
	for _, base := range slices.Sorted(maps.Keys(h.pages)) {
		for i, c := range h.pages[base] {
			if c > 0 {
				values = append(values, valueCount{base + i, c})
				n += c
				hi, lo := bits.Mul64(uint64(base+i), uint64(c))
				var carry uint64
				sumLo, carry = bits.Add64(sumLo, lo, 0)
				sumHi += hi + carry
			}
		}
	}
	if n == 0 {
		return Latency{}
	}
	return Latency{
		P50:  rank(values, n, 50),
		P95:  rank(values, n, 95),
		P99:  rank(values, n, 99),
		Max:  values[len(values)-1].value,
		Mean: (float64(sumHi)*(1<<64) + float64(sumLo)) / float64(n),
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
// total wait among equals, then the lane opened first. It takes O(l·n) time
// for l lanes, keeping the n worst seen so far.
func (s *Simulator) worstLanes(n int) []LaneWait {
	worse := func(a, b int) bool {
		la, lb := s.lanes.at(a), s.lanes.at(b)
		return cmp.Or(cmp.Compare(lb.maxWait, la.maxWait), cmp.Compare(lb.totalWait, la.totalWait), cmp.Compare(la.opened, lb.opened)) < 0
	}
	var top []int
	for i := range s.lanes.len() {
		l := s.lanes.at(i)
		if l.opened < 0 || l.events == 0 || len(top) == n && !worse(i, top[n-1]) {
			continue
		}
		j := min(len(top), n-1)
		if len(top) < n {
			top = append(top, i)
		}
		for ; j > 0 && worse(i, top[j-1]); j-- {
			top[j] = top[j-1]
		}
		top[j] = i
	}
	var out []LaneWait
	for _, i := range top {
		l := s.lanes.at(i)
		out = append(out, LaneWait{Lane: s.laneName(i), Events: l.events, MaxWait: l.maxWait, TotalWait: l.totalWait})
	}
	return out
}
