package live_test

import (
	"context"
	"testing"

	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/live"
)

// Submit, SubmitAll and Close panic with a "live:" message, as the
// Executor's doc says, when given a nil context, rather than run into a
// nil pointer.
func TestANilContextPanicsWithTheMessage(t *testing.T) {
	var nilContext context.Context // a variable: staticcheck flags a literal nil
	x, err := live.New(konvoy.Free, 1, func(int) konvoy.Event { return konvoy.Event{} }, func(context.Context, int) error { return nil })
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close(context.Background())
	for _, tc := range []struct {
		call func()
		want string
	}{
		{func() { x.Submit(nilContext, 1) }, "live: Submit: ctx is nil; want a context, such as context.Background()"},
		{func() { x.SubmitAll(nilContext, []int{1}) }, "live: SubmitAll: ctx is nil; want a context, such as context.Background()"},
		{func() { x.Close(nilContext) }, "live: Close: ctx is nil; want a context, such as context.Background()"},
	} {
		func() {
			defer func() {
				if got, _ := recover().(string); got != tc.want {
					t.Errorf("panic %q; want %q", got, tc.want)
				}
			}()
			tc.call()
		}()
	}
	if w, ok := live.Consumer(nilContext); ok || w != 0 {
		t.Errorf("Consumer(nil) = %d, %v; want 0, false: no executor gave it", w, ok)
	}
}
