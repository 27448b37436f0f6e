package live

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/sirali-konvoy/konvoy"
)

// Option changes how [New] makes an executor; options compose, and a later
// one overrides an earlier one of the same kind. An option given a bad
// value makes New return an error even when a later one overrides it.
type Option func(*config)

// config is what the options set.
type config struct {
	policy     konvoy.Policy
	assignor   konvoy.Assignor
	maxHeld    int
	retry      Retry
	deadLetter any       // func(context.Context, T, error) error, checked by New
	guard      guardType // guard[T], checked by New
	sleep      func(ctx context.Context, d time.Duration) error
	versions   VersionStore
	offsets    any          // func(T) (int, int64), checked by New
	reseq      reseqOptions // WithResequencer
	errs       []error      // options given bad values, reported by New
}

var errNilVersions = errors.New("WithVersions: the store is nil")

// DefaultMaxHeld is the most items an executor holds, running or waiting,
// unless [WithMaxHeld] says otherwise: a few thousand items keep consumers
// fed between two bursts of Submit without holding a source's backlog.
const DefaultMaxHeld = 4096

// WithPolicy sets how a free consumer picks its next item, as the model's
// policies do (see [konvoy.Policy]); the default here is
// [konvoy.LaneAware], not the model's [konvoy.HeadOfLine].
func WithPolicy(p konvoy.Policy) Option {
	return func(c *config) {
		if p > konvoy.Static {
			c.errs = append(c.errs, fmt.Errorf("WithPolicy: unknown %v; want HeadOfLine, LaneAware or Static", p))
		}
		c.policy = p
	}
}

// WithAssignor sets how the [konvoy.Static] policy deals lanes to
// consumers, as [konvoy.WithAssignor] does for a simulated run; other
// policies ignore it.
func WithAssignor(a konvoy.Assignor) Option {
	return func(c *config) {
		if a < konvoy.FirstSeenAssignor || a > konvoy.RoundRobinAssignor {
			c.errs = append(c.errs, fmt.Errorf("WithAssignor: unknown %v; want FirstSeenAssignor, RangeAssignor or RoundRobinAssignor", a))
		}
		c.assignor = a
	}
}

// WithMaxHeld sets the most items the executor holds at once, running or
// waiting; [Executor.Submit] waits while it holds that many. Fewer than
// the consumers keeps some consumers idle. The default is
// [DefaultMaxHeld]. An executor's memory grows with the items it holds, up
// to n, and the lanes they are in; under [konvoy.LaneAware] New also
// makes, at once, 2·n slots for lanes of one item, rounded up to a power
// of 2 from 64 to 65,536, of 56 bytes each, and a log of their finished
// items, a cell for each item (or consumer, when more), 64 to 65,536, of
// 16 bytes each: about 0.5 MB at the default.
func WithMaxHeld(n int) Option {
	return func(c *config) {
		if n < 1 || n > math.MaxInt32 {
			c.errs = append(c.errs, fmt.Errorf("WithMaxHeld(%d): want 1 to %d items", n, math.MaxInt32))
		}
		c.maxHeld = n
	}
}

// Retry says how often, and after what pauses, a failed item is tried
// again. Attempt k+1 (k ≥ 1) follows attempt k after Base·2^(k−1), at most
// Cap, less a share of it drawn for the item and attempt: the pause times
// (1 − Jitter·u) for u in [0, 1) given by Seed, the item's submission
// number and k, so that a run's pauses are the same however its items are
// scheduled. The item's lane waits meanwhile, and so does the consumer
// that runs it. A failure that stops the executor ends every pause: the
// item is tried no more, and [Executor.Close] reports it as not run. The
// zero Retry tries each item once.
type Retry struct {
	// Attempts is the most times an item is tried; 0 and 1 both mean once.
	Attempts int
	// Base is the pause before the second attempt, Cap the longest pause
	// (0: no cap).
	Base, Cap time.Duration
	// Jitter, from 0 to 1, is the share of a pause that may be taken off.
	Jitter float64
	// Seed draws the jitter.
	Seed uint64
}

