package kafka

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/sirali-konvoy/konvoy"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
)

// A consumer New made joins its group at once; Close, when Run was never
// called, leaves the group, so that its partitions go to other members,
// and Run after it returns an error. Close after Run does nothing.
func TestCloseReleasesAConsumerNeverRun(t *testing.T) {
	addrs := cluster(t, 2)
	noop := func(context.Context, *kgo.Record) error { return nil }
	c, err := New(memberOpts(addrs), konvoy.Convoy, 1, keyEvent, noop)
	if err != nil {
		t.Fatal(err)
	}
	cl, err := kgo.NewClient(kgo.SeedBrokers(addrs...))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	adm := kadm.NewClient(cl)
	members := func() int {
		ctx, cancel := context.WithTimeout(context.Background(), testWait)
		defer cancel()
		gs, err := adm.DescribeGroups(ctx, testGroup)
		if err != nil {
			return -1
		}
		return len(gs[testGroup].Members)
	}
	waitMembers := func(want int) {
		t.Helper()
		for end := time.Now().Add(testWait); members() != want; time.Sleep(20 * time.Millisecond) {
			if time.Now().After(end) {
				t.Fatalf("the group has %d members after %v; want %d", members(), testWait, want)
			}
		}
	}
	waitMembers(1)
	c.Close()
	waitMembers(0)
	if err := c.Run(context.Background()); !errors.Is(err, errNotMade) {
		t.Errorf("Run after Close: %v; want %v", err, errNotMade)
	}
	c.Close() // again: nothing

	r, err := New(memberOpts(addrs), konvoy.Convoy, 1, keyEvent, noop)
	if err != nil {
		t.Fatal(err)
	}
	stop := start(r)
	waitMembers(1) // New joined the group: Run may not have begun yet
	for end := time.Now().Add(testWait); r.state.Load() == made; time.Sleep(time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("Run has not begun after %v", testWait)
		}
	}
	r.Close() // Run is running: nothing
	if members() != 1 {
		t.Error("Close while Run runs left the group")
	}
	if err := stop(); err != nil {
		t.Errorf("Run: %v", err)
	}
	if err := r.Run(context.Background()); !errors.Is(err, errNotMade) {
		t.Errorf("Run twice: %v; want %v", err, errNotMade)
	}
}
