//go:build linux && cgo

package main

// konvoy links cgo through package net (konvoy serve, and franz-go for
// konvoy replay -brokers), so the Go runtime starts its threads through
// the C library, and glibc gives each thread that calls malloc an arena of
// its own, reserving 64 MiB of address space for each (up to eight a
// processor). konvoy's Go code never calls malloc, yet seven threads took
// 448 MiB this way, which under ulimit -v is address space the runs do
// not get, and which, as threads came and went, ended a run that planned
// for what it saw at start in Go's fatal out-of-memory error (2,000,000
// keys under every layout, ulimit -v 2200000: 1 run in 9). oneArena, a
// constructor, runs before the runtime starts its first thread and has
// every thread share glibc's main arena. Elsewhere it does nothing.

/*
#include <malloc.h>

__attribute__((constructor)) static void oneArena(void) {
#if defined(__GLIBC__) && defined(M_ARENA_MAX)
	mallopt(M_ARENA_MAX, 1);
#endif
}
*/
import "C"
