package konvoy_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/sirali-konvoy/konvoy"
)

// owners returns, for a topic of n partitions and c consumers under the
// static policy with opts, the consumer that runs each partition: one event
// recorded in each partition, read off the run's schedule.
func owners(t *testing.T, n, c int, opts ...konvoy.Option) []int {
	t.Helper()
	events := make([]konvoy.Event, n)
	for p := range events {
		events[p] = konvoy.Event{Key: string(rune('a' + p)), Step: 1, Duration: 1, Partition: p}
	}
	opts = append([]konvoy.Option{konvoy.WithPolicy(konvoy.Static), konvoy.WithSchedule(n)}, opts...)
	r, err := konvoy.Simulate(events, konvoy.Recorded(n), c, opts...)
	if err != nil {
		t.Fatal(err)
	}
	var out []int
	for _, s := range r.Schedule {
		out = append(out, s.Consumer)
	}
	return out
}

// The assignments of Kafka's own documentation and tests, for one topic
// (the part of a two-topic case that falls on one topic): partitions in
// numeric order, consumers in member order. Each is named after the
// Kafka test (org.apache.kafka.clients.consumer.RangeAssignorTest,
// RoundRobinAssignorTest) or javadoc it comes from.
func TestAssignorsDealAsKafkaDoes(t *testing.T) {
	for _, tt := range []struct {
		name     string
		assignor konvoy.Assignor
		n, c     int
		want     []int // by partition, its consumer
	}{
		{"RangeAssignorTest.testOneConsumerOneTopic", konvoy.RangeAssignor, 3, 1, []int{0, 0, 0}},
		{"RangeAssignorTest.testTwoConsumersOneTopicOnePartition", konvoy.RangeAssignor, 1, 2, []int{0}},
		{"RangeAssignorTest.testTwoConsumersOneTopicTwoPartitions", konvoy.RangeAssignor, 2, 2, []int{0, 1}},
		{"RangeAssignorTest.testMultipleConsumersMixedTopics, topic1", konvoy.RangeAssignor, 3, 3, []int{0, 1, 2}},
		// The javadoc's C0: [t0p0, t0p1, t1p0, t1p1], C1: [t0p2, t1p2].
		{"RangeAssignorTest.testTwoConsumersTwoTopicsSixPartitions and the javadoc", konvoy.RangeAssignor, 3, 2, []int{0, 0, 1}},
		{"RangeAssignorTest.testStaticMemberRangeAssignmentPersistent, topic1", konvoy.RangeAssignor, 5, 4, []int{0, 0, 1, 2, 3}},
		{"RangeAssignorTest.testStaticMemberRangeAssignmentPersistent, topic2", konvoy.RangeAssignor, 4, 4, []int{0, 1, 2, 3}},
		{"RoundRobinAssignorTest.testOneConsumerOneTopic", konvoy.RoundRobinAssignor, 3, 1, []int{0, 0, 0}},
		{"RoundRobinAssignorTest.testTwoConsumersOneTopicOnePartition", konvoy.RoundRobinAssignor, 1, 2, []int{0}},
		{"RoundRobinAssignorTest.testTwoConsumersOneTopicTwoPartitions", konvoy.RoundRobinAssignor, 2, 2, []int{0, 1}},
		// The javadoc's C0: [t0p0, t0p2, t1p1], C1: [t0p1, t1p0, t1p2].
		{"RoundRobinAssignor's javadoc, t0", konvoy.RoundRobinAssignor, 3, 2, []int{0, 1, 0}},
	} {
		if got := owners(t, tt.n, tt.c, konvoy.WithAssignor(tt.assignor)); !slices.Equal(got, tt.want) {
			t.Errorf("%s: %d partitions, %d consumers, %s: owners %v; want %v", tt.name, tt.n, tt.c, tt.assignor, got, tt.want)
		}
	}
}

