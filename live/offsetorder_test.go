package live

// Submit refuses an offset not above its partition's last, also when
// another Submit of the partition took a later one while it waited for
// room: it checks again once it has room, so Completion stays right.

import (
	"context"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/sirali-konvoy/konvoy"
)

// awaitWaiting waits until n Submit calls of x wait for room, failing t at
// the deadline (only a hung executor reaches it).
func awaitWaiting[T any](t *testing.T, x *Executor[T], n int64) {
	t.Helper()
	end := time.Now().Add(deadline)
	for x.waitingN.Load() < n {
		if time.Now().After(end) {
			t.Fatalf("%d Submit calls never waited for room", n)
		}
		runtime.Gosched()
	}
}

// TestSubmitRechecksOffsetsAfterWaitingForRoom: with room for one item,
// item 0 runs; a Submit of offset 5 and then one of offset 3, both of
// partition 0, wait for room. The first to get room is the first to wait
// (a channel's receivers are served in order); the second must then be
// refused, its offset being below the partition's last. Whatever the
// order, the offsets taken must increase, and after Close the committable
// offset must be the last taken plus 1.
func TestSubmitRechecksOffsetsAfterWaitingForRoom(t *testing.T) {
	release := make(chan struct{})
	started := make(chan struct{})
	var mu sync.Mutex
	var ran []int64 // offsets in the order they ran: with room for one, the order taken
	x, err := New(konvoy.Free, 1, func(s sourced) konvoy.Event { return konvoy.Event{} },
		func(_ context.Context, s sourced) error {
			if s.offset == 0 {
				close(started)
				<-release
			}
			mu.Lock()
			ran = append(ran, s.offset)
			mu.Unlock()
			return nil
		},
		WithMaxHeld(1), WithOffsets(func(s sourced) (int, int64) { return s.partition, s.offset }))
	if err != nil {
		t.Fatal(err)
	}
	if err := x.Submit(context.Background(), sourced{offset: 0}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, started, "item 0's start")
	errs := make(chan error, 2)
	go func() { errs <- x.Submit(context.Background(), sourced{seq: 1, offset: 5}) }()
	awaitWaiting(t, x, 1)
	go func() { errs <- x.Submit(context.Background(), sourced{seq: 2, offset: 3}) }()
	awaitWaiting(t, x, 2)
	close(release)
	e1, e2 := <-errs, <-errs
	if err := mustClose(t, x); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	for i := 1; i < len(ran); i++ {
		if ran[i] <= ran[i-1] {
			t.Errorf("Submit took offset %d after offset %d of the same partition (Submit errors: %v, %v)", ran[i], ran[i-1], e1, e2)
		}
	}
	if c, _ := x.Committable(0); c != slicesMax(ran)+1 {
		t.Errorf("every item finished, offsets taken %v: Committable %d; want %d", ran, c, slicesMax(ran)+1)
	}
}

func slicesMax(s []int64) int64 {
	m := s[0]
	for _, v := range s {
		m = max(m, v)
	}
	return m
}
