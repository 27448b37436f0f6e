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
)

// SIGINT stops a replay of a topic run without -idle: the records taken
// are drained, their offsets committed, the member leaves the group (it
// is empty afterwards), the report covers every record taken, and the
// status is 0. The signal comes 150ms after the start, while 40 records
// of 20ms each on three consumers still run, unless the machine is slow
// enough that none was taken yet; then the report covers none, the
// command says so, and the status is 0 too (checked too). On a machine
// slower still, records read but turned away as the executor closed leave
// a report of none, stopped early, of as many as were read (see
// replay.Stream.Close).
func TestSIGINTStopsATopicReplay(t *testing.T) {
	addr, cl := topicCluster(t)
	keys := produceExport(t, cl, 40)
	args := topicArgs(addr, "g", "-unit", "1ms", "-duration-model", "fixed:20", "-format", "json")
	p := startMain(t, false, untilSignal(args)...)
	cmd, stdout, br := p.cmd, p.kept, p.stream
	first, err := br.ReadString('\n') // printed once the signals are watched
	if err != nil || !strings.Contains(first, "SIGINT or SIGTERM stops it") {
		t.Fatalf("stderr %q, %v; want the replay's start", first, err)
	}
	time.Sleep(150 * time.Millisecond) // for records to be taken, usually
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	type ended struct {
		rest []byte
		err  error
	}
	done := make(chan ended, 1)
	go func() {
		rest, _ := io.ReadAll(br) // all read before Wait closes the pipe
		done <- ended{rest, cmd.Wait()}
	}()
	var rest []byte
	select {
	case e := <-done:
		rest, err = e.rest, e.err
	case <-time.After(topicWait):
		t.Fatal("the replay did not stop within", topicWait)
	}
	var report struct {
		Events       int
		TraceEvents  int     `json:"trace_events"`
		StoppedEarly bool    `json:"stopped_early"`
		Measured     float64 `json:"measured_seconds"`
	}
	switch {
	case err != nil:
		t.Fatalf("exit %v; want status 0; stderr:\n%s%s", err, first, rest)
	case json.Unmarshal(stdout.Bytes(), &report) != nil:
		t.Fatalf("stdout %s; want a report", stdout.String())
	case report.Events == 0 && report.TraceEvents > 0 && (!report.StoppedEarly || strings.Contains(string(rest), "no record came")):
		t.Errorf("a report of no records of %d read, stopped early %v, and stderr %s; want it stopped early, and no note that no record came", report.TraceEvents, report.StoppedEarly, rest)
	case report.Events == 0 && report.TraceEvents == 0 && !strings.Contains(string(rest), "no record came from topic orders before the stop"):
		t.Errorf("a report of no records, and stderr %s; want it to say so", rest)
	case report.Events == 0:
		t.Log("no record was taken before the signal")
	}
	t.Logf("%d records reported, measured over %.3fs", report.Events, report.Measured)
	if !strings.Contains(string(rest), "interrupt: draining, committing and leaving the group") {
		t.Errorf("stderr %s; want the signal's note", rest)
	}
	var sum int64
	for _, at := range committedOffsets(t, cl, "g") {
		sum += at
	}
	if want := int64(report.Events); sum != want {
		t.Errorf("the group committed %d records; want %d, those reported (of %d)", sum, want, len(keys))
	}
	ctx, cancel := context.WithTimeout(context.Background(), topicWait)
	defer cancel()
	groups, err := kadm.NewClient(cl).DescribeGroups(ctx, "g")
	if err != nil {
		t.Fatal(err)
	}
	if g := groups["g"]; len(g.Members) != 0 {
		t.Errorf("group g has %d members after the replay; want none: it left", len(g.Members))
	}
}

// untilSignal returns args without -idle and its value: a replay that
// runs until a signal stops it.
func untilSignal(args []string) []string {
	for i, a := range args {
		if a == "-idle" {
			return append(args[:i:i], args[i+2:]...)
		}
	}
	return args
}
