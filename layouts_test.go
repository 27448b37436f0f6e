package konvoy_test

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/sirali-konvoy/konvoy"
	"pgregory.net/rapid"
)

// gaplessEvents draws keys whose steps are exactly 1..k, each step once or,
// with duplicates, more than once, interleaved in any order, with
// history-only records among them.
func gaplessEvents(duplicates bool) *rapid.Generator[[]konvoy.Event] {
	return rapid.Custom(func(t *rapid.T) []konvoy.Event {
		var events []konvoy.Event
		for k := range rapid.IntRange(1, 8).Draw(t, "keys") {
			key := fmt.Sprintf("K%d", k)
			for step := range rapid.IntRange(1, 6).Draw(t, "steps") + 1 {
				copies := 1
				if duplicates {
					copies = rapid.IntRange(1, 3).Draw(t, "copies")
				}
				if step == 0 {
					copies = rapid.IntRange(0, 2).Draw(t, "history")
				}
				for range copies {
					events = append(events, konvoy.Event{Key: key, Line: "L", Step: step, Duration: rapid.IntRange(0, 6).Draw(t, "duration")})
				}
			}
		}
		return rapid.Permutation(events).Draw(t, "interleaving")
	})
}

// The selective convoy differs from the convoy only in where history-only
// events run; without any, the two are the same layout.
func TestSelectiveConvoyWithoutHistoryIsConvoy(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		events := eventsOf(anyShape).Draw(t, "events")
		for i := range events {
			events[i].Step = max(events[i].Step, 1)
		}
		c := consumersGen.Draw(t, "consumers")
		convoy := simulate(t, events, konvoy.Convoy, c)
		selective := simulate(t, events, konvoy.SelectiveConvoy, c)
		if d := cmp.Diff(convoy, selective); d != "" {
			t.Fatalf("(-convoy +selective):\n%s", d)
		}
	})
}

// A key's events all go to one partition, so when no two keys share a
// partition, every partition is one key's lane: the convoy's run, with
// lanes named by partition number instead of key.
func TestPartitionsWithoutCollisionAreAConvoy(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		events := eventsOf(anyShape).Draw(t, "events")
		c := consumersGen.Draw(t, "consumers")
		_, _, keys, _ := stats(events)
		n := rapid.IntRange(max(len(keys), 1), 4096).Filter(func(n int) bool {
			used := map[int]bool{}
			for k := range keys {
				used[konvoy.KafkaPartition(k, n)] = true
			}
			return len(used) == len(keys)
		}).Draw(t, "partitions")
		convoy := simulate(t, events, konvoy.Convoy, c)
		parted := simulate(t, events, konvoy.Partitioned(n), c)
		if d := cmp.Diff(convoy, parted, cmpopts.IgnoreFields(konvoy.Result{}, "HeaviestLaneName"), cmpopts.IgnoreFields(konvoy.LaneWait{}, "Lane")); d != "" {
			t.Fatalf("partitioned:%d (-convoy +partitioned):\n%s", n, d)
		}
		if parted.Collision() != 0 {
			t.Fatalf("partitioned:%d without collisions: Collision %d", n, parted.Collision())
		}
	})
}

// Whatever the partition count, the heaviest partition carries at least its
// heaviest key, and a key's lane under the convoy is never heavier than the
// partition it hashes to.
func TestCollisionIsNeverNegative(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		events := eventsOf(anyShape).Draw(t, "events")
		c := consumersGen.Draw(t, "consumers")
		n := rapid.IntRange(1, 8).Draw(t, "partitions")
		parted := simulate(t, events, konvoy.Partitioned(n), c)
		convoy := simulate(t, events, konvoy.Convoy, c)
		if parted.Collision() < 0 || parted.HeaviestLane < convoy.HeaviestLane || parted.Lanes > n {
			t.Fatalf("partitioned:%d: %+v; convoy's heaviest lane %d", n, parted, convoy.HeaviestLane)
		}
		if convoy.Collision() != 0 {
			t.Fatalf("convoy: Collision %d; want 0", convoy.Collision())
		}
	})
}

