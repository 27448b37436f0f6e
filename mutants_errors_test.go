package konvoy_test

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/sirali-konvoy/konvoy"
)

// An event's error cuts a long key on rune boundaries (EventError.Error's
// doc: its first and last bytes quoted around "…"), and the brief's rule
// that no input, however hostile, ends in a panic holds for a key that is
// not UTF-8: when every byte before the head's cut is a continuation byte,
// the cut never moves back past the key's start. The 101-byte key here is
// 41 continuation bytes and 60 k's: whatever of the head is shown, the
// error ends with the tail, its last 20 bytes, all k's, and the length.
// Mutant errors.go:105:11 (head > 0 → head >= 0) lived: it reads key[-1]
// and panics.
func TestAnEventErrorCutsAKeyWithoutARuneStartInItsHeadWithinIt(t *testing.T) {
	key := strings.Repeat("\x80", 41) + strings.Repeat("k", 60)
	_, err := konvoy.Simulate([]konvoy.Event{{Key: key, Step: 1, Duration: -1}}, konvoy.Convoy, 1)
	var ev *konvoy.EventError
	if !errors.As(err, &ev) || ev.Key != key {
		t.Fatalf("got %v; want an EventError holding the key whole", err)
	}
	if want := "…" + strings.Repeat("k", 20) + `", 101 bytes)`; !strings.Contains(err.Error(), want) || !utf8.ValidString(err.Error()) {
		t.Errorf("got %s\nwant it to hold %s", err, want)
	}
}

// As above, at the other end: when every byte from the tail's cut to the
// key's end is a continuation byte, the cut never moves on past the key's
// end. The 101-byte key here is 81 k's and 20 continuation bytes: whatever
// of the tail is shown, the error starts with the head, its first 40
// bytes, all k's. Mutant errors.go:108:11 (tail < len(key) → tail <=
// len(key)) lived: it reads key[len(key)] and panics.
func TestAnEventErrorCutsAKeyWithoutARuneStartInItsTailWithinIt(t *testing.T) {
	key := strings.Repeat("k", 81) + strings.Repeat("\x80", 20)
	_, err := konvoy.Simulate([]konvoy.Event{{Key: key, Step: 1, Duration: -1}}, konvoy.Convoy, 1)
	var ev *konvoy.EventError
	if !errors.As(err, &ev) || ev.Key != key {
		t.Fatalf("got %v; want an EventError holding the key whole", err)
	}
	if want := `(key "` + strings.Repeat("k", 40) + "…"; !strings.Contains(err.Error(), want) || !utf8.ValidString(err.Error()) {
		t.Errorf("got %s\nwant it to hold %s", err, want)
	}
}

// Two keys that are not UTF-8 and differ only in their first bytes read
// apart in an error (shownKey's doc: "two keys that differ at either end
// still read apart"): a cut moves back at most utf8.UTFMax-1 bytes to a
// rune's start, where it moved back over every continuation byte and
// dropped the whole head of a key of 41 of them, so that keys of \x80s and
// of \xbfs read alike (found by mutation testing's review). The same at
// the tail.
func TestKeysNotUTF8ThatDifferAtAnEndReadApart(t *testing.T) {
	errorOf := func(key string) string {
		_, err := konvoy.Simulate([]konvoy.Event{{Key: key, Step: 1, Duration: -1}}, konvoy.Convoy, 1)
		if err == nil {
			t.Fatalf("key %q: no error", key)
		}
		return err.Error()
	}
	for _, pair := range [][2]string{
		{strings.Repeat("\x80", 41) + strings.Repeat("k", 60), strings.Repeat("\xbf", 41) + strings.Repeat("k", 60)},
		{strings.Repeat("k", 81) + strings.Repeat("\x80", 20), strings.Repeat("k", 81) + strings.Repeat("\xbf", 20)},
	} {
		a, b := errorOf(pair[0]), errorOf(pair[1])
		if a == b {
			t.Errorf("two keys that differ at an end read alike:\n%s", a)
		}
	}
	// The head of the first, cut at 40 bytes less at most 3: at least 37
	// escapes of \x80 before the "…".
	if got, want := errorOf(strings.Repeat("\x80", 41)+strings.Repeat("k", 60)), `(key "`+strings.Repeat(`\x80`, 37); !strings.Contains(got, want) {
		t.Errorf("got %s\nwant it to hold %s", got, want)
	}
}
