package kafka_test

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/kafka"
	"github.com/sirali-konvoy/konvoy/live"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
)

// TestRunsUnrunErrorHoldsTheRecords: Consumer.Run's doc says it returns
// "the records that did not run ([live.UnrunError])", and a stop that
// gives up on them (WithCloseTimeout) leaves them to the partition's next
// owner. A user outside the package must be able to find which records
// those are: errors.As must find a *live.UnrunError[*kgo.Record] whose
// Items are the records (offsets 0, cut short, then 1 and 2, never
// started). Today the error is a *live.UnrunError of the package's
// unexported item type, which no caller can name, and its message says
// only "live: 3 items not run: context deadline exceeded": neither the
// error nor its type says which records.
func TestRunsUnrunErrorHoldsTheRecords(t *testing.T) {
	const topic, wait = "events", 30 * time.Second
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	addrs := threeRecordsOfOneKey(ctx, t, topic)
	started := make(chan struct{})
	handle := func(hctx context.Context, r *kgo.Record) error {
		if r.Offset == 0 {
			close(started)
			<-hctx.Done() // runs until the close timeout cancels it
			return hctx.Err()
		}
		return nil
	}
	opts := []kgo.Opt{kgo.SeedBrokers(addrs...), kgo.ConsumerGroup("g"), kgo.ConsumeTopics(topic),
		kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()), kgo.FetchMaxWait(50 * time.Millisecond)}
	c, err := kafka.New(opts, konvoy.Convoy, 1, func(r *kgo.Record) konvoy.Event { return konvoy.Event{Key: string(r.Key)} },
		handle, kafka.WithCloseTimeout(200*time.Millisecond), kafka.WithCommitInterval(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	runCtx, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- c.Run(runCtx) }()
	select {
	case <-started:
	case <-ctx.Done():
		t.Fatal("record 0 never started")
	}
	for c.Stats().Events < 3 { // all three taken, held behind record 0
		if ctx.Err() != nil {
			t.Fatal("the consumer never took the three records")
		}
		time.Sleep(time.Millisecond) // a poll, bounded by ctx
	}
	stop()
	select {
	case err = <-done:
	case <-ctx.Done():
		t.Fatal("Run did not return")
	}
	var ue *live.UnrunError[*kgo.Record]
	if !errors.As(err, &ue) {
		t.Fatalf("Run: %v; want a *live.UnrunError[*kgo.Record] naming the records not run", err)
	}
	var offsets []int64
	for _, r := range ue.Items {
		offsets = append(offsets, r.Offset)
	}
	if want := []int64{0, 1, 2}; !slices.Equal(offsets, want) {
		t.Errorf("records not run at offsets %v; want %v", offsets, want)
	}
}

// threeRecordsOfOneKey starts a cluster, closed when t ends, whose topic,
// of one partition, holds three records of key k, and returns its
// addresses.
func threeRecordsOfOneKey(ctx context.Context, t *testing.T, topic string) []string {
	t.Helper()
	kf, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.SeedTopics(1, topic))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(kf.Close)
	addrs := kf.ListenAddrs()
	pr, err := kgo.NewClient(kgo.SeedBrokers(addrs...), kgo.DefaultProduceTopic(topic))
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	for range 3 {
		if err := pr.ProduceSync(ctx, &kgo.Record{Key: []byte("k")}).FirstErr(); err != nil {
			t.Fatal(err)
		}
	}
	return addrs
}
