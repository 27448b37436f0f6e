package main

import (
	"strings"
	"testing"
)

// A number too small for a float64, which the flag package reads as 0
// with no error, is refused by every float flag: -rate 1e-400 made a
// batch of every event at round 0, as -rate 0 does, -key-skew 1e-400
// dropped the skew, and -collision 1e-400 planned for 0 (a review of
// konvoy gen found them). A number written as 0, in any form, is 0.
func TestAFloatTooSmallForAFloat64IsRefused(t *testing.T) {
	const want = `: too small for a float64, which reads it as 0; want at least 5e-324 in size`
	for _, args := range [][]string{
		{"gen", "-events", "3", "-rate", "1e-400"},
		{"gen", "-events", "3", "-key-skew", "1e-400"},
		{"gen", "-events", "3", "-line-skew", "-1e-400"},
		{"gen", "-events", "3", "-out-of-order", "2e-324"},
		{"gen", "-events", "3", "-rate", "1", "-burst-every", "2", "-burst-len", "1", "-burst-factor", "0x1p-1080"},
		{"plan", "-collision", "1e-400"},
		{"plan", "-peak", "1e-400"},
		{"-peak", "1e-400"},
	} {
		flag, value := args[len(args)-2], args[len(args)-1]
		wantErr := `invalid value "` + value + `" for flag ` + flag + want
		if _, errOut, status := runCommand(args...); status != 2 || !strings.HasPrefix(errOut, wantErr+"\n") {
			t.Errorf("konvoy %s: status %d, %q; want 2 and %q first", strings.Join(args, " "), status, errOut, wantErr)
		}
	}
	for _, zero := range []string{"0", "-0", "0.0", "0e-400", "0x0p9"} {
		batch, _, status := runCommand("gen", "-events", "3", "-keys", "3", "-rate", zero)
		if want, _, _ := runCommand("gen", "-events", "3", "-keys", "3", "-rate", "0"); status != 0 || batch != want {
			t.Errorf("konvoy gen -rate %s: status %d, %q; want -rate 0's trace, %q", zero, status, batch, want)
		}
	}
}
