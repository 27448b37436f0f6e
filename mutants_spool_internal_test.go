package konvoy

import (
	"context"
	"errors"
	"fmt"
	"os"
	"testing"
)

// spoolFirstPass records events as a sweep's first pass over configs does,
// into a new spool, and returns it with the pass, its workers done; the
// pass's runs must not fail.
func spoolFirstPass(t *testing.T, configs []Config, events []Event) (*sweepSpool, *sweepPass) {
	t.Helper()
	sp, first, e := spoolFirstPassErr(t, configs, events)
	if e != nil {
		t.Fatal(e.err)
	}
	return sp, first
}

// spoolFirstPassErr is spoolFirstPass for runs that may fail: it returns
// the pass's error too.
func spoolFirstPassErr(t *testing.T, configs []Config, events []Event) (*sweepSpool, *sweepPass, *sweepError) {
	t.Helper()
	sp := newSweepSpool(len(configs))
	todo := make([]int, len(configs))
	for i := range todo {
		todo[i] = i
	}
	first := newSweepPass(configs, todo, sweepOptions{maxMemory: DefaultMaxMemory}, sweepSizes{}, sp)
	if err := first.feed(context.Background(), Values(events), len(events)); err != nil {
		t.Fatal(err)
	}
	return sp, first, first.wait()
}

// A spool holds at most spoolBuffer bytes in memory (the sweepSpool doc:
// "in memory up to spoolBuffer (64 KiB) and in a temporary file beyond"):
// it writes its buffer out before a record could take it past its room,
// so the buffer made at the start is never outgrown. 20,000 events of some
// 7 bytes each spool about 140 KB, so a file is made and the buffer fills
// more than twice.
func TestASpoolNeverOutgrowsItsBuffer(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	events := make([]Event, 20_000)
	for i := range events {
		events[i] = Event{Key: fmt.Sprint("k", i%50), Step: 1 + i/50, Duration: 1, Arrival: i}
	}
	sp, _ := spoolFirstPass(t, []Config{{Layout: Free, Consumers: 2}, {Layout: Convoy, Consumers: 2}}, events)
	defer sp.drop()
	if sp.broken || sp.file == nil {
		t.Fatalf("broken %v, file %v; want a spool in a file", sp.broken, sp.file)
	}
	if len(sp.buf) > spoolBuffer || cap(sp.buf) != spoolBuffer {
		t.Errorf("the buffer holds %d bytes in room for %d; want at most %d in room for %d", len(sp.buf), cap(sp.buf), spoolBuffer, spoolBuffer)
	}
}

// A spool writes its buffer out only once it holds more than
// spoolBuffer−spoolRecord bytes, the most after which any record still
// fits: a stream whose records fill exactly that mark before the last one
// stays in memory and needs no file, and one more event does need one.
// Where no file can be made (TMPDIR does not exist) that decides whether
// the spool is kept. Each event below spools in 7 bytes, worked out from
// record's encoding: the flags byte, four one-byte varints (step 1,
// duration 1, an arrival one round after the last, partition 0) and two
// one-byte uvarints (a key index below 127, no line); the first event's
// duration of 64 takes a second byte (zigzag 128). So 8,777 events take
// 8 + 7·8,776 = 61,440 = spoolBuffer − spoolRecord bytes.
func TestASpoolFlushesOnlyPastItsMark(t *testing.T) {
	t.Setenv("TMPDIR", "/nonexistent/konvoy")
	const mark = spoolBuffer - spoolRecord
	if mark != 61_440 {
		t.Fatalf("spoolBuffer − spoolRecord is %d; the events below are worked out for 61,440", mark)
	}
	events := make([]Event, 8_779)
	for i := range events {
		events[i] = Event{Key: fmt.Sprint("k", i%100), Step: 1, Duration: 1, Arrival: i}
	}
	events[0].Duration = 64
	configs := []Config{{Layout: Free, Consumers: 2}, {Layout: Free, Consumers: 3}}
	sp, _ := spoolFirstPass(t, configs, events[:8_777])
	if len(sp.buf) != mark || sp.broken {
		t.Fatalf("8,777 events spooled in %d bytes, broken %v; want %d, kept", len(sp.buf), sp.broken, mark)
	}
	sp.drop()
	for _, c := range []struct {
		n    int
		kept bool
	}{{8_778, true}, {8_779, false}} {
		sp, first := spoolFirstPass(t, configs, events[:c.n])
		if kept := sp.keep(first.groups); kept != c.kept || sp.file != nil {
			t.Errorf("%d events, no file possible: kept %v, file %v; want kept %v, no file", c.n, kept, sp.file, c.kept)
		}
		sp.drop()
	}
}

