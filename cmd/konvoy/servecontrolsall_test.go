package main

// TestServeControlsKeepAllLayouts: for a trace that records partitions,
// -layouts all runs recorded too (recorded:6 for testdata/export.jsonl),
// after the seven layouts the page has boxes for. The page offers such a
// trace a box for recorded, and all checks it with the seven, so that the
// form, submitted as it is, keeps the view's recorded column.

import "testing"

func TestServeControlsKeepAllLayouts(t *testing.T) {
	flags := []string{"-key=key", "-line=topic", "-status=payload.status", "-steps=new,paid,shipped,delivered",
		"-at=ts", "-at-format=unix-ms", "-unit=1ms", "-reorder=1s", "-duration-model=fixed:1"}
	checkControls(t, "../../testdata/export.jsonl", flags, "consumers=4&layouts=all")
}
