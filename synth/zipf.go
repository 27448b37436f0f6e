package synth

// zipfWeight returns rank^−s, the Zipf weight of the item of rank ≥ 1.
func zipfWeight(rank int, s float64) float64 {
	if s == 0 {
		return 1
	}
	return dexp(float64(-s * dlog(float64(rank))))
}

// zipfTotal returns the sum of the Zipf weights of ranks 1 to n, added in
// rank order. It takes O(n) time.
func zipfTotal(n int, s float64) float64 {
	if s == 0 {
		return float64(n)
	}
	total := 0.0
	for r := 1; r <= n; r++ {
		total += zipfWeight(r, s)
	}
	return total
}

// apportion shares total whole units among n items in proportion to their
// Zipf weights with exponent s, by systematic apportionment with offset
// u in [0, 1): with W(r) the weights of ranks 1 to r over all weights, item r
// gets ⌊total·W(r) + u⌋ − ⌊total·W(r−1) + u⌋ units, which is its exact share
// rounded down or up, and the counts add up to total. It calls give for each
// item with a count above 0, in rank order, and takes O(n) time and O(1)
// memory.
func apportion(n int, s float64, total int, u float64, give func(rank, count int)) {
	if n <= 0 || total <= 0 {
		return
	}
	sum, all := 0.0, zipfTotal(n, s)
	t := float64(total)
	prev := 0 // ⌊u⌋
	for r := 1; r <= n; r++ {
		sum += zipfWeight(r, s)
		cut := total
		if r < n {
			// sum/all may round a little off, but the cuts never decrease
			// and the last one is exactly total.
			cut = min(int(float64(t*(sum/all))+u), total)
		}
		if cut > prev {
			give(r, cut-prev)
			prev = cut
		}
	}
}

// zipfThresholds returns the cumulative Zipf shares of ranks 1 to n−1 with
// exponent s, scaled to [0, 2^63]: a 63-bit number x falls to the first rank
// r with x < thresholds[r−1], or to rank n when there is none. It takes O(n)
// time and 8 bytes per rank.
func zipfThresholds(n int, s float64) []uint64 {
	th := make([]uint64, n-1)
	sum, all := 0.0, zipfTotal(n, s)
	for r := 1; r < n; r++ {
		sum += zipfWeight(r, s)
		th[r-1] = uint64(float64(min(sum/all, 1) * 0x1p63))
	}
	return th
}
