package main

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/twmb/franz-go/pkg/kgo"
)

// statusesUnusedNote is the note of -steps and -history beside a step
// column.
const statusesUnusedNote = "-status, -steps and -history unused: every event's step came from the trace's step column"

// konvoy replay -brokers notes -steps and -history as unused when every
// record's step came from the step column, as a replay of a file does, and
// says nothing of them when a status gave the steps.
func TestReplayATopicNotesStatusListsBesideAStepColumn(t *testing.T) {
	for _, c := range []struct {
		record string   // with %d for the step
		step   []string // the flag naming the step column, if any
		noted  bool
	}{{`{"step":%d,"status":"created","ms":1}`, []string{"-step", "payload.step"}, true}, {`{"status":"created","ms":%d}`, nil, false}} {
		addr, cl := topicCluster(t)
		var rs []*kgo.Record
		for i := range 4 {
			rs = append(rs, &kgo.Record{Key: []byte(fmt.Sprintf("k%d", i)), Value: []byte(fmt.Sprintf(c.record, i/2+1))})
		}
		ctx, cancel := context.WithTimeout(context.Background(), topicWait)
		err := cl.ProduceSync(ctx, rs...).FirstErr()
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		args := append([]string{"replay", "-brokers", addr, "-topic", "orders", "-group", "statuses", "-idle", "300ms", "-key", "key",
			"-status", "payload.status", "-steps", "created", "-duration", "payload.ms", "-format", "json"}, c.step...)
		out, errOut, status := runTopicCommand(t, args...)
		if status != 0 || !strings.Contains(out, `"trace_events": 4`) {
			t.Fatalf("records %s: status %d, stderr %q, stdout %q; want 0 and the 4 records replayed", c.record, status, errOut, out)
		}
		if strings.Contains(errOut, statusesUnusedNote) != c.noted {
			t.Errorf("records %s: stderr %q; want the status lists noted as unused: %v", c.record, errOut, c.noted)
		}
	}
}

// konvoy replay of a file whose steps came from its statuses notes
// nothing of -steps and -history.
func TestReplayOfStatusesDoesNotNoteThemUnused(t *testing.T) {
	trace := "key,status,duration\na,created,1\na,paid,1\n"
	_, errOut, status := runWithInput(trace, "replay", "-events", "-", "-steps", "created,paid")
	if status != 0 || strings.Contains(errOut, statusesUnusedNote) {
		t.Errorf("status %d, stderr %q; want 0 and no note of the status lists as unused", status, errOut)
	}
}
