package konvoy_test

import (
	"errors"
	"strings"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"
	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/lesson"
)

func TestScheduleLimitIsAnError(t *testing.T) {
	_, err := konvoy.Simulate(lesson.Events(), konvoy.Convoy, 4, konvoy.WithSchedule(19))
	if err == nil || err.Error() != `konvoy: event 19 (key "TR-7788"): schedule limit reached: WithSchedule(19) keeps the schedule of runs of at most 19 events` || !errors.Is(err, konvoy.ErrScheduleFull) {
		t.Fatalf("error %v", err)
	}
	r, err := konvoy.Simulate(lesson.Events(), konvoy.Convoy, 4, konvoy.WithSchedule(20))
	if err != nil || len(r.Schedule) != 20 {
		t.Fatalf("%d slots, %v", len(r.Schedule), err)
	}
	// One event, singular.
	if _, err := konvoy.Simulate(lesson.Events(), konvoy.Convoy, 4, konvoy.WithSchedule(1)); err == nil || !strings.HasSuffix(err.Error(), "WithSchedule(1) keeps the schedule of runs of at most 1 event") {
		t.Errorf("error %v; want at most 1 event, singular", err)
	}
}

// Latencies of ExactLatency rounds and more are reported within their
// precision, and Max and Mean exactly. The waits are 0, 100,000, 100,000
// and 100,003 rounds: the exact P50, 100,000, falls in the bucket of
// 99,968 to 100,031, whose top is capped at Max.
func TestLatencyOfLargeValuesIsWithinItsPrecision(t *testing.T) {
	events := []konvoy.Event{{Key: "A", Duration: 100_000}, {Key: "A", Duration: 3}, {Key: "B", Duration: 70_000}, {Key: "A", Duration: 1}}
	r, err := konvoy.Simulate(events, konvoy.Convoy, 2)
	if err != nil {
		t.Fatal(err)
	}
	want := refSimulate(events, 2, func(e konvoy.Event) (string, bool) { return e.Key, true }, "")
	if d := gocmp.Diff(want.Wait, r.Wait, withinPrecision); d != "" {
		t.Errorf("Wait (-want +got):\n%s", d)
	}
	if d := gocmp.Diff(want.Response, r.Response, withinPrecision); d != "" {
		t.Errorf("Response (-want +got):\n%s", d)
	}
	if r.Response.Max != 170_000 || r.Wait.Max != 100_003 || r.Wait.P50 != 100_003 {
		t.Errorf("%+v", r)
	}
}

func TestParsePolicy(t *testing.T) {
	for _, p := range konvoy.Policies() {
		if got, err := konvoy.ParsePolicy(p.String()); err != nil || got != p {
			t.Errorf("ParsePolicy(%q) = %v, %v", p, got, err)
		}
	}
	if _, err := konvoy.ParsePolicy("fifo"); err == nil {
		t.Error(`ParsePolicy("fifo") succeeded`)
	}
	if _, err := konvoy.NewSimulator(konvoy.Free, 1, konvoy.WithPolicy(konvoy.Policy(9))); err == nil {
		t.Error("an unknown policy was accepted")
	}
}
