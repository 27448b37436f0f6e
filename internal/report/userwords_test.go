package report

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"testing"

	"github.com/sirali-konvoy/konvoy/eventlog"
)

// TestWordsKeepTheUsersOwnText checks that CommandWords and PageWords
// reword the libraries' phrases alone, never the user's own text that a
// message holds: a value quoted as Go quotes it, and a file's name, which
// a message writes unquoted (FILE:LINE:) and UserText finds in the error.
// Both ran their replacer over the whole message, so that a file named
// "my (Reader.Format).csv" was told as "my.csv" and a value "abc
// (WithMaxBacklog) z" as "abc z" (found by a review). The phrases outside
// them are reworded as before, beside them too.
func TestWordsKeepTheUsersOwnText(t *testing.T) {
	const name = "konvoy: Sweep: my (Reader.Format).csv"
	err := fmt.Errorf("konvoy: Sweep: %w", &eventlog.Error{File: name, Line: 2, Field: "duration", Value: "abc (WithMaxBacklog) konvoy: Sweep: z", Want: "want a whole number of rounds ≥ 0"})
	msg := err.Error() + " (WithMaxBacklog)"
	keep := UserText(err)
	if !slices.Equal(keep, []string{name}) {
		t.Fatalf("UserText is %q; want the file's name alone", keep)
	}
	const value = `field "duration": value "abc (WithMaxBacklog) konvoy: Sweep: z": want a whole number of rounds ≥ 0`
	if got, want := CommandWords(msg, keep...), "konvoy: "+name+":2: "+value+" (its share of -max-backlog)"; got != want {
		t.Errorf("CommandWords is\n%q; want\n%q", got, want)
	}
	if got, want := PageWords(msg, keep...), "konvoy: "+name+":2: "+value; got != want {
		t.Errorf("PageWords is\n%q; want\n%q", got, want)
	}
	open := fmt.Errorf("konvoy: Sweep: %w", &fs.PathError{Op: "open", Path: "a (Reader.Format).csv", Err: errors.New("no such file")})
	if got, want := PageWords(open.Error(), UserText(open)...), "konvoy: open a (Reader.Format).csv: no such file"; got != want {
		t.Errorf("PageWords is %q; want %q", got, want)
	}
}

// A name is kept only where it stands whole, not inside a library phrase:
// a trace named z kept the phrase holding "gzip" from being reworded (found
// by a review); and the two paths of a rename's error, an os.LinkError,
// are the user's too.
func TestWordsKeepANameOnlyWhereItStandsWhole(t *testing.T) {
	msg := "z:1: the trace is gzip inside gzip: decompress it first (Open and Decompress undo one layer of gzip)"
	want := "z:1: the trace is gzip inside gzip: decompress it first (konvoy undoes one layer of gzip, no more)"
	if got := CommandWords(msg, "z"); got != want {
		t.Errorf("CommandWords is\n%q; want\n%q", got, want)
	}
	err := &os.LinkError{Op: "rename", Old: "p (WithMaxMemory)/.rounds.svg.1", New: "p (WithMaxMemory)/rounds.svg", Err: errors.New("file exists")}
	keep := UserText(fmt.Errorf("-plot: %w", err))
	if got, want := CommandWords("konvoy: -plot: "+err.Error(), keep...), "konvoy: -plot: "+err.Error(); got != want {
		t.Errorf("CommandWords is\n%q; want\n%q, the paths as given", got, want)
	}
}

// A name that is a whole word of a library phrase is kept where it stands
// apart, and the phrase reworded: a trace named gzip kept the phrase that
// names gzip from being reworded; and a name holding a quoted part is kept
// whole, not cut at its quote (both found by a review of the first fix).
func TestWordsRewordAPhraseHoldingAName(t *testing.T) {
	for _, name := range []string{"gzip", "layer", "Open", "of"} {
		msg := name + ":1: the trace is gzip inside gzip: decompress it first (Open and Decompress undo one layer of gzip)"
		want := name + ":1: the trace is gzip inside gzip: decompress it first (konvoy undoes one layer of gzip, no more)"
		if got := CommandWords(msg, name); got != want {
			t.Errorf("a trace named %q:\n%q; want\n%q", name, got, want)
		}
	}
	if got, want := PageWords("konvoy: Sweep: Sweep:3: bad", "Sweep"), "konvoy: Sweep:3: bad"; got != want {
		t.Errorf("a trace named Sweep: %q; want %q", got, want)
	}
	name := `a "b" (Reader.Format).csv`
	err := &eventlog.Error{File: name, Line: 2, Field: "duration", Value: "x", Want: "want a whole number"}
	if got, want := CommandWords(err.Error(), UserText(err)...), err.Error(); got != want {
		t.Errorf("a trace named %s: %q; want %q", name, got, want)
	}
}

// A name that is a library phrase but for its spaces is the user's, named
// as given: a file named (Reader.Format) lost its name (found by a review
// of the fix before); and one that is a phrase's inner words, Reader.Format,
// is the user's where it stands alone, while the library's phrase around
// the same words is reworded (found by a review of the fix after).
func TestWordsKeepANameThatIsAPhrase(t *testing.T) {
	for _, name := range []string{"(Reader.Format)", "(WithMaxBacklog)"} {
		msg := "open " + name + ": no such file or directory"
		if got := CommandWords(msg, name); got != msg {
			t.Errorf("CommandWords is %q; want %q", got, msg)
		}
	}
	// A name between colons, as ": synth: " holds it, is the user's.
	for _, words := range []func(string, ...string) string{CommandWords, PageWords} {
		if got, want := words("konvoy plan: synth: the gzip header: the gzip stream is cut short: unexpected EOF", "synth"),
			"konvoy plan: synth: the gzip header: the gzip stream is cut short: unexpected EOF"; got != want {
			t.Errorf("a trace named synth: %q; want %q", got, want)
		}
	}
	msg := "Reader.Format:1: want the trace's first record within its first 65536 bytes: name the format, -input csv or jsonl (Reader.Format)"
	want := "Reader.Format:1: want the trace's first record within its first 65536 bytes: name the format, -input csv or jsonl"
	if got := CommandWords(msg, "Reader.Format"); got != want {
		t.Errorf("CommandWords is\n%q; want\n%q", got, want)
	}
}
