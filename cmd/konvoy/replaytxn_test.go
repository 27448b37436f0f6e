package main

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/twmb/franz-go/pkg/kgo"
)

// TestReplayOfATransactionalTopicCountsRecordsOnly: a transactional
// producer writes 6 records of the export to topic orders in one
// transaction and commits it, so each of the partitions it wrote holds a
// commit marker (a control record) after its records. The consumer keeps
// control records (kgo.KeepControlRecords) and counts each finished
// without reaching the event function or the handler, so the trace holds
// the 6 records. The report must say 6 events on both sides, predicted
// and measured, and stderr must not say that records "did not run here
// (revoked before they ran, or finished by an earlier member of the
// group)": a single member consumed the topic from the start, nothing
// was revoked and no earlier member finished anything.
func TestReplayOfATransactionalTopicCountsRecordsOnly(t *testing.T) {
	addr, _ := topicCluster(t)
	var rs []*kgo.Record
	for i, status := range []string{"new", "paid", "shipped", "new", "paid", "shipped"} {
		rs = append(rs, &kgo.Record{Key: []byte{'a' + byte(i/3)}, Partition: int32(i % 3), Value: []byte(`{"status":"` + status + `"}`)})
	}
	produceTransaction(t, addr, kgo.TryCommit, rs...)
	out, errOut, status := runTopicCommand(t, topicArgs(addr, "gtxn", "-format", "json")...)
	if status != 0 {
		t.Fatalf("status %d: %s", status, errOut)
	}
	var got struct {
		Events      int
		TraceEvents int `json:"trace_events"`
	}
	var sides struct{ Predicted, Measured map[string]any }
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v:\n%s", err, out)
	}
	if err := json.Unmarshal([]byte(out), &sides); err != nil {
		t.Fatal(err)
	}
	if got.Events != 6 || got.TraceEvents != 6 || sides.Predicted["events"] != 6.0 || sides.Measured["events"] != 6.0 {
		t.Errorf("events %d, trace events %d, predicted %v, measured %v; want 6 everywhere (the transaction's markers are no events)",
			got.Events, got.TraceEvents, sides.Predicted["events"], sides.Measured["events"])
	}
	if strings.Contains(errOut, "did not run here") {
		t.Errorf("stderr %q; want no record said not run: nothing was revoked, no earlier member finished any", errOut)
	}
}

// TestReplayOfATopicLeavesAbortedRecordsOut: the member reads committed
// records only, as kcat reads an export: of 2 records written in a
// transaction that aborts and then 3 in one that commits, the replay
// reports the 3.
func TestReplayOfATopicLeavesAbortedRecordsOut(t *testing.T) {
	addr, _ := topicCluster(t)
	record := func(key byte) *kgo.Record {
		return &kgo.Record{Key: []byte{key}, Partition: 0, Value: []byte(`{"status":"new"}`)}
	}
	produceTransaction(t, addr, kgo.TryAbort, record('a'), record('b'))
	produceTransaction(t, addr, kgo.TryCommit, record('a'), record('b'), record('c'))
	out, errOut, status := runTopicCommand(t, topicArgs(addr, "gabort", "-format", "json")...)
	if status != 0 {
		t.Fatalf("status %d: %s", status, errOut)
	}
	var got struct{ Events int }
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v:\n%s", err, out)
	}
	if got.Events != 3 {
		t.Errorf("events %d; want 3, the committed transaction's records alone", got.Events)
	}
}

// produceTransaction writes rs to topic orders in one transaction, which
// it then ends as end says.
func produceTransaction(t *testing.T, addr string, end kgo.TransactionEndTry, rs ...*kgo.Record) {
	t.Helper()
	pr, err := kgo.NewClient(kgo.SeedBrokers(addr), kgo.DefaultProduceTopic("orders"), kgo.TransactionalID("konvoy-txn"))
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	ctx, cancel := context.WithTimeout(context.Background(), topicWait)
	defer cancel()
	if err := pr.BeginTransaction(); err != nil {
		t.Fatal(err)
	}
	for _, r := range rs {
		if err := pr.ProduceSync(ctx, r).FirstErr(); err != nil {
			t.Fatal(err)
		}
	}
	if err := pr.EndTransaction(ctx, end); err != nil {
		t.Fatal(err)
	}
}
