package synth_test

import (
	"crypto/sha256"
	"fmt"
	"testing"

	"github.com/sirali-konvoy/konvoy/synth"
)

// The streams of fixed configs hash to fixed values: the generator gives the
// same events on every platform and build (CI may run this test on other
// architectures, with GOARCH=386 or GOAMD64=v3), and a change that alters a
// stream shows here, to be made on purpose or not at all.
func TestFingerprints(t *testing.T) {
	exp := busy(30_000)
	exp.Duration, exp.KeySkew, exp.BurstEvery = synth.Exponential(2.5), 1.3, 0
	for _, tc := range []struct {
		name string
		c    synth.Config
		want string
	}{
		{"small", small(30_000), "68899c4ec69d55d68c158535c118275f34f213b5026b0cd90c68947bb9c19f24"},
		{"busy", busy(30_000), "5b30fe809ad72eeefdf4156f72f1280168e98eaead13322a28a9bd3c551d5c61"},
		{"exp", exp, "120bd5ef46a830c0794c08bad1bad765d21ad23bebb4c0556f66086fe49ecfb4"},
	} {
		h := sha256.New()
		for e := range synth.Events(tc.c) {
			fmt.Fprintf(h, "%s %s %d %d %d\n", e.Key, e.Line, e.Step, e.Duration, e.Arrival)
		}
		if got := fmt.Sprintf("%x", h.Sum(nil)); got != tc.want {
			t.Errorf("%s: stream hashes to %s; want %s", tc.name, got, tc.want)
		}
	}
}
