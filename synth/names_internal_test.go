package synth

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/sirali-konvoy/konvoy/internal/seqtest"

	"github.com/sirali-konvoy/konvoy"
)

// keepNoNames makes the generator keep no names until the test ends.
func keepNoNames(t *testing.T) {
	keys, lines := maxKeptKeyNames, maxKeptLineNames
	maxKeptKeyNames, maxKeptLineNames = 0, 0
	t.Cleanup(func() { maxKeptKeyNames, maxKeptLineNames = keys, lines })
}

// Every name is the prefix and the rank padded with zeros to the width of n,
// whether names are kept or made again each time, and a name returned stays
// the same while others are made after it.
func TestNames(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for _, n := range []int{1, 9, 10, 99, 100, nameBlock - 1, nameBlock, nameBlock + 1, 3*nameBlock + 17, 1_500_000, MaxCount} {
		for _, kept := range []bool{true, false} {
			keep := 0
			if kept {
				keep = n
			}
			if kept && n > maxKeptKeyNames {
				continue
			}
			ns := newNames('K', n, keep)
			ranks := []int{1, n, min(n, nameBlock), min(n, nameBlock+1), n/2 + 1}
			for range 3 * nameBlock {
				ranks = append(ranks, 1+r.IntN(n))
			}
			var got []string
			for _, rank := range ranks {
				got = append(got, ns.name(rank))
			}
			for i, rank := range ranks {
				want := fmt.Sprintf("K%0*d", len(fmt.Sprint(n)), rank)
				if got[i] != want {
					t.Fatalf("n %d, kept %v: name(%d) = %q; want %q", n, kept, rank, got[i], want)
				}
			}
			if kept != (ns.blocks != nil) {
				t.Errorf("n %d: kept names %v; want %v", n, ns.blocks != nil, kept)
			}
		}
	}
}

// Kept names cost memory only for the blocks in use: asking for two names of
// 2^21 in one block allocates that block and the blocks' index, not the
// others.
func TestKeptNamesCostOnlyTheirBlock(t *testing.T) {
	n := maxKeptKeyNames
	allocs := testing.AllocsPerRun(10, func() {
		ns := newNames('L', n, n)
		ns.name(n)
		ns.name(n - 1)
		if ns.blocks[len(ns.blocks)-1] == "" {
			t.Fatalf("the last block was not made")
		}
		for b, s := range ns.blocks[:len(ns.blocks)-1] {
			if s != "" {
				t.Fatalf("block %d of %d was made; want only the last", b, len(ns.blocks))
			}
		}
	})
	// newNames's struct and index, and the block's string.
	if allocs > 3 {
		t.Errorf("%v allocations; want at most 3", allocs)
	}
}

// Names made again each time allocate once per nameBlock names, and hold
// on to one buffer of nameBlock names however many they make.
func TestNamesNotKeptAllocatePerBlock(t *testing.T) {
	ns := newNames('K', MaxCount, 0)
	ns.name(1)
	allocs := testing.AllocsPerRun(1, func() {
		for r := range 10 * nameBlock {
			ns.name(r + 1)
		}
	})
	if allocs > 10 {
		t.Errorf("%v allocations for %d names; want at most 10", allocs, 10*nameBlock)
	}
	// The allocator may round a block up, but not to twice its size.
	if got, want := ns.buf.Cap(), 2*nameBlock*ns.width(); got >= want {
		t.Errorf("the buffer holds %d bytes; want less than %d, one block of names", got, want)
	}
}

// The stream is the same whether the generator keeps names or makes them
// again each time a key enters the window.
func TestNamesKeptOrNotSameStream(t *testing.T) {
	c := Default()
	c.Events, c.Keys, c.Lines, c.InFlight = 60_000, 3000, 700, 50
	c.KeySkew, c.LineSkew, c.OutOfOrder = 0.8, 0.5, 0.2
	for _, skew := range []float64{0, 0.8} {
		c.KeySkew = skew
		kept := seqtest.Drain(Events(c))
		var made []konvoy.Event
		t.Run("keep no names", func(t *testing.T) {
			keepNoNames(t)
			made = seqtest.Drain(Events(c))
		})
		if !slices.Equal(kept, made) {
			t.Errorf("KeySkew %v: the streams differ when names are not kept", skew)
		}
	}
}

// The index finds every key put in and no other, through any sequence of
// insertions and removals, with the window's number of keys at most.
func TestKeyIndex(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for _, window := range []int{0, 1, 2, 3, 7, 64, 1000} {
		x := newKeyIndex(window)
		if len(x.cells) < 2*window || len(x.cells)&(len(x.cells)-1) != 0 {
			t.Fatalf("window %d: %d cells; want a power of two ≥ %d", window, len(x.cells), 2*window)
		}
		if window == 0 {
			continue
		}
		model := map[int32]int32{}
		for op := range 50_000 {
			// Keys from a small range, so that finds hit, and near the top
			// of int32, so that id + 1 is tested where it is largest.
			key := int32(r.IntN(3 * window))
			if op%2 == 1 {
				key = MaxCount - 2 - key
			}
			cell, found := x.find(key)
			slot, in := model[key]
			if found != in || found && x.slot(cell) != slot {
				t.Fatalf("window %d, op %d: find(%d) = %v, slot %d; want %v, slot %d", window, op, key, found, x.slot(cell), in, slot)
			}
			switch {
			case found:
				x.remove(cell)
				delete(model, key)
			case len(model) < window:
				x.put(cell, key, int32(op))
				model[key] = int32(op)
			}
		}
	}
}
