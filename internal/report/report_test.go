package report

import (
	"strings"
	"testing"
	"time"

	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/lesson"
)

func TestTableAlignsColumns(t *testing.T) {
	tb := &table{leftCols: 2, leftLast: true}
	tb.span(2, "counts")
	tb.add("layout", "policy", "n", "note")
	tb.add("free", "static", "12", "x")
	want := "                counts\n" +
		"layout  policy   n  note\n" +
		"free    static  12  x\n"
	if got := tb.String(); got != want {
		t.Errorf("table:\n%s\nwant:\n%s", got, want)
	}
}

func TestWrapBreaksBetweenPieces(t *testing.T) {
	got := wrap([]string{"aaa", "bbb", "ccc"}, 7)
	if want := "aaa bbb\n  ccc\n"; got != want {
		t.Errorf("wrap = %q; want %q", got, want)
	}
}

func TestRoundedNote(t *testing.T) {
	for _, tt := range []struct {
		n    int
		unit time.Duration
		want string
	}{
		{1, 0, "1 duration or arrival rounded to whole rounds"},
		{3, time.Millisecond, "3 durations and arrivals rounded to whole rounds of 1ms"},
	} {
		if got := RoundedNote(tt.n, tt.unit); got != tt.want {
			t.Errorf("RoundedNote(%d, %v) = %q; want %q", tt.n, tt.unit, got, tt.want)
		}
	}
}

// A trace's reports read the runs of its Results by layout, policy and
// consumers.
func TestTraceReports(t *testing.T) {
	events := lesson.Events()
	tr := &Trace{Name: "lesson.csv", Layouts: []konvoy.Layout{konvoy.Free, konvoy.Convoy},
		Policies: []konvoy.Policy{konvoy.HeadOfLine}, Consumers: 4, Counts: []int{2, 4}}
	for _, l := range tr.Layouts {
		for _, c := range tr.Counts {
			r, err := konvoy.Simulate(events, l, c)
			if err != nil {
				t.Fatal(err)
			}
			tr.Results = append(tr.Results, r)
		}
	}
	for _, e := range events {
		tr.Stats.Add(e)
	}
	if got := tr.Run(1, 0, 2); got.Rounds != tr.Results[2].Rounds {
		t.Errorf("Run(convoy, 2) = %d rounds; want %d", got.Rounds, tr.Results[2].Rounds)
	}
	text := TraceText(tr, TraceOptions{Latency: true})
	for _, want := range []string{"The trace lesson.csv: 20 events", "rounds by consumers", "latency by layout and dispatch policy at 4 consumers"} {
		if !strings.Contains(text, want) {
			t.Errorf("TraceText lacks %q:\n%s", want, text)
		}
	}
	csv, err := TraceCSV(tr)
	if err != nil {
		t.Fatal(err)
	}
	if lines := strings.Split(strings.TrimSpace(csv), "\n"); len(lines) != 5 || !strings.HasPrefix(lines[0], "layout,consumers,events,") {
		t.Errorf("TraceCSV: want a header and 4 records:\n%s", csv)
	}
}

// The plan of the lesson answers what konvoy.ExamplePlanConsumers does.
func TestNewPlanOfTheLesson(t *testing.T) {
	events := lesson.Events()
	src := &PlanSource{Name: "the lesson", Lesson: true, Events: konvoy.Values(events)}
	for _, e := range events {
		src.Stats.Add(e)
		src.Work += e.Duration
	}
	p, err := NewPlan(src, PlanOptions{
		Layouts:  func(int) ([]konvoy.Layout, error) { return []konvoy.Layout{konvoy.Free, konvoy.LineConvoy}, nil },
		Policies: []konvoy.Policy{konvoy.HeadOfLine}, Peak: lesson.PeakRate, Round: 10 * time.Millisecond,
		MaxConsumers: 64, Collision: 0.05, MaxPartitions: 16,
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := []int{p.plans[0][0].Consumers, p.plans[1][0].Consumers}; got[0] != 2 || got[1] != 4 {
		t.Errorf("consumers free, line-convoy = %v; want [2 4]", got)
	}
	if !strings.HasPrefix(PlanText(p), "The capacity plan for the lesson: 20 events") {
		t.Errorf("PlanText:\n%s", PlanText(p))
	}
	if _, err := PlanJSON(p); err != nil {
		t.Error(err)
	}
}
