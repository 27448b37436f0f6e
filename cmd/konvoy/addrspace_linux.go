package main

import (
	"bufio"
	"bytes"
	"os"
	"strconv"
	"syscall"
)

// addressSpaceLeft returns the bytes of address space the process may
// still take under its limit (ulimit -v, RLIMIT_AS), less what it has
// taken (VmSize in /proc/self/status), and true; or false when it has no
// such limit. The Go runtime takes far more address space than memory (a
// gigabyte and a half at start, on linux/amd64), and a heap that outgrows
// what is left ends the process with a fatal error, which no -max-memory
// above it may risk.
func addressSpaceLeft() (int64, bool) {
	var rl syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_AS, &rl); err != nil || rl.Cur >= 1<<63 {
		return 0, false // RLIM_INFINITY is all ones
	}
	return int64(rl.Cur) - addressSpaceTaken(), true
}

// cgroupLeft returns the bytes of memory the process's cgroup still lets
// it take, and false when it has no memory limit (see cgroupMemoryLeft).
func cgroupLeft() (int64, bool) { return cgroupMemoryLeft(os.DirFS("/")) }

// addressSpaceTaken returns the bytes of address space the process has
// taken, VmSize, or, when /proc/self/status cannot tell, startGuess.
func addressSpaceTaken() int64 {
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return startGuess
	}
	for sc := bufio.NewScanner(bytes.NewReader(status)); sc.Scan(); {
		v, ok := bytes.CutPrefix(sc.Bytes(), []byte("VmSize:"))
		if !ok {
			continue
		}
		kb, err := strconv.ParseInt(string(bytes.TrimSpace(bytes.TrimSuffix(bytes.TrimSpace(v), []byte("kB")))), 10, 64)
		if err != nil || kb < 0 || kb > 1<<52 {
			return startGuess
		}
		return kb << 10
	}
	return startGuess
}

// startGuess is what addressSpaceTaken takes a Go process to have taken
// when it cannot read what it has: more than the 1.6 GB a 64-bit one takes
// at start on linux/amd64, and than a 32-bit one's, so that the share
// -max-memory may take errs low.
var startGuess int64 = 2 << 30
