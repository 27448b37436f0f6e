package main

import (
	"fmt"
	"io"
	"math"
	"strings"
	"testing"

	"github.com/sirali-konvoy/konvoy/internal/serve"
)

// -max-memory fits what the tighter of ulimit -v and the process's cgroup
// leaves it: at most 0.85 of it (of what 128 MiB for the runtime leaves,
// under ulimit -v), rounded down to MiB. The default comes down to that
// share; a size given above it is a usage error that says what fits, and
// which limit to raise.
func TestMaxMemoryFitsTheAddressSpaceLeft(t *testing.T) {
	const mib, gib = 1 << 20, 1 << 30
	cases := []struct {
		name        string
		n, left     int64
		cgroup      bool
		given       bool
		want        int64  // *n after
		wantErrPart string // "" for no error
	}{
		{"the default, with room", gib, 2 * gib, false, false, gib, ""},
		{"the default, above the share", gib, gib, false, false, 761 * mib, ""},
		{"the default, above the cgroup's share", gib, gib, true, false, 870 * mib, ""},
		{"the default, with almost nothing left", gib, 100 << 10, false, false, mib, ""},
		{"a size given within the share", 761 * mib, gib, false, true, 761 * mib, ""},
		{"a size given within the cgroup's share", 870 * mib, gib, true, true, 870 * mib, ""},
		{"a size given above the share", 762 * mib, gib, false, true, 762 * mib,
			"konvoy: -max-memory 762MiB: ulimit -v leaves this process 1.00 GiB of address space, of which the runs may take 0.85 of what 128MiB for the runtime leaves, 761MiB: give at most that, or raise ulimit -v"},
		{"a size given above the cgroup's share", 871 * mib, gib, true, true, 871 * mib,
			"konvoy: -max-memory 871MiB: its cgroup's memory limit leaves this process 1.00 GiB of memory, of which the runs may take 0.85, 870MiB: give at most that, or raise the cgroup's memory limit"},
		{"a size given with almost nothing left", mib, 100 << 10, false, true, mib,
			"konvoy: -max-memory 1MiB: ulimit -v leaves this process 0.1 MiB of address space, less than it needs: raise ulimit -v"},
		{"a size given with almost nothing left in the cgroup", mib, 100 << 10, true, true, mib,
			"konvoy: -max-memory 1MiB: its cgroup's memory limit leaves this process 0.1 MiB of memory, less than it needs: raise the cgroup's memory limit"},
	}
	for _, tc := range cases {
		c := newCommand("konvoy", io.Discard)
		c.given = map[string]bool{"max-memory": tc.given}
		n := int(tc.n)
		err := c.fitMemory(&n, memoryLimit{left: tc.left, cgroup: tc.cgroup})
		got := ""
		if err != nil {
			got = err.Error()
		}
		if int64(n) != tc.want || got != tc.wantErrPart {
			t.Errorf("%s: -max-memory %d, error %q; want %d, error %q", tc.name, n, got, tc.want, tc.wantErrPart)
		}
	}
}

// konvoy serve gives a request's runs a serve.MaxRunning-th of 0.6 of
// the address space left at start, when that is below the 1 GiB they take
// otherwise, and the garbage collector as much for all requests: under
// ulimit -v 2500000, a request of every layout on 2,000,000 keys ended
// the server in the Go runtime's fatal out-of-memory error (with 0.85, the
// command's share, too); with 0.6 it is an error that says the runs need
// more, two requests at once alike, and the server goes on.
func TestServeGivesARequestItsShareOfTheAddressSpace(t *testing.T) {
	const mib, gib = 1 << 20, 1 << 30
	for _, tc := range []struct {
		left  int64
		known bool
		want  int
	}{
		{0, false, 0},                // no limit: the runs' own 1 GiB
		{4 * gib, true, 0},           // 0.6 × 4 GiB ÷ 2 is more than 1 GiB
		{3 * gib, true, 921 * mib},   // 0.6 × 3 GiB ÷ 2, to MiB
		{750 * mib, true, 225 * mib}, // 0.6 × 750 MiB ÷ 2
		{100 << 10, true, mib},       // almost nothing left: 1 MiB, and the runs fail with ErrMemory
	} {
		if got := serveMemory(tc.left, tc.known); got != tc.want {
			t.Errorf("serveMemory(%d, %v) = %d; want %d", tc.left, tc.known, got, tc.want)
		}
	}
	// Here, whatever this process's limit: the server's is MaxRunning
	// times a request's and the uploads' room, or 0 with no bound of its
	// own.
	c := serveConfig("", 1<<20)
	o, err := c.Runs(nil)
	left, known := memoryLeftKnown()
	most, limit := serveLimits(left, known, 1<<20)
	if err != nil || c.MaxMemory != limit || most > 0 && o.MaxMemory != most || o.MaxMemory > 1<<30 {
		t.Errorf("a request's runs: %v, MaxMemory %d, the server's %d; want %d, and the server's %d", err, o.MaxMemory, c.MaxMemory, most, limit)
	}
}

