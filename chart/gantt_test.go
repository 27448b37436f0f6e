package chart

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/sirali-konvoy/konvoy"
)

func drawn(t *testing.T, events []konvoy.Event, l konvoy.Layout, consumers int, p konvoy.Policy) string {
	t.Helper()
	r, err := konvoy.Simulate(events, l, consumers, konvoy.WithPolicy(p), konvoy.WithSchedule(len(events)))
	if err != nil {
		t.Fatal(err)
	}
	s, err := GanttText("title", r, consumers, p)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestGanttBlocking draws konvoy's ExampleLaneAware: under head-of-line
// dispatch the second consumer holds A's second event for two rounds while
// A's lane is busy, and B waits behind it; lane-aware dispatch runs B first.
func TestGanttBlocking(t *testing.T) {
	events := []konvoy.Event{
		{Key: "A", Step: 1, Duration: 2},
		{Key: "A", Step: 2, Duration: 1},
		{Key: "B", Step: 1, Duration: 2},
	}
	want := `title
round      0
consumer 1 AaBb
consumer 2 ..A
keys: A A; B B
an event is its key's capital letter, then the small one for each further round it runs
. is a consumer holding an event whose lane is busy (head-of-line blocking)
of 8 consumer-rounds (2 × 4): 5 busy, 2 blocked (.), 1 idle
`
	if d := cmp.Diff(want, drawn(t, events, konvoy.Convoy, 2, konvoy.HeadOfLine)); d != "" {
		t.Errorf("head-of-line (-want +got):\n%s", d)
	}
	want = `title
round      0
consumer 1 AaA
consumer 2 Bb
keys: A A; B B
an event is its key's capital letter, then the small one for each further round it runs
of 6 consumer-rounds (2 × 3): 5 busy, 1 idle
`
	if d := cmp.Diff(want, drawn(t, events, konvoy.Convoy, 2, konvoy.LaneAware)); d != "" {
		t.Errorf("lane-aware (-want +got):\n%s", d)
	}
}

// TestGanttArrivals wants a consumer waiting for an event to arrive drawn
// blank, not blocked, and an event of no duration counted, not drawn.
func TestGanttArrivals(t *testing.T) {
	events := []konvoy.Event{
		{Key: "A", Step: 1, Duration: 1},
		{Key: "A", Step: 2, Duration: 0, Arrival: 1},
		{Key: "A", Step: 3, Duration: 2, Arrival: 3},
	}
	got := drawn(t, events, konvoy.Convoy, 1, konvoy.HeadOfLine)
	for _, want := range []string{"consumer 1 A  Aa\n", "0 blocked (.), 2 idle\n", "1 event of no duration not drawn\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("the view lacks %q:\n%s", want, got)
		}
	}
}

// TestGanttBands draws a long run with many keys and consumers: bands of
// whole tens of rounds under their own rulers, no line wider than
// ganttWidth, and the legend sharing letters beyond 26 keys.
func TestGanttBands(t *testing.T) {
	var events []konvoy.Event
	for i := range 200 {
		events = append(events, konvoy.Event{Key: fmt.Sprintf("key-%02d", i%40), Step: 1 + i/40, Duration: 3 + i%5})
	}
	got := drawn(t, events, konvoy.Convoy, 10, konvoy.HeadOfLine)
	var rulers []string
	for _, line := range strings.Split(got, "\n") {
		if len(line) > ganttWidth {
			t.Errorf("%d bytes: %q", len(line), line)
		}
		if strings.HasPrefix(line, "round") {
			rulers = append(rulers, line)
		}
	}
	r, _ := konvoy.Simulate(events, konvoy.Convoy, 10)
	band := (ganttWidth - len("consumer 10") - 1) / ganttTick * ganttTick
	if n := (r.Rounds + band - 1) / band; len(rulers) != n || n < 2 {
		t.Fatalf("%d rulers for %d rounds; want %d, at least 2:\n%s", len(rulers), r.Rounds, n, got)
	}
	if want := fmt.Sprintf("round       %-10d", band); !strings.HasPrefix(rulers[1], want) {
		t.Errorf("second ruler %q; want it to start %q", rulers[1], want)
	}
	if !strings.Contains(got, "A key-00, key-26;") || !strings.Contains(got, "\n  ") {
		t.Errorf("legend: want letters shared past 26 keys and wrapped lines:\n%s", got)
	}
	rows := 0
	for _, line := range strings.Split(got, "\n") {
		if strings.HasPrefix(line, "consumer ") {
			rows++
		}
	}
	if rows != 10*len(rulers) {
		t.Errorf("%d consumer rows; want 10 per band", rows)
	}
}

