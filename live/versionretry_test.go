package live

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/sirali-konvoy/konvoy"
)

// Under the version stamp the store is asked before every attempt: a step
// whose first attempt failed, and that a higher step of its key overtook
// while it paused for its retry, is skipped as stale, never run over the
// newer state. Here a/1 fails once; its pause lasts until a/2 is handled
// on the other consumer and the store holds its step (the executor
// advances the key after the handler returns: a pause that ended when the
// handler did could let a/1's retry read the key before that, and run); its
// retry then finds the key at 2. a/2 waits for a/1's failure: run first, it
// would leave a/1 stale before its first attempt, skipped with no retry.
func TestAVersionStampRetryOvertakenIsSkipped(t *testing.T) {
	r := &overtaken{a1failed: make(chan struct{}), a2: make(chan struct{})}
	handle := r.handle
	a2 := r.a2
	pause := func(ctx context.Context, _ time.Duration) error {
		select {
		case <-a2:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	x, err := New(konvoy.VersionStamp, 2, func(e konvoy.Event) konvoy.Event { return e }, handle,
		WithRetry(Retry{Attempts: 2}), withSleep(pause), WithVersions(r))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range []konvoy.Event{{Key: "a", Step: 1}, {Key: "a", Step: 2}} {
		if err := x.Submit(context.Background(), e); err != nil {
			t.Fatal(err)
		}
	}
	if err := mustClose(t, x); err != nil {
		t.Fatal(err)
	}
	if handled := r.handled; len(handled) != 1 || handled[0].Step != 2 {
		t.Fatalf("handled %v; want only a/2: a/1's retry came after a/2 was applied", r.handled)
	}
	if s := x.Stats(); s.Done != 1 || s.Skipped != 1 || s.Retries != 1 {
		t.Fatalf("Stats: %d done, %d skipped, %d retries; want 1, 1 and 1", s.Done, s.Skipped, s.Retries)
	}
}

// overtaken is the handler and version store of
// TestAVersionStampRetryOvertakenIsSkipped: a/1 fails its first attempt,
// and a/2 waits for that, then is handled.
type overtaken struct {
	mu       sync.Mutex
	handled  []konvoy.Event
	failed   bool
	a1failed chan struct{} // closed when a/1's first attempt fails
	a2       chan struct{} // closed when the store holds a/2's step
	versions MemoryVersions
}

// Advance advances the key as MemoryVersions does, and closes a2 once a is
// at step 2.
func (r *overtaken) Advance(ctx context.Context, key string, step int) (bool, error) {
	ok, err := r.versions.Advance(ctx, key, step)
	if ok && key == "a" && step == 2 {
		close(r.a2)
	}
	return ok, err
}

// Version tells the key's version as MemoryVersions does.
func (r *overtaken) Version(ctx context.Context, key string) (int, error) {
	return r.versions.Version(ctx, key)
}

func (r *overtaken) handle(_ context.Context, e konvoy.Event) error {
	if e.Step == 2 {
		<-r.a1failed
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if e.Step == 1 && !r.failed {
		r.failed = true
		close(r.a1failed)
		return errors.New("a/1 fails once")
	}
	r.handled = append(r.handled, e)
	return nil
}
