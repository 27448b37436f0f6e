package kafka

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/live"
	"github.com/twmb/franz-go/pkg/kgo"
)

// A record's attempt fails while its partition is being revoked (a
// second member joined; eager range balancing revokes everything). The
// record is the next owner's now: it reads it again. With attempts
// left, the member drops it (the retry's guard sees the revocation) and
// goes on; on its last attempt, the same failure stops the whole member.
func TestAFailureOnARevokedPartitionDoesNotStopTheMember(t *testing.T) {
	for _, attempts := range []int{2, 1} {
		t.Run(map[int]string{1: "last-attempt", 2: "attempt-left"}[attempts], func(t *testing.T) {
			addrs := cluster(t, 1)
			produce(t, addrs, 1, 1, 1)
			revoked := make(chan struct{})
			var once sync.Once
			var calls, ok atomic.Int32
			handle := func(_ context.Context, r *kgo.Record) error {
				if calls.Add(1) == 1 {
					<-revoked // fails once the revocation began
					return errors.New("transient")
				}
				ok.Add(1)
				return nil
			}
			opts := func() []kgo.Opt { return append(memberOpts(addrs), kgo.Balancers(kgo.RangeBalancer())) }
			hook := Option(func(c *config) {
				c.revoking = func(map[string][]int32) { once.Do(func() { close(revoked) }) }
			})
			a, err := New(opts(), konvoy.Convoy, 1, keyEvent, handle, hook,
				WithExecutor(live.WithRetry(live.Retry{Attempts: attempts, Base: 200 * time.Millisecond, Cap: 200 * time.Millisecond})))
			if err != nil {
				t.Fatal(err)
			}
			actx, acancel := context.WithCancel(context.Background())
			adone := make(chan error, 1)
			go func() { adone <- a.Run(actx) }()
			for deadline := time.Now().Add(testWait); calls.Load() == 0; time.Sleep(5 * time.Millisecond) {
				if time.Now().After(deadline) {
					t.Fatal("record never started")
				}
			}
			b, err := New(opts(), konvoy.Convoy, 1, keyEvent, handle)
			if err != nil {
				t.Fatal(err)
			}
			stopB := start(b)
			for deadline := time.Now().Add(testWait); ok.Load() == 0; time.Sleep(5 * time.Millisecond) {
				if time.Now().After(deadline) {
					t.Fatal("record never handled")
				}
			}
			time.Sleep(300 * time.Millisecond)
			acancel()
			var aerr error
			select {
			case aerr = <-adone:
			case <-time.After(testWait):
				t.Fatal("a's Run did not return")
			}
			if err := stopB(); err != nil {
				t.Errorf("b: %v", err)
			}
			if aerr != nil {
				t.Errorf("member a, whose partition was revoked while its record failed, stopped: %v", aerr)
			}
		})
	}
}
