package runs_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/eventlog"
	"github.com/sirali-konvoy/konvoy/internal/report"
	"github.com/sirali-konvoy/konvoy/internal/runs"
)

// Memory gives the runs three quarters of MaxMemory, or three eighths
// beside a Reorder window that takes as much; a run over them says which,
// in the command's words and the page's, with no library name.
func TestARunOverMemoryBesideAWindowNamesItsShare(t *testing.T) {
	o := runs.Options{Name: "t.csv", Layouts: []konvoy.Layout{konvoy.Free}, Policies: []konvoy.Policy{konvoy.HeadOfLine},
		Consumers: []int{1}, Reader: eventlog.Reader{Name: "t.csv", Resolution: time.Millisecond}, MaxMemory: 1 << 20}
	if r, w := runs.Memory(o); r != 786432 || w != 0 {
		t.Errorf("Memory without a window: %d for the runs, %d for the window; want 786432 and 0", r, w)
	}
	o.Reader.Reorder = time.Millisecond
	if r, w := runs.Memory(o); r != 393216 || w != 393216 {
		t.Errorf("Memory with a window: %d for the runs, %d for the window; want 393216 each", r, w)
	}
	var csv strings.Builder
	csv.WriteString("key,step,duration,at\n")
	for i := range 20000 {
		fmt.Fprintf(&csv, "k%d,1,1ms,%dms\n", i, i)
	}
	passes := 0
	_, err := runs.Trace(context.Background(), source([]byte(csv.String()), &passes), o)
	if !errors.Is(err, konvoy.ErrMemory) || !runs.WindowShared(err) || !strings.Contains(err.Error(), "the sweep's 393216 (") {
		t.Fatalf("a run over 393216 bytes beside a window: %v, shared %v; want konvoy.ErrMemory, shared with the window", err, runs.WindowShared(err))
	}
	for name, words := range map[string]func(string, ...string) string{"CommandWords": report.CommandWords, "PageWords": report.PageWords} {
		if got := words(err.Error()); strings.Contains(got, "With") || strings.Contains(got, "Reorder window") || strings.Contains(got, "three quarters") {
			t.Errorf("%s: %q; want the runs' share beside the -reorder window, no library name", name, got)
		}
	}
	if got := report.CommandWords(err.Error()); !strings.Contains(got, "the sweep's 393216 (three eighths of -max-memory") {
		t.Errorf("CommandWords: %q; want the runs' three eighths of -max-memory", got)
	}
	if runs.WindowShared(konvoy.ErrMemory) {
		t.Errorf("WindowShared(konvoy.ErrMemory): true; want false, no window named")
	}
}
