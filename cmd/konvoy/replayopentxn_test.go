package main

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"
)

// The member reads committed records only (kgo.ReadCommitted, as kcat
// reads an export), so records of a transaction still open cannot be
// consumed: -idle compares the group's commit with the last stable
// offset, which a read-committed reader can reach, not the high
// watermark, which counts them. With one committed record and a
// transaction left open (a producer that stalls, or a hanging
// transaction), the replay stops once idle for 300ms and reports the
// record. (Before, it ran on until the transaction ended; found by a
// review. The test aborts the transaction after 5 s, after which a replay
// still running stops at once.)
func TestIdleStopsBesideAnOpenTransaction(t *testing.T) {
	addr, cl := topicCluster(t)
	ctx, cancel := context.WithTimeout(context.Background(), topicWait)
	defer cancel()
	if err := cl.ProduceSync(ctx, &kgo.Record{Key: []byte("a"), Value: []byte(`{"status":"new"}`)}).FirstErr(); err != nil {
		t.Fatal(err)
	}
	pr, err := kgo.NewClient(kgo.SeedBrokers(addr), kgo.DefaultProduceTopic("orders"), kgo.TransactionalID("open"))
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	if err := pr.BeginTransaction(); err != nil {
		t.Fatal(err)
	}
	if err := pr.ProduceSync(ctx, &kgo.Record{Key: []byte("b"), Value: []byte(`{"status":"new"}`)}).FirstErr(); err != nil {
		t.Fatal(err)
	}
	done := goCommand(topicArgs(addr, "g")...)
	start := time.Now()
	var r commandResult
	select {
	case r = <-done:
	case <-time.After(5 * time.Second):
		t.Errorf("-idle 300ms: still running after 5 s, one committed record consumed, beside a transaction left open")
		if err := pr.EndTransaction(ctx, kgo.TryAbort); err != nil {
			t.Fatal(err)
		}
		select {
		case r = <-done:
			t.Logf("stopped %v after the start, once the transaction was aborted", time.Since(start).Round(time.Millisecond))
		case <-time.After(topicWait):
			t.Fatal("did not stop after the transaction was aborted either")
		}
	}
	if r.status != 0 || !strings.HasPrefix(r.out, "replay of topic orders: 1 event,") {
		t.Errorf("status %d, stdout %q, stderr %q; want 0 and the committed record's report", r.status, r.out, r.errOut)
	}
}
