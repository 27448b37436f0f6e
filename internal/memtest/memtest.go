// Package memtest measures what code allocates, for the tests that bound
// konvoy's memory without timing anything.
package memtest

import "runtime"

// Allocated returns the bytes f allocates, collected or not: an upper bound
// on what f holds at its peak. It collects garbage first, and counts what
// every goroutine allocates meanwhile, so it means little while others run.
func Allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}
