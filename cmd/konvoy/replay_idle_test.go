package main

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
)

// TestReplayATopicStopsWhenItsCommitIsBelowTheLogStart: a group that
// committed partition 0 at 5, whose records up to offset 10 were then
// deleted (retention, or DeleteRecords), has nothing left to consume
// there: the partition's start and end are both 10. A second replay with
// -idle stops once idle, since kafka.Lag counts from the later of the
// commit and the log's start, and the deleted offsets are no lag.
func TestReplayATopicStopsWhenItsCommitIsBelowTheLogStart(t *testing.T) {
	addr, _ := topicCluster(t)
	cl, err := kgo.NewClient(kgo.SeedBrokers(addr), kgo.DefaultProduceTopic("orders"), kgo.RecordPartitioner(kgo.ManualPartitioner()))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	ctx, cancel := context.WithTimeout(context.Background(), topicWait)
	defer cancel()
	produce := func(from, to int) {
		for i := from; i < to; i++ {
			r := &kgo.Record{Key: []byte(fmt.Sprint("k", i%2)), Value: []byte(fmt.Sprintf(`{"step":%d}`, i/2+1)), Partition: 0}
			if err := cl.ProduceSync(ctx, r).FirstErr(); err != nil {
				t.Fatal(err)
			}
		}
	}
	args := []string{"replay", "-brokers", addr, "-topic", "orders", "-group", "g", "-idle", "300ms",
		"-key", "key", "-step", "payload.step", "-duration-model", "fixed:1", "-unit", "100us", "-consumers", "2"}
	produce(0, 5)
	if _, errOut, status := runTopicCommand(t, args...); status != 0 {
		t.Fatalf("first replay: status %d: %s", status, errOut)
	}
	if at := committedOffsets(t, cl, "g")[0]; at != 5 {
		t.Fatalf("group g committed partition 0 at %d; want 5", at)
	}
	produce(5, 10)
	adm := kadm.NewClient(cl)
	offs := kadm.Offsets{}
	offs.Add(kadm.Offset{Topic: "orders", Partition: 0, At: 10})
	if res, err := adm.DeleteRecords(ctx, offs); err != nil || res.Error() != nil {
		t.Fatalf("delete records: %v %v", err, res.Error())
	}
	if out, errOut, status := runTopicCommand(t, args...); status != 0 { // bounded: it fails the test if the replay never stops
		t.Errorf("second replay: status %d, stdout %q, stderr %q; want 0", status, out, errOut)
	}
}

// TestReplayIdleIsAboveZero: -idle DURATION stops a topic's replay once
// the group's lag on the topic is 0 and no record came for DURATION, and
// without -idle the replay runs until SIGINT or SIGTERM. -idle 0 is
// neither: given, it is not "without -idle", and it leaves no time for a
// record to come. It is a usage error, as a negative -idle is, naming the
// flag: "want a duration above 0, or none", before any broker is asked.
//
// The replay runs in a process of its own (as the interrupt tests run
// theirs), killed after 10 s should it run, with brokers that no one
// listens at: the usage error asks none of them.
func TestReplayIdleIsAboveZero(t *testing.T) {
	for _, idle := range []string{"0", "0s", "-1s"} {
		status, _, stderr := runUsage(t, "replay", "-brokers", "127.0.0.1:1", "-topic", "t", "-group", "g", "-duration-model", "fixed:1", "-idle", idle)
		want := "konvoy replay: -idle is " + strings.TrimSuffix(idle, "s") + "s; want a duration above 0, or none"
		if status != 2 || !strings.HasPrefix(stderr, want) {
			t.Errorf("-idle %s: status %d, stderr %q; want 2, a usage error beginning %q", idle, status, stderr, want)
		}
	}
}
