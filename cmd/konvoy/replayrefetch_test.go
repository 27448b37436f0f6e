package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"
)

// A replay member holds 300 records of 3 partitions (1 consumer, 10
// rounds of 1ms each); another member joins the group for a moment,
// taking a partition whose records the replay held but had not run, and
// leaves without committing. The partition comes back to the replay,
// which fetches those records again and runs them: every record of the
// topic runs here once (300 -applied lines), and the report covers the
// 300 records consumed, none said not run. (Before, it said 400 events,
// the prediction modelling the records that came back twice, and stderr
// said 100 records did not run here; found by a review.)
func TestARecordRevokedAndReassignedIsOneEvent(t *testing.T) {
	addr, cl := topicCluster(t)
	var rs []*kgo.Record
	for i := 0; i < 300; i++ {
		rs = append(rs, &kgo.Record{Key: []byte(fmt.Sprint("k", i%30)), Value: []byte(`{"status":"new"}`)})
	}
	ctx, cancel := context.WithTimeout(context.Background(), topicWait)
	defer cancel()
	if err := cl.ProduceSync(ctx, rs...).FirstErr(); err != nil {
		t.Fatal(err)
	}
	applied := filepath.Join(t.TempDir(), "applied.jsonl")
	args := topicArgs(addr, "g", "-applied", applied, "-consumers", "1", "-duration-model", "fixed:10", "-unit", "1ms",
		"-idle", "500ms", "-format", "json", "-session-timeout", "6s")
	done := goCommand(args...)
	time.Sleep(300 * time.Millisecond)
	other, err := kgo.NewClient(kgo.SeedBrokers(addr), kgo.ConsumerGroup("g"), kgo.ConsumeTopics("orders"), kgo.DisableAutoCommit())
	if err != nil {
		t.Fatal(err)
	}
	pctx, pcancel := context.WithTimeout(ctx, 2*time.Second)
	other.PollFetches(pctx) // joins, is assigned a partition, reads nothing it commits
	pcancel()
	other.Close() // leaves: the partition goes back to the replay
	var r commandResult
	select {
	case r = <-done:
	case <-time.After(topicWait):
		t.Fatal("the replay did not stop")
	}
	if r.status != 0 {
		t.Fatalf("status %d: %s", r.status, r.errOut)
	}
	raw, err := os.ReadFile(applied)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[[2]int64]bool{}
	for _, l := range bytes.Split(bytes.TrimSpace(raw), []byte("\n")) {
		var v struct{ Partition, Offset int64 }
		if err := json.Unmarshal(l, &v); err != nil {
			t.Fatal(err)
		}
		seen[[2]int64{v.Partition, v.Offset}] = true
	}
	var got struct {
		Events      int
		TraceEvents int `json:"trace_events"`
		Predicted   struct {
			Events int
			Work   float64
		}
		Measured struct{ Work float64 }
	}
	if err := json.Unmarshal([]byte(r.out), &got); err != nil {
		t.Fatalf("%v: %s", err, r.out)
	}
	if len(seen) != 300 {
		t.Fatalf("%d records ran here; the scenario wants all 300 (the partition came back)", len(seen))
	}
	t.Logf("service time in rounds: predicted %v, measured %v", got.Predicted.Work, got.Measured.Work)
	if got.Events != 300 || got.TraceEvents != 300 || got.Predicted.Events != 300 || strings.Contains(r.errOut, "did not run here") {
		t.Errorf("all 300 records ran here once (%d distinct -applied lines, %d lines); report: events %d, trace_events %d, predicted events %d; stderr %q\nwant 300 events everywhere and no record said not run",
			len(seen), bytes.Count(raw, []byte("\n")), got.Events, got.TraceEvents, got.Predicted.Events, r.errOut)
	}
}
