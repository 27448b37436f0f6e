package main

import (
	"context"
	"log"
	"os/signal"
	"syscall"

	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/kafka"
	"github.com/twmb/franz-go/pkg/kgo"
)

func main() {
	opts := []kgo.Opt{
		kgo.SeedBrokers("localhost:9092"),
		kgo.ConsumerGroup("orders-applier"),
		kgo.ConsumeTopics("orders"),
	}
	byKey := func(r *kgo.Record) konvoy.Event { return konvoy.Event{Key: string(r.Key)} }
	apply := func(ctx context.Context, r *kgo.Record) error {
		log.Printf("order %s: %s", r.Key, r.Value)
		return nil // an error stops the member: see live.WithRetry, kafka.WithDeadLetter
	}
	c, err := kafka.New(opts, konvoy.Convoy, 8, byKey, apply)
	if err != nil {
		log.Fatal(err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	if err := c.Run(ctx); err != nil { // on a signal: drains, commits, leaves the group
		log.Fatal(err)
	}
}
