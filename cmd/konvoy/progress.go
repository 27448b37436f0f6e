package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/sirali-konvoy/konvoy/internal/replay"
	"github.com/sirali-konvoy/konvoy/internal/report"
)

// progressEvery is how often the progress bar is redrawn, and how long a
// trace must take before it shows at all.
const progressEvery = 250 * time.Millisecond

// progress draws a one-line progress bar of the bytes read, the read rate and
// the events so far on a terminal, redrawing it at most every progressEvery
// from the reads themselves (no goroutine), and clears it at the end.
type progress struct {
	w      io.Writer
	name   string
	size   int64 // -1 when unknown
	now    func() time.Time
	start  time.Time
	last   time.Time // of the last drawing, or start
	read   int64
	events int
	shown  bool
}

// isTerminal tells whether w is a terminal (a character device); the bar
// shows only there.
var isTerminal = func(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// clock is the progress bar's time.
var clock = time.Now

// newProgress returns a progress bar for reading name of size bytes (-1 when
// unknown) on w, or nil when w is not a terminal.
func newProgress(w io.Writer, name string, size int64) *progress {
	if !isTerminal(w) {
		return nil
	}
	t := clock()
	return &progress{w: w, name: name, size: size, now: clock, start: t, last: t}
}

// reader counts what r reads, and redraws the bar when it is due.
func (p *progress) reader(r io.Reader) io.Reader { return &countingReader{r: r, p: p} }

type countingReader struct {
	r io.Reader
	p *progress
}

func (c *countingReader) Read(b []byte) (int, error) {
	n, err := c.r.Read(b)
	c.p.read += int64(n)
	if t := c.p.now(); t.Sub(c.p.last) >= progressEvery {
		c.p.last = t
		c.p.draw(t)
	}
	return n, err
}

// draw writes the bar over the line it is on.
func (p *progress) draw(t time.Time) {
	secs := t.Sub(p.start).Seconds()
	var b strings.Builder
	fmt.Fprintf(&b, "\rreading %s: %s", p.name, megabytes(p.read))
	if p.size > 0 {
		fmt.Fprintf(&b, " of %s (%d%%)", megabytes(p.size), p.read*100/p.size)
	}
	if secs > 0 {
		fmt.Fprintf(&b, ", %s/s", megabytes(int64(float64(p.read)/secs)))
	}
	fmt.Fprintf(&b, ", %s\x1b[K", report.Plural(p.events, "event", "events"))
	io.WriteString(p.w, b.String())
	p.shown = true
}

// done clears the bar, if it was drawn.
func (p *progress) done() {
	if p.shown {
		io.WriteString(p.w, "\r\x1b[K")
		p.shown = false
	}
}

// megabytes formats a byte count in MB (10⁶ bytes).
func megabytes(n int64) string {
	return fmt.Sprintf("%.1f MB", float64(n)/1e6)
}

// replayProgressEvery is how often a replay's progress line is redrawn.
const replayProgressEvery = 250 * time.Millisecond

// replayTicker is when a replay's progress line is redrawn: a tick every
// replayProgressEvery, and what stops the ticks. Tests replace it.
var replayTicker = func() (<-chan time.Time, func()) {
	t := time.NewTicker(replayProgressEvery)
	return t.C, t.Stop
}

// showProgress draws a replay's progress line on w when it is a terminal,
// every replayProgressEvery from a goroutine of its own: the events
// submitted and finished of total, and the time elapsed. The function it
// returns stops the goroutine and clears the line; on anything but a
// terminal it draws nothing and the function does nothing.
func showProgress(w io.Writer, p *replay.Progress, total int) (stop func()) {
	if !isTerminal(w) {
		return func() {}
	}
	done, stopped := make(chan struct{}), make(chan struct{})
	start := time.Now()
	ticks, stopTicks := replayTicker()
	go func() {
		defer close(stopped)
		defer stopTicks()
		for {
			select {
			case <-done:
				io.WriteString(w, "\r\x1b[K")
				return
			case <-ticks:
				io.WriteString(w, replayProgressLine(p.Submitted(), p.Finished(), total, time.Since(start)))
			}
		}
	}()
	return func() {
		close(done)
		<-stopped
	}
}

// replayProgressLine is the progress line of a replay that has submitted
// and finished so many of total events in elapsed, drawn over the line it
// is on.
func replayProgressLine(submitted, finished, total int, elapsed time.Duration) string {
	return fmt.Sprintf("\rreplay: %d of %d events submitted, %d finished, %v elapsed\x1b[K", submitted, total, finished, elapsed.Truncate(100*time.Millisecond))
}
