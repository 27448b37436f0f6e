package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// largestWrite is a writer that keeps what it is given and the size of
// its largest write.
type largestWrite struct {
	bytes.Buffer
	most int
}

func (w *largestWrite) Write(p []byte) (int, error) {
	w.most = max(w.most, len(p))
	return w.Buffer.Write(p)
}

// A JSON report is written a record at a time: each record names every
// key in a wrong final state, so a report of many runs over many long keys
// passes the runs' memory many times over, and built whole it ran the
// command out of memory (fatal error) on a trace of 1.6 MB (found by a
// review). Here 40 keys of 2,000 bytes, each wrong, over 12 runs: each
// record about 80 KB, the report about 1 MB, written in writes of at
// most a record and a buffer's 4 KiB.
func TestAJSONReportIsWrittenARecordAtATime(t *testing.T) {
	var trace strings.Builder
	trace.WriteString("key,line,step,duration\n")
	for _, step := range []int{2, 1} {
		for i := range 40 {
			fmt.Fprintf(&trace, "%s%02d,L,%d,1\n", strings.Repeat("x", 2000), i, step)
		}
	}
	var out largestWrite
	var errOut bytes.Buffer
	status := run([]string{"-events", "-", "-layouts", "free,convoy", "-policy", "all", "-consumers", "1,2", "-format", "json"},
		strings.NewReader(trace.String()), &out, &errOut)
	var records []struct {
		WrongKeys []string `json:"wrong_keys"`
	}
	if err := json.Unmarshal(out.Bytes(), &records); status != 0 || err != nil || len(records) != 12 || len(records[0].WrongKeys) != 40 {
		t.Fatalf("status %d, stderr %q, %d records (%v); want 0 and 12 records naming 40 keys each", status, errOut.String(), len(records), err)
	}
	if record := out.Len() / 12; out.most > record+4096 {
		t.Errorf("a write of %d bytes, of a report of %d; want none past a record's %d and a buffer's 4096", out.most, out.Len(), record)
	}
}
