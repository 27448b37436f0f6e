package konvoy_test

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/sirali-konvoy/konvoy"
)

// An event's error quotes its key whole up to 80 bytes, and a longer key
// by its first 40 and last 20 bytes around "…", with its length, cut on
// rune boundaries: a 4 KiB key does not fill the terminal, and two keys
// that differ at either end still read apart. EventError.Key holds it
// whole (found by a review).
func TestAnEventErrorCutsALongKeyInItsMiddle(t *testing.T) {
	for _, c := range []struct {
		key, want string
	}{
		{strings.Repeat("k", 80), `(key "` + strings.Repeat("k", 80) + `")`},
		{strings.Repeat("k", 81), `(key "` + strings.Repeat("k", 40) + "…" + strings.Repeat("k", 20) + `", 81 bytes)`},
		{"order-" + strings.Repeat("x", 4090) + "-17", `(key "order-` + strings.Repeat("x", 34) + "…" + strings.Repeat("x", 17) + `-17", 4099 bytes)`},
		// ş is 2 bytes: the cut moves back to its start at the head, and on
		// past it at the tail, never splitting it.
		{strings.Repeat("a", 39) + "ş" + strings.Repeat("b", 40) + "ş" + strings.Repeat("c", 19), `(key "` + strings.Repeat("a", 39) + "…" + strings.Repeat("c", 19) + `", 102 bytes)`},
	} {
		_, err := konvoy.Simulate([]konvoy.Event{{Key: c.key, Step: 1, Duration: -1}}, konvoy.Convoy, 1)
		var ev *konvoy.EventError
		if !errors.As(err, &ev) || ev.Key != c.key {
			t.Fatalf("%d-byte key: %v; want an EventError holding the key whole", len(c.key), err)
		}
		if msg := err.Error(); !strings.Contains(msg, c.want) || !utf8.ValidString(msg) {
			t.Errorf("%d-byte key:\n got %s\nwant it to hold %s", len(c.key), msg, c.want)
		}
	}
}