func TestGanttNothingToDraw(t *testing.T) {
	got := drawn(t, []konvoy.Event{{Key: "A", Step: 1}}, konvoy.Free, 2, konvoy.HeadOfLine)
	if got != "title\nnothing to draw: no event takes any time\n" {
		t.Errorf("got %q", got)
	}
}

// TestGanttIdleConsumers wants consumers that ran nothing after the last
// busy one named in a line, not drawn.
func TestGanttIdleConsumers(t *testing.T) {
	events := []konvoy.Event{{Key: "A", Step: 1, Duration: 2}, {Key: "B", Step: 1, Duration: 1}}
	got := drawn(t, events, konvoy.Convoy, 500, konvoy.HeadOfLine)
	want := "title\nround      0\nconsumer 1 Aa\nconsumer 2 B\nconsumers 3 to 500 had nothing to do\n"
	if !strings.HasPrefix(got, want) || !strings.Contains(got, "of 1000 consumer-rounds (500 × 2): 3 busy, 0 blocked (.), 997 idle\n") {
		t.Errorf("got\n%s\nwant it to start\n%s", got, want)
	}
	got = drawn(t, events, konvoy.Convoy, 3, konvoy.HeadOfLine)
	if !strings.Contains(got, "consumer 2 B\nconsumer 3 had nothing to do\n") {
		t.Errorf("got\n%s", got)
	}
}

// TestGanttConsumersOfInstantEventsOnly wants consumers left out of the
// drawing that ran events of no duration said to, not to have had nothing
// to do: consumer 3 runs C, of no duration, while the others run A and B.
func TestGanttConsumersOfInstantEventsOnly(t *testing.T) {
	events := []konvoy.Event{{Key: "A", Step: 1, Duration: 2}, {Key: "B", Step: 1, Duration: 2}, {Key: "C", Step: 1}}
	got := drawn(t, events, konvoy.Convoy, 4, konvoy.HeadOfLine)
	if !strings.Contains(got, "consumer 2 Bb\nconsumers 3 to 4 ran no event that takes time\n") || !strings.Contains(got, "1 event of no duration not drawn\n") {
		t.Errorf("got\n%s", got)
	}
}

// TestGanttTaken wants blocking drawn from each slot's Taken to its Start,
// whatever the policy: a static consumer that took an event whose lane was
// busy shows it blocked, as head-of-line dispatch does.
func TestGanttTaken(t *testing.T) {
	r := konvoy.Result{Rounds: 4, Schedule: []konvoy.Slot{
		{Index: 0, Key: "A", Lane: "A", Consumer: 0, Taken: 0, Start: 0, Finish: 2},
		{Index: 1, Key: "A", Lane: "A", Consumer: 1, Taken: 0, Start: 2, Finish: 3},
		{Index: 2, Key: "B", Lane: "B", Consumer: 0, Arrival: 3, Taken: 3, Start: 3, Finish: 4},
	}}
	got, err := GanttText("title", r, 2, konvoy.Static)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"consumer 1 Aa B\n", "consumer 2 ..A\n",
		". is a consumer holding an event whose lane is busy (head-of-line blocking)\n",
		"of 8 consumer-rounds (2 × 4): 4 busy, 2 blocked (.), 2 idle\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the view lacks %q:\n%s", want, got)
		}
	}
}