// An event without a key is invalid, but the spool can give it back (it
// has no name to lose), so it is recorded like any other and the spool is
// kept: the sweepSpool doc drops a spool only for a record it cannot write
// or an event it cannot give back, a key beyond the key table's room. A
// pass that replays the spool meets the same error at the same event,
// index 4 of 10, as the first pass did.
func TestASpoolKeepsAnEventWithoutAKey(t *testing.T) {
	events := make([]Event, 10)
	for i := range events {
		events[i] = Event{Key: fmt.Sprint("k", i%3), Step: 1 + i/3, Duration: 1, Arrival: i}
	}
	events[4].Key = ""
	configs := []Config{{Layout: Free, Consumers: 2}, {Layout: Convoy, Consumers: 2}}
	sp, first, e := spoolFirstPassErr(t, configs, events)
	defer sp.drop()
	if e == nil || e.index != 4 {
		t.Fatalf("first pass: error %+v; want one at event 4", e)
	}
	if sp.broken || sp.events != len(events) || !sp.keep(first.groups) {
		t.Fatalf("broken %v, %d events recorded; want the spool kept with all %d", sp.broken, sp.events, len(events))
	}
	p := newSweepPass(configs, []int{0, 1}, sweepOptions{maxMemory: DefaultMaxMemory}, first.sizes(), sp)
	if p.replays() == nil {
		t.Fatal("the second pass does not replay the spool")
	}
	err := p.replay(context.Background(), len(events))
	again := p.wait()
	if err != nil || again == nil || again.index != 4 || again.err.Error() != e.err.Error() {
		t.Errorf("replayed: error %v, run error %+v; want the first pass's %v at event 4", err, again, e.err)
	}
}

// A batch replayed from the spool counts the bytes of its events' keys and
// lines as a batch read from the stream does (sweep's intern), since the
// batch is cut by them (sweepBatchBytes) either way: here 6 events of a
// 4-byte key ("key0" to "key2") and a 2-byte line ("L0", "L1"), 36 bytes,
// read back as the same events.
func TestAReplayedBatchCountsItsKeysAndLines(t *testing.T) {
	events := make([]Event, 6)
	for i := range events {
		events[i] = Event{Key: fmt.Sprint("key", i%3), Line: fmt.Sprint("L", i%2), Step: 1 + i/3, Duration: 1, Arrival: i}
	}
	configs := []Config{{Layout: LineConvoy, Consumers: 2}, {Layout: Convoy, Consumers: 2}}
	sp, first := spoolFirstPass(t, configs, events)
	defer sp.drop()
	if !sp.keep(first.groups) {
		t.Fatal("the spool was not kept")
	}
	r, err := sp.reader()
	if err != nil {
		t.Fatal(err)
	}
	var b sweepEvents
	for range events {
		if err := sp.replay(r, &b); err != nil {
			t.Fatal(err)
		}
	}
	for i, e := range b.events {
		if e.Key != events[i].Key || e.Line != events[i].Line || e.Step != events[i].Step || e.Arrival != events[i].Arrival {
			t.Fatalf("event %d replayed as %+v; want %+v", i, e, events[i])
		}
	}
	if b.bytes != 36 {
		t.Errorf("the replayed batch counts %d bytes of keys and lines; want 36", b.bytes)
	}
}

// Where the system lets an open file be removed, as Unix does, a spool's
// file is removed as soon as it is made (spoolPattern's doc), so the name
// is no longer the spool's: dropping the spool must not remove whatever
// file has been made at that name since, by another program say. The
// spool is made to spill to a file (20,000 events, some 140 KB), another
// file is put at the name it had, and the spool dropped: that file stays.
func TestADroppedSpoolLeavesTheNameItGaveUp(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	events := make([]Event, 20_000)
	for i := range events {
		events[i] = Event{Key: fmt.Sprint("k", i%50), Step: 1 + i/50, Duration: 1, Arrival: i}
	}
	sp, _ := spoolFirstPass(t, []Config{{Layout: Free, Consumers: 2}, {Layout: Free, Consumers: 3}}, events)
	defer sp.drop()
	if sp.file == nil {
		t.Fatal("no spool file was made")
	}
	name := sp.file.Name()
	if _, err := os.Stat(name); !os.IsNotExist(err) {
		t.Skipf("the spool's file is still at %s (%v): this system does not let an open file be removed", name, err)
	}
	if err := os.WriteFile(name, []byte("another's"), 0o600); err != nil {
		t.Fatal(err)
	}
	sp.drop()
	if _, err := os.Stat(name); err != nil {
		t.Errorf("the file made at the spool's old name after it was removed: %v; want it left alone", err)
	}
}

// Dropping a spool closes its file (drop's doc: "its file is removed"):
// the file was unlinked when made, so only closing it gives its disk
// space back, and a sweep that drops its spool goes on without it for
// as long as it reads the stream again. The spool is made to spill to a
// file (some 140 KB), then dropped: its file is closed and let go of.
func TestADroppedSpoolClosesItsFile(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	events := make([]Event, 20_000)
	for i := range events {
		events[i] = Event{Key: fmt.Sprint("k", i%50), Step: 1 + i/50, Duration: 1, Arrival: i}
	}
	sp, _ := spoolFirstPass(t, []Config{{Layout: Free, Consumers: 2}, {Layout: Free, Consumers: 3}}, events)
	f := sp.file
	if f == nil {
		sp.drop()
		t.Fatal("no spool file was made")
	}
	sp.drop()
	if _, err := f.Stat(); !errors.Is(err, os.ErrClosed) || sp.file != nil || !sp.broken {
		t.Errorf("after drop: the file's Stat says %v, the spool keeps %v, broken %v; want it closed (os.ErrClosed), let go of, broken", err, sp.file, sp.broken)
	}
}
