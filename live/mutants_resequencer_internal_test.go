package live

// Tests from mutation testing of resequencer.go (its mutants that lived).

import (
	"context"
	"math"
	"math/big"
	"testing"
	"time"

	"github.com/sirali-konvoy/konvoy"
	"pgregory.net/rapid"
)

// The timer is set for the time left until the first held item is due,
// from now, whatever the executor's age: under an executor made long ago
// (its epoch moved back an hour, whose rounds of 1 ms fit an int of 32
// bits too) an item held with a Timeout of one round of 1 ms is released
// by the timer, before Close, within the test's deadline (set for the
// deadline plus the executor's age, it would wait an hour).
func TestReseqTheTimerWaitsOnlyUntilTheDeadline(t *testing.T) {
	rec := newReseqRecorder()
	x, err := New(konvoy.Resequencer, 1, ev, rec.handle, WithResequencer(konvoy.ResequencerConfig{Timeout: 1}, time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	x.epoch = x.epoch.Add(-time.Hour) // before any Submit, which reads it under subMu
	if err := x.Submit(context.Background(), konvoy.Event{Key: "a", Step: 2}); err != nil {
		t.Fatal(err)
	}
	if s, _ := rec.next(t); s != 2 {
		t.Fatalf("ran step %d; want step 2, released by the timer", s)
	}
	if err := mustClose(t, x); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if st := x.Stats(); st.Forced != 1 || st.GapsSkipped != 1 {
		t.Fatalf("stats %+v; want step 2 forced, its gap of 1 skipped", st)
	}
}

// deadline agrees with its definition, computed in big integers: an item
// submitted at t is never due (math.MaxInt64) when t's whole rounds plus
// the Timeout pass the largest int (math.MaxInt, 32 bits on 386); else it is due at t plus Timeout ×
// round, or just below never when that passes the largest time. The times
// drawn are near each of those edges, for every Timeout × round that
// WithResequencer takes.
func TestReseqDeadlineIsItsDefinition(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		round := rapid.SampledFrom([]int64{1, 2, 3, 1000, 1e6, 7e9, int64(time.Hour), math.MaxInt64 / 2, math.MaxInt64}).Draw(t, "round")
		rounds := rapid.Int64Range(1, min(math.MaxInt64/round, math.MaxInt)).Draw(t, "timeout")
		q := resequencer{reseqOptions: reseqOptions{ResequencerConfig: konvoy.ResequencerConfig{Timeout: int(rounds)},
			timeout: time.Duration(rounds * round), round: time.Duration(round)}}
		big64 := func(v int64) *big.Int { return big.NewInt(v) }
		maxInt, maxTime := big64(math.MaxInt), big64(math.MaxInt64)
		// the edges: the first time whose rounds pass the largest int,
		// and the first whose wall time passes the largest time
		roundsEdge := new(big.Int).Mul(new(big.Int).Add(new(big.Int).Sub(maxInt, big64(rounds)), big64(1)), big64(round))
		timeEdge := new(big.Int).Sub(maxTime, big64(rounds*round))
		var at *big.Int
		switch rapid.IntRange(0, 2).Draw(t, "near") {
		case 0:
			at = roundsEdge
		case 1:
			at = timeEdge
		default:
			at = big64(rapid.Int64Range(0, math.MaxInt64).Draw(t, "t"))
		}
		at.Add(at, big64(rapid.Int64Range(-3, 3).Draw(t, "offset")))
		if at.Sign() < 0 || at.Cmp(maxTime) > 0 {
			t.Skip("not a time")
		}
		tt := at.Int64()
		var want int64
		if whole := new(big.Int).Quo(at, big64(round)); whole.Add(whole, big64(rounds)).Cmp(maxInt) > 0 {
			want = math.MaxInt64
		} else if due := new(big.Int).Add(at, big64(rounds*round)); due.Cmp(maxTime) >= 0 {
			want = math.MaxInt64 - 1
		} else {
			want = due.Int64()
		}
		if got := q.deadline(tt); got != want {
			t.Fatalf("deadline(%d) under %d rounds of %d ns = %d; want %d", tt, rounds, round, got, want)
		}
	})
}

// A key's heap of steps gives, whatever the holds and releases, the least
// step it holds: steps are held above the key's state, and a release
// moves the state up, letting go every step held at or below it (the
// lowest), as advance does; lowest must then drop those from the heap
// and return the least step still in the map, found here by a scan.
func TestReseqLowestIsTheLeastStepHeld(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		k := &reseqKey{}
		state := 0
		for range rapid.IntRange(1, 80).Draw(t, "ops") {
			if rapid.IntRange(0, 2).Draw(t, "release") == 0 {
				state += rapid.IntRange(0, 6).Draw(t, "by")
				for s := range k.held {
					if s <= state {
						delete(k.held, s)
					}
				}
			} else if s := state + rapid.IntRange(1, 30).Draw(t, "above"); k.held[s] == 0 {
				if k.held == nil {
					k.held = map[int]int32{}
				}
				k.held[s] = int32(s)
				k.holdStep(s)
			}
			least, any := 0, false
			for s := range k.held {
				if !any || s < least {
					least, any = s, true
				}
			}
			if got, ok := k.lowest(); ok != any || got != least {
				t.Fatalf("lowest() = %d, %v; the least step held of %v is %d, %v", got, ok, k.held, least, any)
			}
		}
	})
}
