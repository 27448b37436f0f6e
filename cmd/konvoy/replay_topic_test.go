package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// topicWait bounds every wait of the topic tests: far above what they
// take, so that reaching it is a failure, never a slow machine.
const topicWait = 30 * time.Second

// topicCluster starts an in-process Kafka on loopback with the topic
// "orders" of three partitions, closed when the test ends, and returns
// its address and a client of it.
func topicCluster(t *testing.T) (string, *kgo.Client) {
	t.Helper()
	c, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.SeedTopics(3, "orders"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	cl, err := kgo.NewClient(kgo.SeedBrokers(c.ListenAddrs()...), kgo.DefaultProduceTopic("orders"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cl.Close)
	return c.ListenAddrs()[0], cl
}

// produceExport produces the first n records of the kcat export in
// testdata, their keys and payloads (JSON with the order's status), and
// returns each partition's keys in offset order.
func produceExport(t *testing.T, cl *kgo.Client, n int) map[int32][]string {
	t.Helper()
	raw, err := os.ReadFile("../../testdata/export.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	var rs []*kgo.Record
	for line := range bytes.Lines(raw) {
		var v struct{ Key, Payload string }
		if err := json.Unmarshal(line, &v); err != nil {
			t.Fatal(err)
		}
		if rs = append(rs, &kgo.Record{Key: []byte(v.Key), Value: []byte(v.Payload)}); len(rs) == n {
			break
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), topicWait)
	defer cancel()
	if err := cl.ProduceSync(ctx, rs...).FirstErr(); err != nil {
		t.Fatal(err)
	}
	keys := map[int32][]string{}
	for _, r := range rs {
		if int64(len(keys[r.Partition])) != r.Offset {
			t.Fatalf("record %s at %d/%d; want offsets in produce order", r.Key, r.Partition, r.Offset)
		}
		keys[r.Partition] = append(keys[r.Partition], string(r.Key))
	}
	return keys
}

// topicArgs are a replay of the topic "orders" at addr as group, reading
// the records as the export's lines are read (docs/traces.md), stopping
// once idle for 300ms; more, flags and their values in pairs, replace
// those or come after them (a command line gives each flag once).
func topicArgs(addr, group string, more ...string) []string {
	args := []string{"replay", "-brokers", addr, "-topic", "orders", "-group", group, "-idle", "300ms",
		"-key", "key", "-status", "payload.status", "-steps", "new,paid,shipped,delivered", "-duration-model", "fixed:2",
		"-unit", "200us", "-layout", "convoy", "-policy", "lane-aware", "-consumers", "3"}
	for i := 0; i+1 < len(more); i += 2 {
		if at := slices.Index(args, more[i]); at > 0 && at%2 == 1 {
			args[at+1] = more[i+1]
		} else {
			args = append(args, more[i], more[i+1])
		}
	}
	return args
}

// runTopicCommand runs the command as runCommand does, failing the test if it
// has not returned within topicWait (a replay that never stops).
func runTopicCommand(t *testing.T, args ...string) (stdout, stderr string, status int) {
	t.Helper()
	select {
	case r := <-goCommand(args...):
		return r.out, r.errOut, r.status
	case <-time.After(topicWait):
		t.Fatalf("%q did not return within %v", args, topicWait)
	}
	return "", "", 0
}

// commandResult is what a command run by goCommand printed, and its
// status.
type commandResult struct {
	out, errOut string
	status      int
}

// goCommand runs the command as runCommand does, in a goroutine of its
// own, and returns where its result comes once it returns: for a test
// that acts on the group while a replay runs.
func goCommand(args ...string) <-chan commandResult {
	done := make(chan commandResult, 1)
	go func() {
		out, errOut, status := runCommand(args...)
		done <- commandResult{out, errOut, status}
	}()
	return done
}

// committedOffsets returns the offsets group committed on "orders".
func committedOffsets(t *testing.T, cl *kgo.Client, group string) map[int32]int64 {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), topicWait)
	defer cancel()
	got, err := kadm.NewClient(cl).FetchOffsets(ctx, group)
	if err != nil {
		t.Fatal(err)
	}
	out := map[int32]int64{}
	got.Each(func(o kadm.OffsetResponse) {
		if o.Err == nil && o.Topic == "orders" {
			out[o.Partition] = o.At
		}
	})
	return out
}

// TestReplayATopic replays 40 records of a topic, as JSON and as text
// under two groups, each stopping by itself once idle: the report covers
// every record, predicted beside measured; -applied has a line for each
// record, naming its partition and offset, each partition's keys in
// offset order; and each group has committed every partition to its end.
func TestReplayATopic(t *testing.T) {
	addr, cl := topicCluster(t)
	keys := produceExport(t, cl, 40)
	applied := filepath.Join(t.TempDir(), "applied.jsonl")
	out, errOut, status := runTopicCommand(t, topicArgs(addr, "g1", "-format", "json", "-applied", applied)...)
	if status != 0 {
		t.Fatalf("status %d: %s", status, errOut)
	}
	var got struct {
		Trace       string
		Events      int
		TraceEvents int     `json:"trace_events"`
		Predicted   float64 `json:"predicted_seconds"`
		Measured    float64 `json:"measured_seconds"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v:\n%s", err, out)
	}
	var sides struct{ Predicted, Measured map[string]any }
	if err := json.Unmarshal([]byte(out), &sides); err != nil {
		t.Fatal(err)
	}
	if got.Trace != "topic orders" || got.Events != 40 || got.TraceEvents != 40 || got.Predicted <= 0 || got.Measured <= 0 ||
		sides.Predicted["events"] != 40.0 || sides.Measured["events"] != 40.0 {
		t.Errorf("report %s; want 40 events of topic orders, predicted and measured", out)
	}
	checkApplied(t, applied, keys)
	for p, ks := range keys {
		if at := committedOffsets(t, cl, "g1")[p]; at != int64(len(ks)) {
			t.Errorf("group g1 committed partition %d at %d; want %d, its end", p, at, len(ks))
		}
	}
	if !strings.Contains(errOut, "consuming topic orders as a member of group g1; it stops once the group's lag is 0 and no record came for 300ms") {
		t.Errorf("stderr %q; want what runs and how it stops", errOut)
	}
	out, errOut, status = runTopicCommand(t, topicArgs(addr, "g2")...)
	if status != 0 || !strings.HasPrefix(out, "replay of topic orders: 40 events, layout convoy, policy lane-aware, 3 consumers, one round 200µs\n") ||
		!regexp.MustCompile(`measure +predicted +from actual times +measured\n +makespan +[0-9.]+ ms +[0-9.]+ ms +[0-9.]+ ms\n`).MatchString(out) {
		t.Errorf("text: status %d, stdout %q, stderr %q; want the 40 records' report", status, out, errOut)
	}
	g2 := committedOffsets(t, cl, "g2")
	for p, ks := range keys {
		if at, ok := g2[p]; !ok || at != int64(len(ks)) {
			t.Errorf("group g2 committed partition %d at %d (%v); want %d, its end", p, at, ok, len(ks))
		}
	}
}

// TestReplayATopicBoundsItsFetches: every fetch the replay sends asks for
// at most topicFetchMaxBytes over all its partitions, and no partition
// for more, rather than franz-go's default of 50 MiB a fetch: franz-go
// keeps a fetch, decoded, until the last of its records is polled, so
// that bound, not the records held, sets the replay's memory for small
// compressible records (docs/replay.md measures it).
func TestReplayATopicBoundsItsFetches(t *testing.T) {
	c, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.SeedTopics(3, "orders"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	var mu sync.Mutex
	var fetches, over int
	var asked string
	c.ControlKey(int16(kmsg.Fetch), func(req kmsg.Request) (kmsg.Response, error, bool) {
		c.KeepControl()
		f := req.(*kmsg.FetchRequest)
		mu.Lock()
		defer mu.Unlock()
		fetches++
		big := f.MaxBytes > topicFetchMaxBytes
		parts := []int32{}
		for _, tp := range f.Topics {
			for _, p := range tp.Partitions {
				big = big || p.PartitionMaxBytes > topicFetchMaxBytes
				parts = append(parts, p.PartitionMaxBytes)
			}
		}
		if big {
			over++
			asked = fmt.Sprintf("%d bytes a fetch, %v a partition", f.MaxBytes, parts)
		}
		return nil, nil, false // observed, then handled as usual
	})
	cl, err := kgo.NewClient(kgo.SeedBrokers(c.ListenAddrs()...), kgo.DefaultProduceTopic("orders"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cl.Close)
	produceExport(t, cl, 40)
	if _, errOut, status := runTopicCommand(t, topicArgs(c.ListenAddrs()[0], "g")...); status != 0 {
		t.Fatalf("status %d: %s", status, errOut)
	}
	mu.Lock()
	defer mu.Unlock()
	if fetches == 0 || over > 0 {
		t.Errorf("%d fetches, %d of them asking for more than %d bytes (%s); want fetches, none above it", fetches, over, topicFetchMaxBytes, asked)
	}
}

// checkApplied wants the -applied file to hold one line per record, each
// naming a partition and offset that holds its key, and each partition's
// lines, sorted by start, in offset order (a key's records run in order;
// keys are on one partition each, and the lines of one partition need
// not start in offset order across keys, so the check is per key).
func checkApplied(t *testing.T, path string, keys map[int32][]string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	type line struct {
		Partition int32
		Offset    int64
		Key       string
		Step      int
		StartNS   int64 `json:"start_ns"`
	}
	seen := map[[2]int64]bool{}
	byKey := map[string][]line{}
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		var l line
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatal(err)
		}
		ks := keys[l.Partition]
		if l.Offset < 0 || l.Offset >= int64(len(ks)) || ks[l.Offset] != l.Key || seen[[2]int64{int64(l.Partition), l.Offset}] || l.Step < 1 {
			t.Errorf("applied line %s: want a record's partition, offset and key, once, and its step", sc.Text())
		}
		seen[[2]int64{int64(l.Partition), l.Offset}] = true
		byKey[l.Key] = append(byKey[l.Key], l)
		n++
	}
	if n != 40 {
		t.Errorf("%d applied lines; want 40", n)
	}
	for k, ls := range byKey {
		slices.SortFunc(ls, func(a, b line) int { return int(a.StartNS - b.StartNS) })
		for i := 1; i < len(ls); i++ {
			if ls[i].Offset < ls[i-1].Offset {
				t.Errorf("key %s: offset %d started after %d", k, ls[i-1].Offset, ls[i].Offset)
			}
		}
	}
}

// TestReplayATopicStopsAtARecordThatDoesNotMap: a record whose payload
// has no status stops the replay: status 1, the error naming the record
// and the field, and the group's commit never past it. (Its key unknown,
// the record runs in no lane, so it may fail while the records before it
// run: the commit may stop below them too.)
func TestReplayATopicStopsAtARecordThatDoesNotMap(t *testing.T) {
	addr, cl := topicCluster(t)
	ctx, cancel := context.WithTimeout(context.Background(), topicWait)
	defer cancel()
	var rs []*kgo.Record
	for _, v := range []string{`{"status":"new"}`, `{"status":"paid"}`, `{"state":"shipped"}`, `{"status":"delivered"}`} {
		rs = append(rs, &kgo.Record{Key: []byte("order-1"), Value: []byte(v), Partition: 1})
	}
	if err := cl.ProduceSync(ctx, rs...).FirstErr(); err != nil {
		t.Fatal(err)
	}
	p := rs[0].Partition
	out, errOut, status := runTopicCommand(t, topicArgs(addr, "g")...)
	want := `orders [` + string(rune('0'+p)) + `] at offset 2: want a field at the path "payload.status"; "payload" has no "status"`
	if status != 1 || out != "" || !strings.Contains(errOut, want) {
		t.Errorf("status %d, stdout %q, stderr %q; want 1 and %q", status, out, errOut, want)
	}
	if at := committedOffsets(t, cl, "g"); at[p] > 2 {
		t.Errorf("committed %v; want partition %d at 2 at most, the record that did not map", at, p)
	}
}

// TestReplayAnEmptyTopic: a topic without records, once idle (never
// before -idle has passed), is a stop like any other: status 0, and a
// report of no events, saying so.
func TestReplayAnEmptyTopic(t *testing.T) {
	addr, _ := topicCluster(t)
	for _, format := range []string{"text", "json"} {
		start := time.Now()
		out, errOut, status := runTopicCommand(t, topicArgs(addr, "g-"+format, "-format", format)...)
		if took := time.Since(start); took < 300*time.Millisecond {
			t.Errorf("%s: stopped after %v; want no sooner than -idle, 300ms, with no record", format, took)
		}
		if status != 0 || !strings.Contains(errOut, "no record came from topic orders before the stop: the report covers none") {
			t.Errorf("%s: status %d, stderr %q; want 0 and no records", format, status, errOut)
		}
		var report struct {
			Events   *int    `json:"events"`
			Measured float64 `json:"measured_seconds"`
		}
		switch {
		case format == "text" && !strings.Contains(out, ": 0 events, ") || format == "text" && !strings.HasSuffix(out, "no event was submitted: nothing to predict or measure\n"):
			t.Errorf("text report %q; want one of 0 events, saying so", out)
		case format == "json" && (json.Unmarshal([]byte(out), &report) != nil || report.Events == nil || *report.Events != 0 || report.Measured != 0):
			t.Errorf("json report %q; want one of 0 events", out)
		}
	}
}

// TestReplayTopicUsageErrors wants a usage error, status 2, naming the
// flag, for a topic replay without what it needs or with what a file
// replay alone takes.
func TestReplayTopicUsageErrors(t *testing.T) {
	base := []string{"replay", "-brokers", "127.0.0.1:1", "-topic", "t", "-group", "g", "-duration-model", "fixed:1"}
	for _, tt := range []struct {
		args []string
		want string
	}{
		{append(base, "-events", "testdata/arrivals.csv"), "-events and -brokers both name what to replay; want one"},
		{[]string{"replay", "-brokers", "127.0.0.1:1", "-group", "g", "-duration-model", "fixed:1"}, "-brokers needs -topic"},
		{[]string{"replay", "-brokers", "127.0.0.1:1", "-topic", "t", "-duration-model", "fixed:1"}, "-brokers needs -group"},
		{[]string{"replay", "-brokers", "127.0.0.1:1", "-topic", "t", "-group", "g"}, "-brokers needs -duration COL"},
		{[]string{"replay", "-brokers", "127.0.0.1:1", "-topic", "t", "-group", "g", "-duration-model", "fixed:1", "-layout", "resequencer"}, "-layout resequencer does not replay a topic"},
		{[]string{"replay", "-brokers", "", "-topic", "t", "-group", "g"}, "-brokers is empty"},
		{[]string{"replay", "-brokers", "a:1,,b:2", "-topic", "t", "-group", "g", "-duration-model", "fixed:1"}, "-brokers \"a:1,,b:2\" has an empty address"},
		{[]string{"replay", "-events", "testdata/arrivals.csv", "-topic", "t"}, "-topic needs -brokers"},
		{[]string{"replay", "-events", "testdata/arrivals.csv", "-idle", "1s"}, "-idle needs -brokers"},
		{[]string{"replay", "-topic", "t", "-group", "g"}, "-topic needs -brokers"},
		{append(base, "-idle", "-1s"), "-idle is -1s"},
		{append(base, "-session-timeout", "0s"), "-session-timeout is 0s"},
		{append(base, "-session-timeout", "3s"), "-session-timeout is 3s; want whole milliseconds, more than 3s, the member's heartbeat interval"},
		{append(base, "-at", "ts"), "-at: a replay of a topic takes each record's arrival as the time it was consumed"},
		{append(base, "-reorder", "1s"), "-reorder: a replay of a topic"},
		{append(base, "-input", "csv"), "-input: a topic's records are read as their kcat -J lines"},
		{[]string{"replay", "-key", "k"}, "-key needs -events or -brokers"},
		{[]string{"replay"}, "-events is missing; want the trace FILE to replay, or -brokers, -topic and -group to replay a topic"},
	} {
		out, errOut, status := runCommand(tt.args...)
		if status != 2 || out != "" || !strings.Contains(errOut, "konvoy replay: "+tt.want) {
			t.Errorf("%q: status %d, stdout %q, stderr %q; want 2 and %q", tt.args, status, out, errOut, tt.want)
		}
	}
}

// TestReplayATopicThatCannotBeRead: with -idle, a topic that does not
// exist, or brokers that cannot be reached, is an error naming the topic
// and what failed, not a replay that never ends.
func TestReplayATopicThatCannotBeRead(t *testing.T) {
	addr, _ := topicCluster(t)
	for _, tt := range []struct {
		args        []string
		want        string
		unreachable bool
	}{
		{topicArgs(addr, "g", "-topic", "missing"), "konvoy replay: kafka: the end offsets of topic missing: ", false},
		{topicArgs("127.0.0.1:1", "g"), "konvoy replay: kafka: the end offsets of topic orders: ", true},
	} {
		out, errOut, status := runTopicCommand(t, tt.args...)
		if status != 1 || out != "" || !strings.Contains(errOut, tt.want) || strings.Contains(errOut, "no events came") {
			t.Errorf("%q: status %d, stdout %q, stderr %q; want 1 and %q alone", tt.args, status, out, errOut, tt.want)
		}
		// A wrong address is said at once, not only when -idle ends the
		// run: without -idle the replay would otherwise wait in silence,
		// as for an empty topic (found by a review).
		const note = "konvoy replay: no broker of -brokers 127.0.0.1:1 answered (unable to dial: dial tcp 127.0.0.1:1: connect: connection refused); the member keeps trying until -idle's check, once no record came for 300ms, which ends the replay with an error if no broker answers it\n"
		if got := strings.Contains(errOut, "no broker of -brokers"); got != tt.unreachable || tt.unreachable && !strings.Contains(errOut, note) {
			t.Errorf("%q: stderr %q; want the note %q: %v", tt.args, errOut, note, tt.unreachable)
		}
	}
}
