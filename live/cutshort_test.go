package live

import (
	"context"
	"errors"
	"runtime"
	"testing"
	"time"

	"github.com/sirali-konvoy/konvoy"
)

// An item cut short, started and then stopped before its outcome, counts
// in Stats as CutShort, so that once Close returned the counts add up to
// Events; Close names it among the items that did not run. It was counted
// nowhere (found by a review). Here B waits an hour for its second
// attempt when A's failure stops the executor.
func TestAnItemAStopCutsShortCountsAsCutShort(t *testing.T) {
	type it struct{ name string }
	bFailed := make(chan struct{})
	x, err := New(konvoy.Free, 2, func(i it) konvoy.Event { return konvoy.Event{Key: i.name} },
		func(ctx context.Context, i it) error {
			if i.name == "A" {
				<-bFailed // A fails, with no retry, once B has failed its first attempt
				runtime.Goexit()
			}
			close(bFailed)
			return errors.New("B fails")
		},
		WithRetry(Retry{Attempts: 2, Base: time.Hour}))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, name := range []string{"A", "B"} {
		if err := x.Submit(ctx, it{name}); err != nil {
			t.Fatal(err)
		}
	}
	var u *UnrunError[it]
	if err := x.Close(ctx); !errors.As(err, &u) || len(u.Items) != 1 || u.Items[0].name != "B" {
		t.Fatalf("Close: %v; want B not run", err)
	}
	if s := x.Stats(); s.CutShort != 1 || s.Failed != 1 || s.Done+s.DeadLetters+s.Skipped+s.Failed+s.CutShort+s.InFlight+s.Held != s.Events {
		t.Errorf("Stats %+v; want B CutShort and A Failed, of 2 Events", s)
	}
}

// The same for an item whose attempt failed once Close had given up.
func TestAnItemCloseGaveUpOnCountsAsCutShort(t *testing.T) {
	started := make(chan struct{})
	x, err := New(konvoy.Convoy, 1, func(k string) konvoy.Event { return konvoy.Event{Key: k} },
		func(ctx context.Context, k string) error {
			close(started)
			<-ctx.Done()
			return ctx.Err()
		})
	if err != nil {
		t.Fatal(err)
	}
	if err := x.Submit(context.Background(), "a"); err != nil {
		t.Fatal(err)
	}
	<-started
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var u *UnrunError[string]
	if err := x.Close(ctx); !errors.As(err, &u) || len(u.Items) != 1 {
		t.Fatalf("Close: %v; want a not run", err)
	}
	if s := x.Stats(); s.CutShort != 1 || s.Events != 1 || s.Done+s.Failed+s.InFlight+s.Held != 0 {
		t.Errorf("Stats %+v; want a CutShort, of 1 Event", s)
	}
}
