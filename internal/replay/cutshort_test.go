package replay

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/live"
)

// -applied holds one line per handled event, and a handler whose context
// ends first is not handled (Stream.Handled counts it in neither of its
// counts; package kafka's record so cut short goes to another member): it
// gets no -applied line, and no service time. Here event 0, of a second,
// is cut short after a millisecond, and event 1 is handled: -applied names
// event 1 alone.
func TestAHandlerCutShortWritesNoAppliedLine(t *testing.T) {
	c := Config{Layout: konvoy.Convoy, Policy: konvoy.LaneAware, Consumers: 2, Unit: time.Microsecond}
	var applied bytes.Buffer
	s, err := NewStream("topic t", c, &applied, nil)
	if err != nil {
		t.Fatal(err)
	}
	cut, err := s.Add(konvoy.Event{Key: "a", Step: 1, Duration: 1_000_000}, 0, 10, 0)
	if err != nil {
		t.Fatal(err)
	}
	done, err := s.Add(konvoy.Event{Key: "b", Step: 1, Duration: 1}, 0, 11, 0)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Millisecond)
	defer cancel()
	if err := s.Handle(ctx, cut); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Handle of a handler cut short: %v; want its context's error", err)
	}
	if err := s.Handle(context.Background(), done); err != nil {
		t.Fatal(err)
	}
	tr, run, _, err := s.Close(live.Stats{Events: 2, Done: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	defer run.Close()
	if s.Handled() != 1 {
		t.Fatalf("%d handled; want 1", s.Handled())
	}
	var offsets []int64
	sc := bufio.NewScanner(&applied)
	for sc.Scan() {
		var a appliedLine
		if err := json.Unmarshal(sc.Bytes(), &a); err != nil {
			t.Fatal(err)
		}
		offsets = append(offsets, a.Offset)
	}
	if len(offsets) != 1 || offsets[0] != 11 {
		t.Errorf("-applied names offsets %v; want [11], the event handled, and no line for offset 10, cut short", offsets)
	}
}
