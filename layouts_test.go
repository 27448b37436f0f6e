package konvoy_test

import (
	"math"
	"strings"
	"testing"

	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/lesson"
)

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
	r, err := konvoy.Simulate(lesson.Events(), konvoy.Resequencer, 4)
	if err != nil {
		t.Fatal(err)
	}
	free, _ := konvoy.Simulate(lesson.Events(), konvoy.Free, 4)
	// Free writes 5 steps backward; the resequencer holds those keys' early
	// arrivals instead and applies every step.
	if r.Rounds != free.Rounds || r.WrongFinal != 0 || r.BackwardWrites != 0 || r.Buffered == 0 || r.NeverApplied != 0 {
		t.Fatalf("%+v", r)
	}
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
		if _, _, err := konvoy.PartitionsFor(konvoy.Values(tt.events), tt.share, tt.limit); err == nil || !strings.HasPrefix(err.Error(), tt.want) {
			t.Errorf("error %v; want %q", err, tt.want)
		}
	}
	if _, found, err := konvoy.PartitionsFor(konvoy.Values(lesson.Events()), 1, konvoy.MaxPartitions); err != nil || !found {
		t.Errorf("the largest limit: %v, %v", found, err)
	}
	if over := int64(konvoy.MaxPartitions) + 1; over <= math.MaxInt {
		_, _, err := konvoy.PartitionsFor(konvoy.Values(nil), 0.1, int(over))
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
	q, found, err := konvoy.PartitionsFor(konvoy.Values(events), 0.5, 1)
	if err != nil || !found || q.HeaviestKey != "b" || q.HeaviestLoad != 6 || q.HeaviestKeyLoad != 3 {
		t.Errorf("%+v, %v, %v; want b named, 3 of 6", q, found, err)
	}
}
