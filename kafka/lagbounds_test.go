package kafka

import (
	"context"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
)

// Lag counts from the later of the commit and the log's start: a commit
// below the records deleted from the front counts from the start, and a
// commit past the end (a log truncated below it) is a lag of 0, never
// below.
func TestLagOfACommitBelowTheStartOrPastTheEnd(t *testing.T) {
	addrs := cluster(t, 1)
	if ends := produce(t, addrs, 10, 2, 1); ends[0] != 10 {
		t.Fatalf("partition 0 ends at %d; want 10", ends[0])
	}
	cl, err := kgo.NewClient(kgo.SeedBrokers(addrs...))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	ctx, cancel := context.WithTimeout(context.Background(), testWait)
	defer cancel()
	commitAt(ctx, t, addrs, 2, "")
	front := kadm.Offsets{}
	front.Add(kadm.Offset{Topic: testTopic, Partition: 0, At: 6})
	del, err := kadm.NewClient(cl).DeleteRecords(ctx, front)
	if err == nil {
		err = del.Error()
	}
	if err != nil {
		t.Fatal(err)
	}
	if lag, err := Lag(ctx, cl, testGroup, testTopic); err != nil || !gocmp.Equal(lag, map[int32]int64{0: 4}) {
		t.Errorf("lag of a commit at 2 below the start 6, end 10: %v, %v; want 4", lag, err)
	}
	commitAt(ctx, t, addrs, 25, "")
	if lag, err := Lag(ctx, cl, testGroup, testTopic); err != nil || !gocmp.Equal(lag, map[int32]int64{0: 0}) {
		t.Errorf("lag of a commit at 25 past the end 10: %v, %v; want 0", lag, err)
	}
}