// The resequencer applies a key's steps only in the order 1, 2, 3, …, so no
// step can ever land on a higher one.
func TestResequencerNeverWritesBackward(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		events := eventsOf(anyShape).Draw(t, "events")
		r := simulate(t, events, konvoy.Resequencer, consumersGen.Draw(t, "consumers"))
		if r.BackwardWrites != 0 || r.Skipped != 0 {
			t.Fatalf("BackwardWrites %d, Skipped %d; want 0", r.BackwardWrites, r.Skipped)
		}
	})
}

// When every key's steps are 1..k without gaps, each gap the resequencer
// waits for is filled by an event that does come, whatever the interleaving
// and however often a step is delivered, so every key ends on its highest
// step and nothing is left held.
func TestResequencerCompletesGaplessKeys(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		events := gaplessEvents(rapid.Bool().Draw(t, "duplicates")).Draw(t, "events")
		r := simulate(t, events, konvoy.Resequencer, consumersGen.Draw(t, "consumers"))
		if r.WrongFinal != 0 || r.NeverApplied != 0 {
			t.Fatalf("WrongFinal %d %v, NeverApplied %d; want 0", r.WrongFinal, r.WrongKeys, r.NeverApplied)
		}
		distinct := map[[2]any]bool{}
		for _, e := range events {
			if e.Step > 0 {
				distinct[[2]any{e.Key, e.Step}] = true
			}
		}
		nonzero := 0
		for _, e := range events {
			if e.Step > 0 {
				nonzero++
			}
		}
		if r.Duplicates != nonzero-len(distinct) {
			t.Fatalf("Duplicates %d; want %d repeated deliveries", r.Duplicates, nonzero-len(distinct))
		}
		if r.MaxKeyBuffered > r.MaxBuffered || r.MaxBuffered > r.Buffered {
			t.Fatalf("buffer depths out of order: %+v", r)
		}
	})
}

// Kafka's own test vectors for murmur2 (UtilsTest.testMurmur2 in
// apache/kafka's clients module), and librdkafka's compatible hash.
func TestMurmur2MatchesKafka(t *testing.T) {
	for in, want := range map[string]int32{
		"21":                         -973932308,
		"foobar":                     -790332482,
		"a-little-bit-long-string":   -985981536,
		"a-little-bit-longer-string": -1486304829,
		"lkjh234lh9fiuh90y23oiuhsafujhadof229phr9h19h89h8": -58897971,
		"abc": 479470107,
	} {
		if got := konvoy.Murmur2([]byte(in)); got != want {
			t.Errorf("Murmur2(%q) = %d; want %d", in, got, want)
		}
	}
}

func TestKafkaPartition(t *testing.T) {
	// toPositive(-973932308) = 1173551340; 1173551340 % 7 = 5.
	if got := konvoy.KafkaPartition("21", 7); got != 1173551340%7 {
		t.Errorf(`KafkaPartition("21", 7) = %d; want %d`, got, 1173551340%7)
	}
	if got := konvoy.KafkaPartition("abc", 1); got != 0 {
		t.Errorf("one partition: %d", got)
	}
}

func TestParseLayout(t *testing.T) {
	for _, name := range []string{"free", "convoy", "line-convoy", "version-stamp", "selective-convoy", "resequencer", "partitioned:1", "partitioned:12"} {
		l, err := konvoy.ParseLayout(name)
		if err != nil || l.String() != name {
			t.Errorf("ParseLayout(%q) = %v, %v", name, l, err)
		}
	}
	for _, name := range []string{"", "Free", "partitioned:", "partitioned:0", "partitioned:-2", "partitioned:x", "partitioned"} {
		if l, err := konvoy.ParseLayout(name); err == nil {
			t.Errorf("ParseLayout(%q) = %v; want an error", name, l)
		}
	}
}

func TestResequencerOnTheLesson(t *testing.T) {
	r, err := konvoy.Simulate(konvoy.LessonEvents(), konvoy.Resequencer, 4)
	if err != nil {
		t.Fatal(err)
	}
	free, _ := konvoy.Simulate(konvoy.LessonEvents(), konvoy.Free, 4)
	// Free writes 5 steps backward; the resequencer holds those keys' early
	// arrivals instead and applies every step.
	if r.Rounds != free.Rounds || r.WrongFinal != 0 || r.BackwardWrites != 0 || r.Buffered == 0 || r.NeverApplied != 0 {
		t.Fatalf("%+v", r)
	}
}

