//go:build unix

package main

import (
	"context"
	"encoding/json"
	"io"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
)

// TestSIGINTDrainsARecordLongerThanTheCloseTimeout: docs/replay.md
// ("Stopping") and issue 25 item 6 say a stop of konvoy replay -brokers
// "drains the records it holds, commits, leaves the group and exits 0,
// with the report of every record it took". Here the topic's one record
// takes 40s (-unit 1s, fixed:40); once the member has taken it (its
// interval commit, 5s in, commits offset 0 below it), SIGINT comes. The
// drain must wait for the record, then commit past it and exit 0 with a
// report of 1 event. Today replay makes its consumer with package kafka's
// DefaultCloseTimeout (30s), so after 30s the drain cancels the record's
// handler, Run returns an UnrunError, and the command exits 1 with no
// report.
// It takes 40 s, so it runs only under -konvoy.long.
func TestSIGINTDrainsARecordLongerThanTheCloseTimeout(t *testing.T) {
	if !*long {
		t.Skip("40 s: run with -args -konvoy.long")
	}
	addr, cl := topicCluster(t)
	produceExport(t, cl, 1)
	args := topicArgs(addr, "g", "-unit", "1s", "-duration-model", "fixed:40", "-consumers", "1", "-format", "json")
	args = untilSignal(args)
	p := startMain(t, false, args...)
	cmd, stdout, br := p.cmd, p.kept, p.stream
	if first, err := br.ReadString('\n'); err != nil || !strings.Contains(first, "SIGINT or SIGTERM stops it") {
		t.Fatalf("stderr %q, %v; want the replay's start", first, err)
	}
	type ended struct {
		rest []byte
		err  error
	}
	done := make(chan ended, 1)
	go func() {
		rest, _ := io.ReadAll(br)
		done <- ended{rest, cmd.Wait()}
	}()
	awaitGroupCommit(t, cl, "g")
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	var e ended
	select {
	case e = <-done:
	case <-time.After(40*time.Second + topicWait): // the record's time, and room to commit and leave
		t.Fatal("the replay did not stop")
	}
	var report struct{ Events int }
	if e.err != nil {
		t.Fatalf("exit %v; want status 0, the record drained; stderr:\n%s", e.err, e.rest)
	}
	if err := json.Unmarshal(stdout.Bytes(), &report); err != nil || report.Events != 1 {
		t.Errorf("stdout %s; want a report of the 1 record taken", stdout.String())
	}
}

// awaitGroupCommit waits until group has committed an offset of the topic
// orders, failing t after topicWait: a member commits offset 0, below the
// record it holds, on its 5s interval, so the record is taken by then.
func awaitGroupCommit(t *testing.T, cl *kgo.Client, group string) {
	t.Helper()
	taken := time.Now().Add(topicWait)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		got, err := kadm.NewClient(cl).FetchOffsets(ctx, group)
		cancel()
		if err == nil && len(got["orders"]) > 0 {
			return
		}
		if time.Now().After(taken) {
			t.Fatalf("the member committed nothing within %v", topicWait)
		}
		time.Sleep(100 * time.Millisecond) // a poll, bounded above
	}
}
