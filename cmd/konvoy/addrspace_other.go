//go:build !linux

package main

// addressSpaceLeft returns false: the process's address space limit is
// read on Linux only.
func addressSpaceLeft() (int64, bool) { return 0, false }

// cgroupLeft returns false: cgroups are read on Linux only.
func cgroupLeft() (int64, bool) { return 0, false }
