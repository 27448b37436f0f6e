package live

import (
	"context"
	"errors"
	"testing"

	"github.com/sirali-konvoy/konvoy"
)

// Lanes counts in each lane's Held the lane's items submitted and not
// started, as Stats.Held does over all, whatever the policy: an item that a
// consumer took once the executor had stopped, and kept as not started, is
// held still, and Close names it as not run. One consumer, items a0 and a1
// of lane a: a0 fails with no dead letter once both are submitted; the
// consumer then takes a1, sees the stop and keeps it. After Close, Lanes
// shows lane a with one item held.
func TestLanesCountItemsKeptAsNotStarted(t *testing.T) {
	for _, p := range konvoy.Policies() {
		t.Run(p.String(), func(t *testing.T) {
			submitted := make(chan struct{})
			x, err := New(konvoy.Convoy, 1, func(s string) konvoy.Event { return konvoy.Event{Key: s[:1]} },
				func(_ context.Context, s string) error {
					if s == "a0" {
						<-submitted
						return errors.New("a0 fails")
					}
					return nil
				}, WithPolicy(p))
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range []string{"a0", "a1"} {
				if err := x.Submit(context.Background(), s); err != nil {
					t.Fatal(err)
				}
			}
			close(submitted)
			cerr := mustClose(t, x)
			var u *UnrunError[string]
			if !errors.As(cerr, &u) || len(u.Items) != 1 || u.Items[0] != "a1" {
				t.Fatalf("Close: %v; want an UnrunError of a1", cerr)
			}
			if st := x.Stats(); st.Held != 1 {
				t.Fatalf("Stats.Held %d; want 1 (a1)", st.Held)
			}
			lanes := x.Lanes(10)
			if len(lanes) != 1 || lanes[0].Lane != "a" || lanes[0].Held != 1 || lanes[0].Running {
				t.Fatalf("Lanes %+v; want lane a with a1 held, as Stats.Held counts it", lanes)
			}
		})
	}
}
