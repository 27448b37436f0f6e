package live_test

import (
	"context"
	"math"
	"slices"
	"testing"

	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/live"
)

// Completion lists the partitions in increasing order, whatever their
// numbers: a comparison by subtraction put math.MinInt after 1.
func TestCompletionOrdersEveryPartitionNumber(t *testing.T) {
	type item struct {
		p int
		o int64
	}
	x, err := live.New(konvoy.Free, 1, func(item) konvoy.Event { return konvoy.Event{} },
		func(context.Context, item) error { return nil }, live.WithOffsets(func(it item) (int, int64) { return it.p, it.o }))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, p := range []int{1, math.MinInt, math.MaxInt, -1, 0} {
		if err := x.Submit(ctx, item{p, 0}); err != nil {
			t.Fatal(err)
		}
	}
	if err := x.Close(ctx); err != nil {
		t.Fatal(err)
	}
	var got []int
	for _, c := range x.Completion() {
		got = append(got, c.Partition)
	}
	if want := []int{math.MinInt, -1, 0, 1, math.MaxInt}; !slices.Equal(got, want) {
		t.Errorf("Completion's partitions %v; want %v", got, want)
	}
}
