package kafka_test

import (
	"context"
	"fmt"
	"log"
	"os/signal"
	"syscall"

	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/kafka"
	"github.com/sirali-konvoy/konvoy/live"
	"github.com/twmb/franz-go/pkg/kgo"
)

// A partition's record at offset 100 is still running, while 101, 102
// and 105 have finished: the consumer commits offset 100, with the
// finished offsets above it as metadata. A member that takes the
// partition over reads the metadata back and skips what finished.
func Example() {
	// What live.Executor.Completion gives for the partition.
	f, err := kafka.NewFinished(100, []int64{101, 102, 105})
	if err != nil {
		panic(err)
	}
	metadata, err := f.Metadata()
	if err != nil {
		panic(err)
	}
	fmt.Printf("commit offset %d with metadata %q\n", f.Committable(), metadata)

	// On assignment: the committed offset and its metadata.
	g, err := kafka.ParseMetadata(100, metadata)
	if err != nil {
		panic(err) // a consumer would log it and run every record again
	}
	for o := int64(100); o <= 106; o++ {
		if g.Done(o) {
			fmt.Println("skip", o)
		} else {
			fmt.Println("run", o)
		}
	}
	// Output:
	// commit offset 100 with metadata "k1bZFFzZ8oT"
	// run 100
	// skip 101
	// skip 102
	// run 103
	// run 104
	// skip 105
	// run 106
}

// One record, at offset 0, is stuck while every other record after it
// has finished, up to offset 24,512: Fits tells whether one more finished
// offset keeps the metadata within Kafka's 4 KB. (The consumer itself
// pauses a partition before its records reach Reach of the committable
// offset, a bound that holds whichever of them finish.)
func ExampleFinished_Fits() {
	var finished []int64
	for o := int64(2); o <= 24_512; o += 2 {
		finished = append(finished, o) // the odd offsets are still running
	}
	f, err := kafka.NewFinished(0, finished)
	if err != nil {
		panic(err)
	}
	fmt.Printf("%d finished above offset 0: metadata of %d bytes at most\n", len(finished), f.Bound())
	fmt.Println("fits with 24,511 finished too:", f.Fits(24_511))
	fmt.Println("fits with 24,513 finished too:", f.Fits(24_513))
	// Output:
	// 12256 finished above offset 0: metadata of 4095 bytes at most
	// fits with 24,511 finished too: true
	// fits with 24,513 finished too: false
}

// A group member that handles each key's records in offset order, eight
// at once, retrying a failure twice, until SIGINT or SIGTERM; then it
// drains, commits and leaves the group. Not run: it needs a broker.
func ExampleNew() {
	opts := []kgo.Opt{
		kgo.SeedBrokers("localhost:9092"),
		kgo.ConsumerGroup("orders-applier"),
		kgo.ConsumeTopics("orders"),
	}
	event := func(r *kgo.Record) konvoy.Event { return konvoy.Event{Key: string(r.Key)} }
	apply := func(ctx context.Context, r *kgo.Record) error {
		return nil // apply the order change in r.Value
	}
	c, err := kafka.New(opts, konvoy.Convoy, 8, event, apply,
		kafka.WithExecutor(live.WithRetry(live.Retry{Attempts: 3})))
	if err != nil {
		log.Fatal(err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	if err := c.Run(ctx); err != nil {
		log.Fatal(err)
	}
}