// Range is the default for partitions, first-seen for other lanes; the
// first-seen rule deals a topic's partitions in the order they are first
// used, whatever their numbers.
func TestAssignorDefaults(t *testing.T) {
	if got, want := owners(t, 5, 2), []int{0, 0, 0, 1, 1}; !slices.Equal(got, want) {
		t.Errorf("default: owners %v; want range's %v", got, want)
	}
	// Partitions first used in the order 4, 3, 2, 1, 0.
	events := make([]konvoy.Event, 5)
	for i := range events {
		events[i] = konvoy.Event{Key: "k", Step: 1, Duration: 1, Partition: 4 - i}
	}
	r, err := konvoy.Simulate(events, konvoy.Recorded(5), 2, konvoy.WithPolicy(konvoy.Static), konvoy.WithSchedule(5), konvoy.WithAssignor(konvoy.FirstSeenAssignor))
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range r.Schedule {
		if s.Consumer != i%2 || s.Lane != string(rune('0'+4-i)) {
			t.Errorf("first-seen: event %d ran in lane %s on consumer %d; want lane %d on %d", i, s.Lane, s.Consumer, 4-i, i%2)
		}
	}
	// The convoy's lanes have no numbers: every assignor deals them as first seen.
	keys := []konvoy.Event{{Key: "x", Duration: 1}, {Key: "y", Duration: 1}, {Key: "z", Duration: 1}}
	for _, a := range []konvoy.Assignor{konvoy.RangeAssignor, konvoy.RoundRobinAssignor, konvoy.FirstSeenAssignor} {
		r, err := konvoy.Simulate(keys, konvoy.Convoy, 2, konvoy.WithPolicy(konvoy.Static), konvoy.WithSchedule(3), konvoy.WithAssignor(a))
		if err != nil {
			t.Fatal(err)
		}
		if got := []int{r.Schedule[0].Consumer, r.Schedule[1].Consumer, r.Schedule[2].Consumer}; !slices.Equal(got, []int{0, 1, 0}) {
			t.Errorf("convoy, %s: consumers %v; want [0 1 0]", a, got)
		}
	}
}

// A member number far beyond the consumers used costs nothing: the run
// holds the consumers its lanes use.
func TestAssignorsOfHugeGroups(t *testing.T) {
	events := []konvoy.Event{{Key: "a", Step: 1, Duration: 1, Partition: konvoy.MaxPartitions - 1}}
	for _, a := range []konvoy.Assignor{konvoy.RangeAssignor, konvoy.RoundRobinAssignor} {
		r, err := konvoy.Simulate(events, konvoy.Recorded(konvoy.MaxPartitions), konvoy.MaxConsumers,
			konvoy.WithPolicy(konvoy.Static), konvoy.WithSchedule(1), konvoy.WithAssignor(a))
		if err != nil || r.Schedule[0].Consumer != konvoy.MaxPartitions-1 {
			t.Fatalf("%s: %+v, %v", a, r.Schedule, err)
		}
	}
}

func TestRecordedPartitionsAreChecked(t *testing.T) {
	for _, p := range []int{-1, 3} {
		_, err := konvoy.Simulate([]konvoy.Event{{Key: "a", Partition: 1}, {Key: "b", Partition: p}}, konvoy.Recorded(3), 1)
		var ev *konvoy.EventError
		if !errors.As(err, &ev) || ev.Index != 1 || ev.Field != "Partition" || ev.Value != p {
			t.Errorf("partition %d: %v", p, err)
		}
	}
	if _, err := konvoy.Simulate([]konvoy.Event{{Key: "a", Partition: -1}}, konvoy.Convoy, 1); err != nil {
		t.Errorf("a layout that reads no partition checks none: %v", err)
	}
}

func TestParseAssignorAndRecorded(t *testing.T) {
	for _, a := range []konvoy.Assignor{konvoy.FirstSeenAssignor, konvoy.RangeAssignor, konvoy.RoundRobinAssignor} {
		if got, err := konvoy.ParseAssignor(a.String()); got != a || err != nil {
			t.Errorf("ParseAssignor(%q) = %v, %v", a, got, err)
		}
	}
	if _, err := konvoy.ParseAssignor("sticky"); err == nil {
		t.Error("ParseAssignor(sticky): no error")
	}
	l, err := konvoy.ParseLayout("recorded:6")
	if err != nil || !l.Equal(konvoy.Recorded(6)) || l.String() != "recorded:6" || l.Partitions() != 6 || l.Equal(konvoy.Partitioned(6)) {
		t.Errorf("ParseLayout(recorded:6) = %v, %v", l, err)
	}
	for _, bad := range []string{"recorded", "recorded:0", "recorded:x"} {
		if _, err := konvoy.ParseLayout(bad); err == nil {
			t.Errorf("ParseLayout(%q): no error", bad)
		}
	}
}

// A partitioned or recorded layout named without its count is one
// ParseLayout knows: its error says what it needs, not that the name is
// unknown (found by a review).
func TestParseLayoutSaysAPartitionCountIsNeeded(t *testing.T) {
	for _, name := range []string{"partitioned", "recorded"} {
		want := fmt.Sprintf("layout %q needs its partition count: want %s:N with N from 1 to %d", name, name, konvoy.MaxPartitions)
		if _, err := konvoy.ParseLayout(name); err == nil || err.Error() != want {
			t.Errorf("ParseLayout(%q): %v; want %s", name, err, want)
		}
	}
	if _, err := konvoy.ParseLayout("sharded"); err == nil || !strings.HasPrefix(err.Error(), `unknown layout "sharded"; want free,`) {
		t.Errorf("ParseLayout(sharded): %v; want it said unknown", err)
	}
}
