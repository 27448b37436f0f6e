package kafka

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/live"
	"github.com/twmb/franz-go/pkg/kgo"
)

// TestAFailedRecordIsNamedByItsTopicPartitionAndOffset: without a dead
// letter a failed record stops the consumer and Run returns the failure
// (WithDeadLetter's doc). Errors must say where (reviewer brief), and
// submit's own comment says how for a record: "The executor numbers the
// record among all it took; the user finds it by its topic, partition and
// offset" (Where: "events [0] at offset 4"), as the dead-letter topic's
// produce error and a record that does not map (Mapper) do. Today Run
// returns live's errors alone: "live: 1 item not run: live: executor
// stopped by a failed item: live: item 4 (key "k000", step 0, lane
// "k000"): 1 attempt: boom", item 4 being the executor's submission number
// across every partition and assignment, which names no record a user can
// find in Kafka.
func TestAFailedRecordIsNamedByItsTopicPartitionAndOffset(t *testing.T) {
	addrs := cluster(t, 1)
	produce(t, addrs, 6, 1, 1) // offsets 0 to 5 of partition 0
	c, err := New(memberOpts(addrs), konvoy.Convoy, 1, keyEvent, func(_ context.Context, r *kgo.Record) error {
		if r.Offset == 4 {
			return errors.New("boom")
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), testWait)
	defer cancel()
	err = c.Run(ctx) // ends by itself: the failure stops the executor
	if err == nil || !strings.Contains(err.Error(), "boom") {
		t.Fatalf("Run: %v; want the record's failure", err)
	}
	if want := Where(&kgo.Record{Topic: testTopic, Partition: 0, Offset: 4}); !strings.Contains(err.Error(), want) {
		t.Errorf("Run: %q; want it to name the failed record, %q", err, want)
	}
}

// A handler's panic names its record too: the consumer's handler turns it
// into an error as the executor would, and names the record.
func TestAPanickedRecordIsNamedByItsTopicPartitionAndOffset(t *testing.T) {
	addrs := cluster(t, 1)
	produce(t, addrs, 6, 1, 1)
	c, err := New(memberOpts(addrs), konvoy.Convoy, 1, keyEvent, func(_ context.Context, r *kgo.Record) error {
		if r.Offset == 4 {
			panic("boom")
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), testWait)
	defer cancel()
	err = c.Run(ctx)
	var pe *live.PanicError
	if want := Where(&kgo.Record{Topic: testTopic, Partition: 0, Offset: 4}); !errors.As(err, &pe) || pe.Value != "boom" || !strings.Contains(fmt.Sprint(err), want) {
		t.Errorf("Run: %v; want the panic, as a *live.PanicError, naming the record, %q", err, want)
	}
}
