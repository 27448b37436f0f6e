package konvoy_test

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/lesson"
)

func TestSimulateRejectsBadInput(t *testing.T) {
	ok := konvoy.Event{Key: "A", Line: "L", Step: 1, Duration: 1}
	tests := []struct {
		name      string
		events    []konvoy.Event
		layout    konvoy.Layout
		consumers int
		want      string
		field     string // the EventError's Field; "" for no EventError
		sentinel  error
	}{
		{"no consumers", nil, konvoy.Free, 0, "konvoy: consumers is 0; want 1 to 2147483647", "", nil},
		{"negative consumers", []konvoy.Event{ok}, konvoy.Convoy, -3, "konvoy: consumers is -3; want 1 to 2147483647", "", nil},
		{"empty key", []konvoy.Event{ok, {Step: 1, Duration: 1}}, konvoy.Free, 1, "konvoy: event 1: Key is empty", "Key", nil},
		{"negative step", []konvoy.Event{ok, ok, {Key: "B", Step: -1}}, konvoy.Free, 1, `konvoy: event 2 (key "B"): Step is -1; want 0 (history only) or more`, "Step", nil},
		{"negative duration", []konvoy.Event{{Key: "B", Duration: -2}}, konvoy.VersionStamp, 1, `konvoy: event 0 (key "B"): Duration is -2; want 0 or more rounds`, "Duration", nil},
		{"line convoy without a line", []konvoy.Event{ok, {Key: "C", Step: 1}}, konvoy.LineConvoy, 2, `konvoy: event 1 (key "C"): Line is empty; want a line: layout line-convoy puts events in lanes by line`, "Line", nil},
		{"negative arrival", []konvoy.Event{{Key: "E", Arrival: -1}}, konvoy.Free, 1, `konvoy: event 0 (key "E"): Arrival is -1; want round 0 or later`, "Arrival", nil},
		{"arrivals out of order", []konvoy.Event{{Key: "E", Arrival: 5}, {Key: "F", Arrival: 4}}, konvoy.Free, 1, `konvoy: event 1 (key "F"): Arrival is 4; want 5 or later: the previous event arrived then, and events come in arrival order`, "Arrival", konvoy.ErrOrder},
		{"arrival overflows", []konvoy.Event{{Key: "E", Duration: 2}, {Key: "F", Arrival: math.MaxInt - 3, Duration: 1}}, konvoy.Free, 1, fmt.Sprintf(`konvoy: event 1 (key "F"): Arrival is %d; want at most %d, so that the arrival plus the total work stays below the largest int`, math.MaxInt-3, math.MaxInt-4), "Arrival", nil},
		{"work overflows", []konvoy.Event{ok, {Key: "D", Duration: math.MaxInt}}, konvoy.Convoy, 2, fmt.Sprintf(`konvoy: event 1 (key "D"): Duration is %d; want at most %d, so that the total work stays below the largest int`, math.MaxInt, math.MaxInt-2), "Duration", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := konvoy.Simulate(tt.events, tt.layout, tt.consumers)
			if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
				t.Fatalf("error %v; want one starting %q", err, tt.want)
			}
			var ev *konvoy.EventError
			if found := errors.As(err, &ev); found != (tt.field != "") || found && ev.Field != tt.field {
				t.Errorf("errors.As found %v, %+v; want Field %q", found, ev, tt.field)
			}
			if found := errors.As(err, &ev); found && (ev.Index != len(tt.events)-1 || "konvoy: "+ev.Error() != err.Error()) {
				t.Errorf("EventError %+v says %q; the error says %q", ev, ev.Error(), err)
			}
			if tt.sentinel != nil && !errors.Is(err, tt.sentinel) {
				t.Errorf("errors.Is(%v, %v) is false", err, tt.sentinel)
			}
			if d := cmp.Diff(konvoy.Result{}, r); d != "" {
				t.Errorf("a failed run returned a partial Result:\n%s", d)
			}
		})
	}
}

// TestSimulateEmptyIsZero holds Simulate's doc: no events, a zero Result,
// whatever the options ask it to keep (a schedule, say).
func TestSimulateEmptyIsZero(t *testing.T) {
	for _, opts := range [][]konvoy.Option{nil, {konvoy.WithSchedule(4)}} {
		for _, l := range lesson.Layouts() {
			r, err := konvoy.Simulate(nil, l, 3, opts...)
			if err != nil || !cmp.Equal(r, konvoy.Result{}) || r.Parallelism() != 0 {
				t.Errorf("%s on no events, %d options: %#v, %v; want a zero Result and nil", l, len(opts), r, err)
			}
		}
	}
}

