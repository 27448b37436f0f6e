package main

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// readmeBlock returns the text of README.md that follows the line after, up
// to the end of its code block.
func readmeBlock(t *testing.T, after string) string {
	t.Helper()
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	s := string(readme)
	i := strings.Index(s, after+"\n")
	if i < 0 {
		t.Fatalf("README.md has no line %q", after)
	}
	s = s[i+len(after)+1:]
	if i = strings.Index(s, "```"); i >= 0 {
		s = s[:i]
	}
	return s
}

// TestReadmeShowsRealOutput wants the outputs README.md shows to be what
// the command prints today.
func TestReadmeShowsRealOutput(t *testing.T) {
	lesson, _, _ := runCommand()
	latency, _, _ := runCommand("-events", "testdata/arrivals.csv", "-layouts", "convoy,line-convoy,partitioned", "-partitions", "3", "-policy", "all")
	latency = latency[strings.Index(latency, "\nlatency")+1:]
	json, _, _ := runCommand(withStatuses("-events", "testdata/shipments.csv", "-layouts", "free,convoy", "-consumers", "4,8", "-format", "json")...)
	trace, _, _ := runCommand("gen", "-events", "100000", "-keys", "20000")
	all, _, _ := runWithInput(trace, "-events", "-", "-layouts", "all")
	plan, _, _ := runCommand("plan")
	export, _, _ := runCommand("-events", "../../testdata/export.jsonl", "-key", "key", "-status", "payload.status",
		"-steps", "new,paid,shipped,delivered", "-at", "ts", "-at-format", "unix-ms", "-unit", "1ms", "-reorder", "1s",
		"-duration-model", "lognormal:5,0.5", "-layouts", "recorded,convoy,partitioned:12", "-policy", "static")
	export = strings.ReplaceAll(export, "../../testdata/", "testdata/")
	slo, _, _ := runCommand("plan", "-events", "testdata/slo.csv", "-slo", "p99=200ms", "-max-consumers", "32",
		"-layouts", "free,convoy,partitioned:16,partitioned:64", "-policy", "head-of-line,lane-aware")
	slo = slo[strings.Index(slo, "\nlatency objective")+1:]
	slo = slo[:strings.Index(slo, "\n\n")+1]
	for _, tt := range []struct{ after, want string }{
		{"$ go run ./cmd/konvoy plan", plan},
		{"    -layouts free,convoy,partitioned:16,partitioned:64 -policy head-of-line,lane-aware -plot docs | sed -n '/^latency objective/,/^$/p'", slo},
		{"    -duration-model lognormal:5,0.5 -layouts recorded,convoy,partitioned:12 -policy static", export},
		{"$ go run ./cmd/konvoy", lesson},
		{"    -layouts convoy,line-convoy,partitioned -partitions 3 -policy all | sed -n '/^latency/,$p'", latency},
		{"    -layouts free,convoy -consumers 4,8 -format json", json},
		{"go run ./cmd/konvoy gen -events 100000 -keys 20000 | go run ./cmd/konvoy -events - -layouts all\n```\n\n```", all},
	} {
		if d := cmp.Diff(tt.want, readmeBlock(t, tt.after)); d != "" {
			t.Errorf("README.md after %q differs from the output (-output +README):\n%s", tt.after, d)
		}
	}
}

// TestReadmePictures wants README.md to name the command that regenerates
// its pictures, in a code block of its own, and every picture it shows to
// be one that command, or the latency plan's (sloDocsArgs), draws into
// docs/.
func TestReadmePictures(t *testing.T) {
	if got := readmeBlock(t, "```sh"+"\n"+docsCommand); got != "" {
		t.Errorf("README.md: want %q alone in its code block; it goes on with %q", docsCommand, got)
	}
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, drawn := plotted(t, "")
	_, slo := plotted(t, "", sloDocsArgs...)
	drawn = append(drawn, slo...)
	shown := regexp.MustCompile(`!\[[^\]]*\]\(docs/([^)]+)\)`).FindAllStringSubmatch(string(readme), -1)
	// docs/serve.png, konvoy serve's page, is the screenshot its browser
	// test takes (go test -tags browser ./internal/serve -update).
	shown = slices.DeleteFunc(shown, func(m []string) bool { return m[1] == "serve.png" })
	if _, err := os.Stat("../../docs/serve.png"); err != nil || !strings.Contains(string(readme), "](docs/serve.png)") {
		t.Errorf("README.md shows no docs/serve.png, or it is missing: %v", err)
	}
	if len(shown) != 4 {
		t.Errorf("README.md shows %d pictures from docs/; want the lesson's 3 and the latency plan's", len(shown))
	}
	for _, m := range shown {
		name := m[1]
		if !slices.Contains(drawn, name) {
			t.Errorf("README.md shows docs/%s, which %s does not draw", name, docsCommand)
		}
		if _, err := os.Stat(filepath.Join("..", "..", "docs", name)); err != nil {
			t.Errorf("README.md shows docs/%s: %v", name, err)
		}
	}
}
