package main

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/twmb/franz-go/pkg/kgo"
)

// konvoy replay -brokers says what reading its records changed, as a
// replay of a file does: with -round, the durations rounded to whole
// rounds of -unit, in a note on standard error and in the JSON report's
// rounded. Here 6 records each give 1500µs under -unit 1ms, rounded to 2
// rounds, 2ms.
func TestReplayATopicSaysWhatItRounded(t *testing.T) {
	addr, cl := topicCluster(t)
	var rs []*kgo.Record
	for i := range 6 {
		rs = append(rs, &kgo.Record{Key: []byte(fmt.Sprintf("k%d", i%2)), Value: []byte(fmt.Sprintf(`{"step":%d,"ms":"1500us"}`, i/2+1))})
	}
	ctx, cancel := context.WithTimeout(context.Background(), topicWait)
	defer cancel()
	if err := cl.ProduceSync(ctx, rs...).FirstErr(); err != nil {
		t.Fatal(err)
	}
	out, errOut, status := runTopicCommand(t, "replay", "-brokers", addr, "-topic", "orders", "-group", "rounded", "-idle", "300ms",
		"-key", "key", "-step", "payload.step", "-duration", "payload.ms", "-unit", "1ms", "-round", "-consumers", "2", "-format", "json")
	if status != 0 || !strings.Contains(out, `"trace_events": 6`) {
		t.Fatalf("status %d, stderr %q, stdout %q; want 0 and the 6 records replayed", status, errOut, out)
	}
	if !strings.Contains(errOut, "rounded to whole rounds of 1ms") {
		t.Errorf("stderr %q; want a note that 6 durations were rounded to whole rounds of 1ms", errOut)
	}
	if !strings.Contains(out, `"rounded": 6,`) {
		t.Errorf("stdout %q; want the JSON report's rounded to be 6", out)
	}
}