func TestWorkMayReachMaxIntLessOne(t *testing.T) {
	r, err := konvoy.Simulate([]konvoy.Event{{Key: "A", Duration: math.MaxInt - 2}, {Key: "B", Duration: 1}}, konvoy.Free, 1)
	if err != nil || r.Work != math.MaxInt-1 || r.Rounds != math.MaxInt-1 {
		t.Fatalf("got %+v, %v; want Work and Rounds at MaxInt-1", r, err)
	}
}

func TestArrivalDelaysStart(t *testing.T) {
	// B arrives at 10, long after A is done: it starts then, not at 2.
	events := []konvoy.Event{{Key: "A", Line: "L", Step: 1, Duration: 2}, {Key: "B", Line: "L", Step: 1, Duration: 3, Arrival: 10}}
	for _, l := range lesson.Layouts() {
		r, err := konvoy.Simulate(events, l, 1)
		if err != nil || r.Rounds != 13 || r.Work != 5 {
			t.Errorf("%s: %+v, %v; want 13 rounds of work 5", l, r, err)
		}
	}
	r, err := konvoy.Simulate([]konvoy.Event{{Key: "A", Duration: 1}, {Key: "B", Arrival: math.MaxInt - 2, Duration: 0}}, konvoy.Free, 1)
	if err != nil || r.Rounds != math.MaxInt-2 {
		t.Errorf("arrival at the edge of int: %+v, %v", r, err)
	}
}

func TestHistoryOnlyEventsNeverWriteBackward(t *testing.T) {
	// Step 0 finishes last yet changes nothing: A stays at 2, its highest step.
	events := []konvoy.Event{{Key: "A", Line: "L", Step: 2, Duration: 1}, {Key: "A", Line: "L", Step: 0, Duration: 5}, {Key: "H", Line: "M", Step: 0, Duration: 1}}
	for _, l := range lesson.Layouts() {
		r, err := konvoy.Simulate(events, l, 2)
		if err != nil {
			t.Fatal(err)
		}
		if r.BackwardWrites != 0 || r.WrongFinal != 0 || r.Keys != 2 {
			t.Errorf("%s: %+v; want no backward writes, no wrong keys, 2 keys", l, r)
		}
	}
}

func TestWrongKeysInFirstAppearanceOrder(t *testing.T) {
	// Z appears first but its backward write is applied last.
	events := []konvoy.Event{
		{Key: "Z", Step: 1, Duration: 9}, {Key: "Y", Step: 1, Duration: 5}, {Key: "Z", Step: 2, Duration: 1},
		{Key: "Y", Step: 2, Duration: 1}, {Key: "X", Step: 1, Duration: 1},
	}
	r, err := konvoy.Simulate(events, konvoy.Free, 5)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]string{"Z", "Y"}, r.WrongKeys); d != "" || r.WrongFinal != 2 {
		t.Fatalf("WrongKeys (-want +got):\n%s (WrongFinal %d)", d, r.WrongFinal)
	}
}

func TestSimulatorKeepsItsError(t *testing.T) {
	s, err := konvoy.NewSimulator(konvoy.Free, 1)
	if err != nil {
		t.Fatal(err)
	}
	first := s.Add(konvoy.Event{})
	second := s.Add(konvoy.Event{Key: "A", Duration: 1})
	_, last := s.Result()
	if first == nil || second != first || last != first {
		t.Fatalf("errors %v, %v, %v; want the first one kept", first, second, last)
	}
}

func TestSimulatorAddAfterResultPanics(t *testing.T) {
	s, err := konvoy.NewSimulator(konvoy.Convoy, 2)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Add(konvoy.Event{Key: "A", Step: 1, Duration: 1}); err != nil {
		t.Fatal(err)
	}
	first, err := s.Result()
	if err != nil {
		t.Fatal(err)
	}
	again, err := s.Result()
	if err != nil || first.Events != 1 || !cmp.Equal(first, again) {
		t.Fatalf("Result twice: %+v then %+v", first, again)
	}
	defer func() {
		if p, _ := recover().(string); !strings.HasPrefix(p, "konvoy: ") {
			t.Fatalf("panic %q; want a konvoy: message", p)
		}
	}()
	_ = s.Add(konvoy.Event{Key: "B", Step: 1, Duration: 1})
}

