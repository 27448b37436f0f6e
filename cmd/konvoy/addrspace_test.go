package main

import (
	"io"
	"testing"
)

// -max-memory fits the address space that ulimit -v leaves the process:
// at most 0.85 of it, rounded down to MiB. The default comes down to that
// share; a size given above it is a usage error that says what fits.
func TestMaxMemoryFitsTheAddressSpaceLeft(t *testing.T) {
	const mib, gib = 1 << 20, 1 << 30
	cases := []struct {
		name        string
		n, left     int64
		given       bool
		want        int64  // *n after
		wantErrPart string // "" for no error
	}{
		{"the default, with room", gib, 2 * gib, false, gib, ""},
		{"the default, above the share", gib, gib, false, 870 * mib, ""},
		{"the default, with almost nothing left", gib, 100 << 10, false, mib, ""},
		{"a size given within the share", 870 * mib, gib, true, 870 * mib, ""},
		{"a size given above the share", 871 * mib, gib, true, 871 * mib,
			"konvoy: -max-memory 871MiB: ulimit -v leaves this process 1.00 GiB of address space, of which the runs may take 0.85, 870MiB: give at most that, or raise ulimit -v"},
		{"a size given with almost nothing left", mib, 100 << 10, true, mib,
			"konvoy: -max-memory 1MiB: ulimit -v leaves this process 0.1 MiB of address space, less than it needs: raise ulimit -v"},
	}
	for _, tc := range cases {
		c := newCommand("konvoy", io.Discard)
		c.given = map[string]bool{"max-memory": tc.given}
		n := int(tc.n)
		err := c.fitAddressSpace(&n, tc.left)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if int64(n) != tc.want || got != tc.wantErrPart {
			t.Errorf("%s: -max-memory %d, error %q; want %d, error %q", tc.name, n, got, tc.want, tc.wantErrPart)
		}
	}
}
