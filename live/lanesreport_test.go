package live

import (
	"context"
	"slices"
	"testing"

	"github.com/sirali-konvoy/konvoy"
)

// Under lane-aware, Lanes shows a lane whose second item runs, freed by
// its first, as running with its third item held.
func TestLanesShowsTheRunningNextItemOfAFreedLane(t *testing.T) {
	gate0, gate1, started1 := make(chan struct{}), make(chan struct{}), make(chan struct{})
	x, err := New(konvoy.Convoy, 1, func(int) konvoy.Event { return konvoy.Event{Key: "k"} },
		func(_ context.Context, i int) error {
			switch i {
			case 0:
				<-gate0
			case 1:
				close(started1)
				<-gate1
			}
			return nil
		})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		if err := x.Submit(context.Background(), i); err != nil {
			t.Fatal(err)
		}
	}
	close(gate0)
	<-started1
	got := x.Lanes(10)
	close(gate1)
	if len(got) != 1 || !got[0].Running || got[0].Held != 1 {
		t.Errorf("Lanes: %+v; want lane k running, 1 held", got)
	}
	if err := x.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// A lane-aware lane with one item held, kept in a slot, is an active lane.
func TestActiveLanesCountsALaneOfOneItem(t *testing.T) {
	gate := make(chan struct{})
	x, err := New(konvoy.Convoy, 1, func(int) konvoy.Event { return konvoy.Event{Key: "a"} },
		func(context.Context, int) error { <-gate; return nil })
	if err != nil {
		t.Fatal(err)
	}
	if err := x.Submit(context.Background(), 0); err != nil {
		t.Fatal(err)
	}
	s := x.Stats()
	close(gate)
	if s.ActiveLanes != 1 {
		t.Errorf("ActiveLanes %d with lane a's item held; want 1", s.ActiveLanes)
	}
	if err := x.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// Lanes orders lanes whose waits are equal (SubmitAll reads the clock
// once) by their waiting item's submission, and lanes with none waiting
// by name.
func TestLanesBreaksTiesBySubmissionThenName(t *testing.T) {
	gate := make(chan struct{})
	started := make(chan struct{}, 2)
	x, err := New(konvoy.Convoy, 2, func(s string) konvoy.Event { return konvoy.Event{Key: s[:1]} },
		func(_ context.Context, s string) error {
			if len(s) == 2 { // the running items
				started <- struct{}{}
				<-gate
			}
			return nil
		})
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		close(gate)
		if err := x.Close(context.Background()); err != nil {
			t.Fatal(err)
		}
	}()
	// zz and yy run on the two consumers; d and c wait, each first in its
	// lane, submitted at the same time.
	if n, err := x.SubmitAll(context.Background(), []string{"zz", "yy", "d", "c"}); err != nil || n != 4 {
		t.Fatal(n, err)
	}
	<-started
	<-started
	got := x.Lanes(10)
	var names []string
	for _, l := range got {
		names = append(names, l.Lane)
	}
	if want := []string{"d", "c", "y", "z"}; !slices.Equal(names, want) {
		t.Errorf("Lanes: %+v; want lanes in order %v", got, want)
	}
}