func TestLayoutNames(t *testing.T) {
	var got []string
	for _, l := range lesson.Layouts() {
		got = append(got, l.String())
		if back, err := konvoy.ParseLayout(l.String()); err != nil || !back.Equal(l) {
			t.Errorf("ParseLayout(%q) = %v, %v", l, back, err)
		}
	}
	if d := cmp.Diff([]string{"free", "convoy", "line-convoy", "version-stamp"}, got); d != "" {
		t.Errorf("names (-want +got):\n%s", d)
	}
	if _, err := konvoy.ParseLayout("conv"); err == nil {
		t.Error(`ParseLayout("conv") found a layout`)
	}
	if s := (konvoy.Layout{}).String(); s != "free" {
		t.Errorf("zero Layout is %q; want free", s)
	}
	if s := konvoy.NewLayout("mine", nil).String(); s != "mine" {
		t.Errorf("NewLayout name %q; want mine", s)
	}
}

func TestZeroLayoutIsFree(t *testing.T) {
	events := lesson.Events()
	zero, err := konvoy.Simulate(events, konvoy.Layout{}, 4)
	if err != nil {
		t.Fatal(err)
	}
	free, err := konvoy.Simulate(events, konvoy.Free, 4)
	if err != nil {
		t.Fatal(err)
	}
	if zero.Events != len(events) {
		t.Fatalf("zero Layout ran %d of %d events", zero.Events, len(events))
	}
	if d := cmp.Diff(free, zero); d != "" {
		t.Fatalf("zero Layout differs from Free:\n%s", d)
	}
}

func TestLessonEventsIsAFreshCopy(t *testing.T) {
	a := lesson.Events()
	a[0].Key = "changed"
	if b := lesson.Events(); b[0].Key != "TR-4821" || len(b) != 20 {
		t.Fatalf("LessonEvents shares its slice: %+v", b[0])
	}
	if got := lesson.Statuses(); !cmp.Equal(got, []string{"kabul", "aktarma", "dagitim", "teslim"}) {
		t.Fatalf("LessonStatuses = %v", got)
	}
}

func TestCapacityArithmetic(t *testing.T) {
	free := konvoy.Result{Work: 32, Rounds: 8}
	convoy := konvoy.Result{Work: 32, Rounds: 13}
	if got := konvoy.Cost(convoy, free); got != 1.625 {
		t.Errorf("Cost = %v; want 1.625", got)
	}
	if got := konvoy.Cost(konvoy.Result{}, free); got != 0 {
		t.Errorf("Cost of an empty run = %v; want 0", got)
	}
	if got := konvoy.Cost(convoy, konvoy.Result{}); got != 0 {
		t.Errorf("Cost against an empty free run = %v; want 0", got)
	}
	if got := konvoy.SelectiveMultiplier(0.25, 3); got != 1.5 {
		t.Errorf("SelectiveMultiplier(0.25, 3) = %v; want 1.5", got)
	}
	if got := konvoy.SelectiveMultiplier(1, 0); got != 0 {
		t.Errorf("SelectiveMultiplier(1, 0) = %v; want 0", got)
	}
	inf := math.Inf(1)
	if got := konvoy.SelectiveMultiplier(0, inf); got != 1 {
		t.Errorf("SelectiveMultiplier(0, +Inf) = %v; want 1: no event pays the cost", got)
	}
	if got := konvoy.SelectiveMultiplier(0.5, inf); got != inf {
		t.Errorf("SelectiveMultiplier(0.5, +Inf) = %v; want +Inf", got)
	}
	if o, u := konvoy.SplitRate(80, 0.75); o != 60 || u != 20 {
		t.Errorf("SplitRate(80, 0.75) = %v, %v; want 60, 20", o, u)
	}
	if o, u := konvoy.SplitRate(0, 0); o != 0 || u != 0 {
		t.Errorf("SplitRate(0, 0) = %v, %v", o, u)
	}
}

