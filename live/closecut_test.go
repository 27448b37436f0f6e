package live

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"

	"github.com/sirali-konvoy/konvoy"
)

// A failed item whose guard's exit returns only after Close gave up is
// not given to the dead letter: Close reports it as not run.
func TestNoDeadLetterOnceCloseGaveUpDuringGuardExit(t *testing.T) {
	exiting := make(chan struct{})
	var once sync.Once
	var dead bool
	x, err := New(konvoy.Convoy, 1, func(int) konvoy.Event { return konvoy.Event{Key: "k"} },
		func(context.Context, int) error { return errors.New("boom") },
		WithDeadLetter(func(context.Context, int, error) error { dead = true; return nil }),
		WithGuard(func(context.Context, int) bool { return true },
			func(ctx context.Context, _ int, err error) {
				if err != nil {
					once.Do(func() { close(exiting) })
					<-ctx.Done()
				}
			}))
	if err != nil {
		t.Fatal(err)
	}
	if err := x.Submit(context.Background(), 7); err != nil {
		t.Fatal(err)
	}
	<-exiting
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err = x.Close(ctx)
	if dead {
		t.Error("the dead letter ran after Close gave up")
	}
	var ue *UnrunError[int]
	if !errors.As(err, &ue) || !slices.Equal(ue.Items, []int{7}) {
		t.Errorf("Close: %v; want an UnrunError with item 7", err)
	}
}

// A dead letter that fails after Close gave up cuts its item short: it is
// reported not run, and does not stop the executor as a failure.
func TestDeadLetterFailingAfterCloseGaveUpIsCut(t *testing.T) {
	entered := make(chan struct{})
	x, err := New(konvoy.Convoy, 1, func(int) konvoy.Event { return konvoy.Event{Key: "k"} },
		func(context.Context, int) error { return errors.New("boom") },
		WithDeadLetter(func(ctx context.Context, _ int, _ error) error {
			close(entered)
			<-ctx.Done()
			return errors.New("dead letter failed")
		}))
	if err != nil {
		t.Fatal(err)
	}
	if err := x.Submit(context.Background(), 7); err != nil {
		t.Fatal(err)
	}
	<-entered
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err = x.Close(ctx)
	if errors.Is(err, ErrStopped) {
		t.Errorf("Close: %v; want no ErrStopped: the dead letter failed after Close gave up", err)
	}
	var ue *UnrunError[int]
	if !errors.As(err, &ue) || !slices.Equal(ue.Items, []int{7}) {
		t.Errorf("Close: %v; want an UnrunError with item 7", err)
	}
	if s := x.Stats(); s.Failed != 0 {
		t.Errorf("Stats.Failed %d; want 0", s.Failed)
	}
}
