package main

// TestServeControlsKeepAllLayouts: internal/serve's setControls says
// "all" layouts checks every box, "which names the same layouts", so that
// the controls submitted as they are ask for the view the page shows. For
// a trace with partitions, -layouts all names recorded too (recorded:6 for
// testdata/export.jsonl), which no box shows and no hidden field keeps:
// the form sends the seven boxes and the view loses its recorded column.

import "testing"

func TestServeControlsKeepAllLayouts(t *testing.T) {
	flags := []string{"-key=key", "-line=topic", "-status=payload.status", "-steps=new,paid,shipped,delivered",
		"-at=ts", "-at-format=unix-ms", "-unit=1ms", "-reorder=1s", "-duration-model=fixed:1"}
	checkControls(t, "../../testdata/export.jsonl", flags, "consumers=4&layouts=all")
}