func TestCapacityPanicsOnMisuse(t *testing.T) {
	for name, f := range map[string]func(){
		"share above 1": func() { konvoy.SelectiveMultiplier(1.01, 1) },
		"share below 0": func() { konvoy.SplitRate(10, -0.1) },
		"share NaN":     func() { konvoy.SplitRate(10, math.NaN()) },
		"negative cost": func() { konvoy.SelectiveMultiplier(0.5, -1) },
		"NaN cost":      func() { konvoy.SelectiveMultiplier(0.5, math.NaN()) },
		"negative peak": func() { konvoy.SplitRate(-1, 0.5) },
		"infinite peak": func() { konvoy.SplitRate(math.Inf(1), 0.5) },
		"NaN peak":      func() { konvoy.SplitRate(math.NaN(), 0.5) },
	} {
		t.Run(name, func(t *testing.T) {
			defer func() {
				if p, _ := recover().(string); !strings.HasPrefix(p, "konvoy: ") {
					t.Fatalf("panic %q; want a konvoy: message", p)
				}
			}()
			f()
		})
	}
}

func TestParallelism(t *testing.T) {
	if got := (konvoy.Result{Work: 7, Rounds: 2}).Parallelism(); got != 3.5 {
		t.Errorf("Parallelism = %v; want 3.5", got)
	}
	if got := (konvoy.Result{Work: 0, Rounds: 0, Events: 3}).Parallelism(); got != 0 {
		t.Errorf("Parallelism of a zero-time run = %v; want 0", got)
	}
}

// Consumers are numbered in 32 bits inside the simulator, so a count beyond
// MaxInt32 is refused rather than wrapped. Only a 64-bit int can ask for
// that many.
func TestNewSimulatorRefusesMoreConsumersThanItCanNumber(t *testing.T) {
	n := int64(math.MaxInt32) + 1
	if n > math.MaxInt {
		t.Skip("an int on this platform cannot ask for more than MaxInt32 consumers")
	}
	_, err := konvoy.NewSimulator(konvoy.Convoy, int(n))
	if want := "konvoy: consumers is 2147483648; want 1 to 2147483647"; err == nil || err.Error() != want {
		t.Fatalf("NewSimulator with %d consumers: error %v; want %s", n, err, want)
	}
}

// QuoteKey leaves a key that reads as one name as it is, and quotes every
// other, so that the quoted form reads back as the key: each separator, a
// quote, a character that does not print, bytes that are not UTF-8, and
// nothing at all.
func TestQuoteKeyQuotesWhatWouldNotReadAsOneName(t *testing.T) {
	for _, k := range []string{"K1", "TR-2214", "ä", "日本", "a.b", "x'y"} {
		if got := konvoy.QuoteKey(k); got != k {
			t.Errorf("QuoteKey(%q) = %s; want it as it is", k, got)
		}
	}
	for _, k := range []string{"", "a,b", "a;b", "a b", "a\tb", "a\rb", "a\nb", `a"b`, "a\x00b", "a\u200bb", "\xff", "a\u00a0b"} {
		got := konvoy.QuoteKey(k)
		if back, err := strconv.Unquote(got); err != nil || back != k {
			t.Errorf("QuoteKey(%q) = %s; want it quoted, to read back as the key", k, got)
		}
	}
}

// Add after Result returns the error the simulator keeps, whether an Add
// or Result itself found it, as its doc says; without one it panics (see
// TestMisusePanicsWithThePrefix). It panicked when Result had found the
// error (found by a review).
func TestAddAfterAFailedResultReturnsItsError(t *testing.T) {
	third := math.MaxInt / 3
	held := []konvoy.Event{{Key: "A", Step: 2}, {Key: "B", Step: 2}, {Key: "C", Step: 2},
		{Key: "A", Step: 1, Duration: third}, {Key: "B", Step: 1, Duration: third}, {Key: "C", Step: 1, Duration: third}}
	for name, events := range map[string][]konvoy.Event{"Result's": held, "Add's": {{Key: ""}}} {
		s, err := konvoy.NewSimulator(konvoy.Resequencer, 1)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range events {
			_ = s.Add(e)
		}
		_, want := s.Result()
		if want == nil {
			t.Fatalf("%s error: Result returned none", name)
		}
		if err := s.Add(konvoy.Event{Key: "D", Step: 1, Duration: 1}); err != want {
			t.Errorf("%s error: Add after Result returned %v; want %v", name, err, want)
		}
	}
}