// WithRetry sets how failed items are tried again (see [Retry]).
func WithRetry(r Retry) Option {
	return func(c *config) {
		switch {
		case r.Attempts < 0 || r.Base < 0 || r.Cap < 0:
			c.errs = append(c.errs, fmt.Errorf("WithRetry(%+v): want Attempts, Base and Cap of 0 or more", r))
		case !(r.Jitter >= 0 && r.Jitter <= 1):
			c.errs = append(c.errs, fmt.Errorf("WithRetry(%+v): want a Jitter from 0 to 1", r))
		}
		c.retry = r
	}
}

// WithDeadLetter sets the function that takes an item whose last attempt
// failed, with the error (an [*ItemError]), after which the item's lane
// moves on. It runs on the item's consumer, its lane still waiting, with
// the handlers' context. When it returns an error or panics, the executor
// stops as it does without a dead letter (a guard may drop the item
// first: see [WithGuard]). Once Close has given up (its
// context ended), a failed item is not given to it: Close reports it. T
// must be the executor's item type, or [New] returns an error.
func WithDeadLetter[T any](f func(ctx context.Context, item T, err error) error) Option {
	return func(c *config) {
		if f == nil {
			c.errs = append(c.errs, fmt.Errorf("WithDeadLetter: the function is nil"))
		}
		c.deadLetter = f
	}
}

// WithGuard sets two functions a consumer calls around each attempt of
// an item and around its dead letter, for a runtime built on the executor
// that must know what runs and may drop an item it no longer owns, as a
// Kafka consumer drops a record of a partition revoked: enter first,
// before the version stamp asks its store about the item (so the store
// never hears of an item that does not run, and a VersionReader's skip is
// within the guard); when enter returns false, neither that attempt nor
// any later one, nor the dead letter, is made, and the item counts as
// done ([Stats].Done). Otherwise exit, once the attempt or the dead letter
// returned, with its error: nil when the item was handled, skipped as
// stale, or taken by the dead letter; or once it ended its goroutine
// (runtime.Goexit), with the item's [*ItemError] wrapping [ErrGoexit].
// When an item's last attempt failed and there is no dead letter, or its
// dead letter failed, the consumer calls enter once more, and exit at
// once with the item's *ItemError if enter let it, before the failure
// stops the executor: an item enter then drops counts as done, and the
// executor goes on. An attempt or dead letter that ends its goroutine
// (runtime.Goexit) stops the executor without that last question. Both
// run on the consumer, with the handlers' context, and must not panic. T
// must be the executor's item type, or [New] returns an error.
func WithGuard[T any](enter func(ctx context.Context, item T) bool, exit func(ctx context.Context, item T, err error)) Option {
	return func(c *config) {
		if enter == nil || exit == nil {
			c.errs = append(c.errs, fmt.Errorf("WithGuard: the functions must not be nil"))
		}
		c.guard = guard[T]{enter, exit}
	}
}

// guard is WithGuard's pair of functions.
type guard[T any] struct {
	enter func(ctx context.Context, item T) bool
	exit  func(ctx context.Context, item T, err error)
}

// itemType returns the name of the type g's functions take.
func (g guard[T]) itemType() string {
	var zero T
	return fmt.Sprintf("%T", zero)
}

// guardType is a guard of any item type.
type guardType interface{ itemType() string }

// withSleep replaces the pause between attempts, for tests that count
// pauses rather than take them.
func withSleep(f func(ctx context.Context, d time.Duration) error) Option {
	return func(c *config) { c.sleep = f }
}

// sleep pauses for d, or until ctx ends, whose error it then returns.
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// pause returns the pause before attempt k+1 of the item with submission
// number seq, under r.
func (r Retry) pause(seq uint64, k int) time.Duration {
	d := r.Base
	for i := 1; i < k && d > 0 && (r.Cap == 0 || d < r.Cap); i++ { // at most 63 doublings
		if d > math.MaxInt64/2 {
			d = math.MaxInt64
			break
		}
		d *= 2
	}
	if r.Cap > 0 {
		d = min(d, r.Cap)
	}
	if r.Jitter > 0 {
		u := float64(mix(r.Seed^mix(seq^mix(uint64(k))))>>11) / (1 << 53)
		d -= time.Duration(float64(d) * r.Jitter * u)
	}
	return d
}

// mix is splitmix64's finaliser: a bijection of 64 bits whose outputs look
// independent for neighbouring inputs.
func mix(z uint64) uint64 {
	z += 0x9e3779b97f4a7c15
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}