// PartitionsFor reads the same lane loads that a partitioned run makes, and
// returns the first partition count that meets the bound: every smaller
// count misses it.
func TestPartitionsForFindsTheFirstCountThatFits(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		events := eventsOf(anyShape).Draw(t, "events")
		share := rapid.SampledFrom([]float64{0, 0.1, 0.25, 0.5, 1}).Draw(t, "share")
		limit := rapid.IntRange(1, 40).Draw(t, "limit")
		p, found, err := konvoy.PartitionsFor(events, share, limit)
		if err != nil {
			t.Fatal(err)
		}
		if found != (p.CollisionShare() <= share) || p.Partitions < 1 || p.Partitions > limit || !found && p.Partitions != limit {
			t.Fatalf("share %v, limit %d: %+v found %v", share, limit, p, found)
		}
		run := simulate(t, events, konvoy.Partitioned(p.Partitions), 2)
		if run.HeaviestLane != p.HeaviestLoad || run.HeaviestKeyLoad != p.HeaviestKeyLoad || run.Lanes != p.Used {
			t.Fatalf("PartitionsFor %+v disagrees with partitioned run %+v", p, run)
		}
		for n := 1; n < p.Partitions; n++ {
			if q, ok, _ := konvoy.PartitionsFor(events, share, n); ok {
				t.Fatalf("%d partitions already fit (%+v), yet %d was returned", n, q, p.Partitions)
			}
		}
	})
}

func TestPartitionsForRejectsBadInput(t *testing.T) {
	for _, tt := range []struct {
		events []konvoy.Event
		share  float64
		limit  int
		want   string
	}{
		{nil, 1.5, 4, "konvoy: collision share 1.5: want a fraction in [0, 1]"},
		{nil, 0.1, 0, "konvoy: partition limit 0: want 1 to 2147483647"},
		{[]konvoy.Event{{Key: "A"}, {}}, 0.1, 4, "konvoy: event 1: Key is empty"},
		{[]konvoy.Event{{Key: "A", Duration: -1}}, 0.1, 4, `konvoy: event 0 (key "A"): Duration is -1`},
	} {
		if _, _, err := konvoy.PartitionsFor(tt.events, tt.share, tt.limit); err == nil || !strings.HasPrefix(err.Error(), tt.want) {
			t.Errorf("error %v; want %q", err, tt.want)
		}
	}
	if _, found, err := konvoy.PartitionsFor(konvoy.LessonEvents(), 1, konvoy.MaxPartitions); err != nil || !found {
		t.Errorf("the largest limit: %v, %v", found, err)
	}
	if over := int64(konvoy.MaxPartitions) + 1; over <= math.MaxInt {
		_, _, err := konvoy.PartitionsFor(nil, 0.1, int(over))
		if want := "konvoy: partition limit 2147483648: want 1 to 2147483647"; err == nil || err.Error() != want {
			t.Errorf("error %v; want %q", err, want)
		}
	}
}

func TestPartitionLoadFigures(t *testing.T) {
	p := konvoy.PartitionLoad{HeaviestLoad: 8, HeaviestKeyLoad: 6}
	if p.Collision() != 2 || p.CollisionShare() != 0.25 {
		t.Errorf("%+v: Collision %d, CollisionShare %v; want 2 and 0.25", p, p.Collision(), p.CollisionShare())
	}
	if (konvoy.PartitionLoad{}).CollisionShare() != 0 {
		t.Error("an empty partition's collision share is not 0")
	}
	// Two keys of equal load in one partition: the one seen first is named.
	events := []konvoy.Event{{Key: "b", Duration: 3}, {Key: "a", Duration: 3}}
	q, found, err := konvoy.PartitionsFor(events, 0.5, 1)
	if err != nil || !found || q.HeaviestKey != "b" || q.HeaviestLoad != 6 || q.HeaviestKeyLoad != 3 {
		t.Errorf("%+v, %v, %v; want b named, 3 of 6", q, found, err)
	}
}
