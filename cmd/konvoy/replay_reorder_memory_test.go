package main

import (
	"bufio"
	"compress/gzip"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A -reorder window that outgrows what its reader may hold stops the
// replay with advice in konvoy replay's own flags: narrow -reorder, not
// raise -max-memory, a flag replay does not have. The trace is 34,000
// events of a 4 KiB key and a 4 KiB line, all arriving at 0 and so all
// held by a window of an hour, kept small on disk by gzip; the window
// gives up at 256 MiB, before it runs.
func TestReplayReorderWindowErrorNamesReplaysFlags(t *testing.T) {
	path := filepath.Join(t.TempDir(), "wide.csv.gz")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	zw, _ := gzip.NewWriterLevel(f, gzip.BestSpeed)
	w := bufio.NewWriter(zw)
	key, line := strings.Repeat("k", 4000), strings.Repeat("l", 4000)
	w.WriteString("key,line,step,duration,at\n")
	for range 34_000 {
		w.WriteString(key + "," + line + ",0,1,0\n")
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	out, errOut, status := runCommand("replay", "-events", path, "-reorder", "1h")
	if status == 0 || out != "" {
		t.Fatalf("status %d, stdout %q, stderr %q; want the window's error", status, out, errOut)
	}
	if !strings.Contains(errOut, "-reorder") {
		t.Fatalf("stderr %q; want the -reorder window's error", errOut)
	}
	if strings.Contains(errOut, "-max-memory") {
		t.Errorf("stderr %q names -max-memory, a flag konvoy replay does not have", errOut)
	}
}
