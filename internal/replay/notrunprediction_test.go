package replay

import (
	"bytes"
	"testing"
	"time"

	"github.com/sirali-konvoy/konvoy"
)

// An event a Stream's source finished without calling Handle (a record
// revoked before it ran, or finished by an earlier member of the group)
// takes no time in the measured run and its planned time in both
// predictions, as Stream.Close, konvoy replay -brokers and docs/replay.md
// say. Here event 0, of 1000 rounds of 1µs, is not run, and event 1, of 1
// round, is: both predictions count event 0's millisecond of work.
func TestNotRunEventsTakeTheirPlannedTimeInThePredictions(t *testing.T) {
	events := []konvoy.Event{{Key: "a", Step: 1, Duration: 1000}, {Key: "b", Step: 1, Duration: 1}}
	c := Config{Layout: konvoy.Convoy, Policy: konvoy.LaneAware, Consumers: 2, Unit: time.Microsecond}
	tr, run, notRun, _ := streamed(t, events, c, new(bytes.Buffer), func(i int) bool { return i == 0 })
	if notRun != 1 {
		t.Fatalf("%d events not run; want 1", notRun)
	}
	cmp, err := Compare(tr, c, run)
	if err != nil {
		t.Fatal(err)
	}
	planned := 1000 * time.Microsecond
	if cmp.Predicted.Work < planned {
		t.Errorf("the planned prediction's work is %v; want at least event 0's planned %v", cmp.Predicted.Work, planned)
	}
	if cmp.FromActual.Work < planned {
		t.Errorf("the prediction from actual times has %v of work; want at least event 0's planned %v, which it was not run to replace", cmp.FromActual.Work, planned)
	}
}
