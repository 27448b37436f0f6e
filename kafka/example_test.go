package kafka_test

import (
	"context"
	"log"
	"os/signal"
	"syscall"

	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/kafka"
	"github.com/sirali-konvoy/konvoy/live"
	"github.com/twmb/franz-go/pkg/kgo"
)

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
