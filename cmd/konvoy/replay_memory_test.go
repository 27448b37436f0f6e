package main

import (
	"io"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sirali-konvoy/konvoy/internal/memtest"
	"github.com/sirali-konvoy/konvoy/internal/replay"
	"github.com/sirali-konvoy/konvoy/internal/report"
)

// hotArrivals is a CSV trace of n events of one key, all arriving at round
// 0, each taking a round.
func hotArrivals(n int) string {
	var b strings.Builder
	b.WriteString("key,step,duration,at\n")
	for range n {
		b.WriteString("HOT,0,1,0\n")
	}
	return b.String()
}

// peakHeap returns the most heap in use, sampled every millisecond, while
// f runs.
func peakHeap(f func()) uint64 {
	runtime.GC()
	var peak atomic.Uint64
	stop, done := make(chan struct{}), make(chan struct{})
	sample := func() {
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		if m.HeapInuse > peak.Load() {
			peak.Store(m.HeapInuse)
		}
	}
	go func() {
		defer close(done)
		for {
			select {
			case <-stop:
				return
			case <-time.After(time.Millisecond):
				sample()
			}
		}
	}()
	f()
	sample()
	close(stop)
	<-done
	return peak.Load()
}

// TestReplayLoadMemoryIsBoundedByTheBacklog: a trace of one hot key under
// lane-aware leaves every event no consumer could take yet in the
// prediction's backlog, some 200 bytes an event; unbounded, a long trace
// would end in a fatal out of memory. -max-backlog bounds it: Load, which
// checks the trace with the prediction's own simulator before anything
// runs, stops at the event that outgrows it with an error naming the
// flag, and 4 times the events take no more memory.
func TestReplayLoadMemoryIsBoundedByTheBacklog(t *testing.T) {
	if !memtest.Alone(t) {
		return
	}
	const small, large = 100_000, 400_000
	peaks := map[int]uint64{}
	for _, n := range []int{small, large} {
		opt, err := parseReplay([]string{"-events", "-", "-policy", "lane-aware", "-unit", "10us", "-max-backlog", "20000"}, io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		in := hotArrivals(n)
		var lerr error
		peaks[n] = peakHeap(func() {
			var tr *replay.Trace
			if tr, lerr = replay.Load(opt.reader, strings.NewReader(in), opt.Config); lerr == nil {
				tr.Close()
			}
		})
		if lerr == nil || !strings.Contains(report.CommandWords(lerr.Error()), "more than the 20000 it may (its share of -max-backlog)") {
			t.Fatalf("%d events of one key: Load: %v; want an error naming -max-backlog", n, lerr)
		}
		in = ""
		t.Logf("%d events: peak heap %d MB", n, peaks[n]>>20)
	}
	// The trace's text is in the heap throughout; 8 MB is far more than the
	// keys, lanes and buffers of one key need.
	if grew := int64(peaks[large]) - int64(peaks[small]); grew > 8<<20+int64(large-small)*10 {
		t.Errorf("peak heap %d MB for %d events of one key, %d MB for %d: grew by %d bytes an event beyond the trace's text; want memory bounded by -max-backlog",
			peaks[large]>>20, large, peaks[small]>>20, small, (grew-int64(large-small)*10)/int64(large-small))
	}
}