// The uploads a server keeps, and reads, are left beside its runs: under
// ulimit -v 2500000, eight uploads of 48 MB and two views of every layout
// and policy ended the server in Go's fatal out-of-memory error, the
// uploads outside the runs' share (found by a review); it answers both
// now. A request's runs take their share of what the uploads' room
// (UploadRoom: ten of -max-upload) leaves, and the collector's limit
// counts the room in.
func TestServeLeavesTheUploadsRoomBesideTheRuns(t *testing.T) {
	const mib, gib = 1 << 20, 1 << 30
	room := serve.UploadRoom(50_000_000)
	if room != 500_000_000 {
		t.Errorf("UploadRoom(50 MB) = %d; want 500,000,000: eight kept and two read", room)
	}
	for _, tc := range []struct {
		left  int64
		known bool
		most  int
		limit int64 // the largest int at most, under 32-bit int
	}{
		{0, false, 0, 0},
		{5 * gib, true, 0, 0}, // 0.6 × (5 GiB − the room) ÷ 2 is more than 1 GiB
		{3 * gib, true, 778 * mib, 2*778*mib + 500_000_000}, // 0.6 × (3 GiB − the room) ÷ 2, to MiB
		{400 * mib, true, 60 * mib, 2*60*mib + 200*mib},     // less than twice the room: the uploads get half, the runs 0.6 × the rest ÷ 2
	} {
		most, limit := serveLimits(tc.left, tc.known, 50_000_000)
		if most != tc.most || int64(limit) != min(tc.limit, math.MaxInt) {
			t.Errorf("serveLimits(%d, %v, 50 MB) = %d, %d; want %d, %d", tc.left, tc.known, most, limit, tc.most, tc.limit)
		}
	}
}

// memoryLeftKnown is memoryLeft's bytes and whether it knows a limit.
func memoryLeftKnown() (int64, bool) {
	l, known := memoryLeft()
	return l.left, known
}

// A -max-upload whose uploads' room would pass half of what the server
// has is lowered until it fits in that half, and the command says so at
// start: the runs' share of what a larger room left fell to the 1 MiB
// floor, with no word of why (found by a review: -max-upload 500MB under
// 4 GB left gave every request's runs 1 MiB, where they had their own 1
// GiB before), and an upload within it could then end the server in Go's
// fatal out-of-memory error (found by a later review: 45 MB, under the
// default -max-upload, with 110 MB left).
func TestALargeMaxUploadIsLoweredToFitHalfWhatTheServerHas(t *testing.T) {
	const mib = 1 << 20
	for _, up := range []int64{500_000_000, 1 << 40} {
		fit, note := fitUpload(4_000_000_000, true, up)
		if fit != 200_000_000 { // ten of them take the 2 GB half
			t.Errorf("fitUpload(4 GB, %d) = %d; want 200,000,000, ten of which take half the 4 GB", up, fit)
		}
		if !strings.Contains(note, fmt.Sprintf("-max-upload %d lowered to 200000000 bytes", up)) || !strings.Contains(note, "4000000000") {
			t.Errorf("fitUpload(4 GB, %d): note %q; want a line naming -max-upload, what it was lowered to, and the 4 GB", up, note)
		}
		most, limit := serveLimits(4_000_000_000, true, fit)
		// 0.6 × 2,000,000,000 ÷ 2, to MiB; the collector's limit within the 4 GB
		want := min(int64(2*572*mib)+2_000_000_000, math.MaxInt)
		if most != 572*mib || int64(limit) != want {
			t.Errorf("serveLimits(4 GB, -max-upload %d) = %d, %d; want %d and %d", fit, most, limit, 572*mib, want)
		}
	}
	for _, tc := range []struct {
		left      int64
		known     bool
		up, want  int64
		wantsNote bool
	}{
		{4_000_000_000, true, 50_000_000, 50_000_000, false}, // 500 MB is less than half
		{4_000_000_000, true, 0, serve.DefaultMaxUpload, false},
		{1_000_000_000, true, 50_000_000, 50_000_000, false}, // exactly half
		{999_999_999, true, 50_000_000, 49_999_999, true},    // 499,999,999 ÷ 10, rounded down
		{110_002_176, true, 0, 5_500_108, true},              // the review's server: 55,001,088 ÷ 10
		{15, true, 50_000_000, 1, true},                      // at least a byte: 0 would be the default
		{0, false, 1 << 40, 1 << 40, false},                  // no limit known
	} {
		fit, note := fitUpload(tc.left, tc.known, tc.up)
		if fit != tc.want || (note != "") != tc.wantsNote {
			t.Errorf("fitUpload(%d, %v, %d) = %d, %q; want %d, and a note %v", tc.left, tc.known, tc.up, fit, note, tc.want, tc.wantsNote)
		}
		if tc.known && tc.want > 1 && serve.UploadRoom(fit) > tc.left/2 {
			t.Errorf("fitUpload(%d, %v, %d) = %d, whose room %d passes half of %d", tc.left, tc.known, tc.up, fit, serve.UploadRoom(fit), tc.left)
		}
	}
}
