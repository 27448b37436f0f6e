package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestReplayAppliedKeepsKeysApart: the -applied lines, sorted by offset,
// "let one check per-lane order and that no two items of a lane
// overlapped" (docs/replay.md). A CSV trace may have keys that are not
// UTF-8, which the executor runs as they are ("\xff" and "\xfe" in two
// lanes, at once), but JSON holds only UTF-8: written as "\ufffd" both,
// they would read as two items of one lane that overlapped. So a replay
// with -applied refuses such a key, naming its line, before anything runs.
func TestReplayAppliedKeepsKeysApart(t *testing.T) {
	applied := filepath.Join(t.TempDir(), "applied.jsonl")
	_, errOut, status := runWithInput("key,step,duration,at\n\xff,0,1,0\n\xfe,0,1,0\n",
		"replay", "-events", "-", "-unit", "10us", "-consumers", "2", "-applied", applied)
	if status != 0 {
		if want := `<stdin>:2: key "\xff", line "": want UTF-8 text`; status != 1 || !strings.Contains(errOut, want) {
			t.Errorf("status %d, stderr %q; want 1 and %q", status, errOut, want)
		}
		return
	}
	f, err := os.Open(applied)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	keys := map[string]int{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var l struct {
			Key    string `json:"key"`
			Offset int    `json:"offset"`
		}
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatalf("-applied line %q: %v", sc.Text(), err)
		}
		keys[l.Key]++
	}
	if len(keys) != 2 {
		var got []string
		for k, n := range keys {
			got = append(got, fmt.Sprintf("%+q ×%d", k, n))
		}
		slices.Sort(got)
		t.Errorf("-applied keys %s for the trace's keys \"\\xff\" and \"\\xfe\"; want two distinct keys, or the trace refused", strings.Join(got, ", "))
	}
}
