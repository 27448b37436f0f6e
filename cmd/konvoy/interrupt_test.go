package main

import (
	"os"
	"path/filepath"
	"testing"
)

// TestMain runs the command itself, main and all, when the test binary is
// started again with KONVOY_RUN_MAIN set: the way the interrupt tests get a
// process of their own to signal.
func TestMain(m *testing.M) {
	if os.Getenv("KONVOY_RUN_MAIN") == "1" {
		main()
		return
	}
	os.Exit(m.Run())
}

// A picture is written to a temporary file beside its place and renamed
// into it: nothing else is left in the directory.
func TestPicturesAreWrittenWhole(t *testing.T) {
	dir := t.TempDir()
	if err := writePictures(dir, []picture{{name: "a.svg", data: []byte("<svg/>")}}); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 || entries[0].Name() != "a.svg" {
		t.Fatalf("the directory holds %v; want a.svg alone", entries)
	}
	if got, err := os.ReadFile(filepath.Join(dir, "a.svg")); err != nil || string(got) != "<svg/>" {
		t.Fatalf("a.svg holds %q, %v", got, err)
	}
	if len(temps.paths) != 0 {
		t.Fatalf("temporary files still recorded: %v", temps.paths)
	}
}
