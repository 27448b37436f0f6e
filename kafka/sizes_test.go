package kafka

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// scattered returns n distinct offsets drawn at random, seeded, from the
// span offsets above committable, in increasing order.
func scattered(committable int64, n, span int, seed uint64) []int64 {
	rng := rand.New(rand.NewPCG(seed, 25))
	out := make([]int64, 0, n)
	for i, p := range rng.Perm(span) {
		if i == n {
			break
		}
		out = append(out, committable+1+int64(p))
	}
	slices.Sort(out)
	return out
}

// sizeOf returns the metadata of the finished offsets above committable,
// checking that it reads back as them.
func sizeOf(t *testing.T, committable int64, finished []int64) (string, error) {
	t.Helper()
	f, err := NewFinished(committable, finished)
	if err != nil {
		t.Fatal(err)
	}
	s, err := f.Metadata()
	if err != nil {
		return "", err
	}
	g, err := ParseMetadata(committable, s)
	if err != nil || !slices.Equal(g.Runs(), f.Runs()) {
		t.Fatalf("%q reads back as %v, %v", s[:3], g.Runs(), err)
	}
	return s, nil
}

// TestMetadataSizes measures the metadata of a few shapes of finished
// sets, logged with -v (the figures of issue 25's report): each fits and
// reads back; and how many offsets scattered at random at a density of
// 1% and 10% fit in MaxMetadata.
func TestMetadataSizes(t *testing.T) {
	const c = 1_000_000
	var alternate, block []int64
	for o := int64(c + 2); o <= c+10_000; o += 2 {
		alternate = append(alternate, o)
	}
	for o := int64(c + 1); o <= c+50_000; o++ {
		block = append(block, o)
	}
	block = append(block, c+50_002)
	for _, tc := range []struct {
		name     string
		finished []int64
	}{
		{"1,000 scattered over 100,000", scattered(c, 1000, 100_000, 1)},
		{"every other offset over 10,000", alternate},
		{"50,000 finished, one gap, one finished", block},
	} {
		s, err := sizeOf(t, c, tc.finished)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		f, _ := NewFinished(c, tc.finished)
		t.Logf("%s: %d bytes, kind %c (Bound %d)", tc.name, len(s), s[2], f.Bound())
	}
	for _, density := range []int{100, 10} {
		fit := largest(func(n int) bool {
			_, err := sizeOf(t, c, scattered(c, n, n*density, 2))
			return err == nil
		})
		bounded := largest(func(n int) bool {
			f, _ := NewFinished(c, scattered(c, n, n*density, 2))
			return f.Bound() <= MaxMetadata
		})
		if bounded < 1000 || fit < bounded {
			t.Errorf("at 1 in %d, %d offsets fit, %d within the Bound", density, fit, bounded)
		}
		t.Logf("offsets scattered at random at 1 in %d: %d fit in %d bytes, %d within the Bound (as Fits admits)", density, fit, MaxMetadata, bounded)
	}
}

// largest returns the largest n from 1 to 20,000 for which ok holds, ok
// holding for 1 and, from some n on, never again.
func largest(ok func(n int) bool) int {
	lo, hi := 1, 20_000
	for hi-lo > 1 {
		if mid := (lo + hi) / 2; ok(mid) {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo
}
