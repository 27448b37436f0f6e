package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/google/go-cmp/cmp"
)

// readmeMaxBytes is the most README.md may hold: it is the front door, and
// the guides in docs/ hold the rest.
const readmeMaxBytes = 20_000

// docFile is README.md or one of the guides in docs/, by its path from the
// repository's root.
type docFile struct{ path, text string }

// docFiles returns README.md and the guides, docs/*.md, in that order.
func docFiles(t *testing.T) []docFile {
	t.Helper()
	guides, err := filepath.Glob("../../docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	var files []docFile
	for _, name := range append([]string{"README.md"}, guides...) {
		name = strings.TrimPrefix(filepath.ToSlash(name), "../../")
		text, err := os.ReadFile(filepath.Join("..", "..", filepath.FromSlash(name)))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, docFile{name, string(text)})
	}
	if len(files) < 2 {
		t.Fatal("docs/ holds no guide")
	}
	return files
}

// docBlock is what a file shows after a line, up to the end of its code
// block or the next command ("$ ...") in it.
type docBlock struct{ path, text string }

// docBlocks returns what README.md and the guides show after each line
// after, wherever it stands, and fails when none shows the line.
func docBlocks(t *testing.T, after string) []docBlock {
	t.Helper()
	var blocks []docBlock
	for _, f := range docFiles(t) {
		s := f.text
		for {
			i := strings.Index(s, after+"\n")
			if i < 0 {
				break
			}
			s = s[i+len(after)+1:]
			block := s
			if i = strings.Index(block, "```"); i >= 0 {
				block = block[:i]
			}
			if i = strings.Index(block, "\n$ "); i >= 0 {
				block = block[:i+1]
			}
			blocks = append(blocks, docBlock{f.path, block})
		}
	}
	if len(blocks) == 0 {
		t.Fatalf("neither README.md nor a guide in docs/ has the line %q", after)
	}
	return blocks
}

// TestReadmeShowsRealOutput wants the outputs README.md and the guides in
// docs/ show to be what the command prints today, and every command shown
// with its output ("$ ...") to be one of those checked.
func TestReadmeShowsRealOutput(t *testing.T) {
	lesson, _, _ := runCommand()
	latency, _, _ := runCommand("-events", "testdata/arrivals.csv", "-layouts", "convoy,line-convoy,partitioned", "-partitions", "3", "-policy", "all")
	latency = latency[strings.Index(latency, "\nlatency")+1:]
	json, _, _ := runCommand(withStatuses("-events", "testdata/shipments.csv", "-layouts", "free,convoy", "-consumers", "4,8", "-format", "json")...)
	shipments, _, _ := runCommand(withStatuses("-events", "testdata/shipments.csv")...)
	shipments = strings.Replace(shipments, "testdata/shipments.csv", "cmd/konvoy/testdata/shipments.csv", 1)
	shipmentsCSV, err := os.ReadFile("testdata/shipments.csv")
	if err != nil {
		t.Fatal(err)
	}
	// The file starts with a byte-order mark and ends its lines with CRLF,
	// as spreadsheets write them; head shows neither on a terminal.
	shownCSV := strings.ReplaceAll(strings.TrimPrefix(string(shipmentsCSV), "\ufeff"), "\r\n", "\n")
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
	replayed, _, _ := runCommand("replay", "-events", "testdata/arrivals.csv", "-policy", "head-of-line")
	var cut strings.Builder // | sed -n 2,14p | cut -c1-35: the measures and the prediction, which the machine does not change
	for _, line := range strings.Split(replayed, "\n")[1:14] {
		cut.WriteString(line[:min(len(line), 35)] + "\n")
	}
	replayed = cut.String()
	groupRange, _, _ := runCommand("-events", "testdata/arrivals.csv", "-layouts", "partitioned:8",
		"-consumers", "3", "-policy", "static", "-assignor", "range")
	groupRoundRobin, _, _ := runCommand("-events", "testdata/arrivals.csv", "-layouts", "partitioned:8,convoy",
		"-consumers", "3", "-policy", "static,lane-aware", "-assignor", "round-robin")
	checked := []struct{ after, want string }{
		{"    | sed -n 2,14p | cut -c1-35", replayed},
		{"$ go run ./cmd/konvoy plan", plan},
		{"$ go run ./cmd/konvoy plan | head -11", firstLines(plan, 11)},
		{"    -layouts free,convoy,partitioned:16,partitioned:64 -policy head-of-line,lane-aware -plot docs | sed -n '/^latency objective/,/^$/p'", slo},
		{"    -duration-model lognormal:5,0.5 -layouts recorded,convoy,partitioned:12 -policy static", export},
		{"$ go run ./cmd/konvoy", lesson},
		{"    -layouts convoy,line-convoy,partitioned -partitions 3 -policy all | sed -n '/^latency/,$p'", latency},
		{"$ head -3 cmd/konvoy/testdata/shipments.csv", firstLines(shownCSV, 3)},
		{"    -steps accepted,transfer,out-for-delivery,delivered -history scanned,weighed", shipments},
		{"    -layouts free,convoy -consumers 4,8 -format json", json},
		{"go run ./cmd/konvoy gen -events 100000 -keys 20000 | go run ./cmd/konvoy -events - -layouts all\n```\n\n```", all},
		{"    -consumers 3 -policy static -assignor range | sed -n '/^latency/,/static/p'",
			sedPrint(groupRange, regexp.MustCompile(`^latency`), regexp.MustCompile(`static`))},
		{"    -consumers 3 -policy static,lane-aware -assignor round-robin | sed -n '/^latency/,/^wait/p'",
			sedPrint(groupRoundRobin, regexp.MustCompile(`^latency`), regexp.MustCompile(`^wait`))},
	}
	for _, tt := range checked {
		for _, b := range docBlocks(t, tt.after) {
			if d := cmp.Diff(tt.want, b.text); d != "" {
				t.Errorf("%s after %q differs from the output (-output +%s):\n%s", b.path, tt.after, b.path, d)
			}
		}
	}
	for _, f := range docFiles(t) {
		for _, last := range shownCommands(f.text) {
			if !slices.ContainsFunc(checked, func(c struct{ after, want string }) bool { return c.after == last }) {
				t.Errorf("%s shows the output of a command ending %q, which no test checks; add it to TestReadmeShowsRealOutput", f.path, last)
			}
		}
	}
}

// sedPrint returns the lines of s that sed -n '/start/,/end/p' prints:
// from each line start matches to the next line after it that end
// matches, both printed.
func sedPrint(s string, start, end *regexp.Regexp) string {
	var out strings.Builder
	in := false
	for _, line := range strings.SplitAfter(s, "\n") {
		text := strings.TrimSuffix(line, "\n")
		switch {
		case in:
			out.WriteString(line)
			in = !end.MatchString(text)
		case start.MatchString(text):
			out.WriteString(line)
			in = true
		}
	}
	return out.String()
}

// firstLines returns the first n lines of s, as head -n prints them.
func firstLines(s string, n int) string {
	i := 0
	for ; n > 0 && i < len(s); n-- {
		j := strings.IndexByte(s[i:], '\n')
		if j < 0 {
			return s
		}
		i += j + 1
	}
	return s[:i]
}

// shownCommands returns the last line of every command a code block in
// text shows as typed ("$ ..." and its lines continued with a backslash).
func shownCommands(text string) []string {
	var lasts []string
	inBlock, inCommand := false, false
	for _, line := range strings.Split(text, "\n") {
		switch {
		case strings.HasPrefix(line, "```"):
			inBlock, inCommand = !inBlock, false
			continue
		case !inBlock:
			continue
		case strings.HasPrefix(line, "$ "):
			inCommand = true
		case !inCommand:
			continue
		}
		if !strings.HasSuffix(line, "\\") {
			lasts = append(lasts, line)
			inCommand = false
		}
	}
	return lasts
}

func TestShownCommands(t *testing.T) {
	text := "$ outside\n```\n$ a \\\n    b\nout \\\n$ c\nout\n```\n```sh\nd\n```\n"
	if got, want := shownCommands(text), []string{"    b", "$ c"}; !slices.Equal(got, want) {
		t.Errorf("shownCommands = %q; want %q", got, want)
	}
	if got := firstLines("a\nb\nc\n", 2); got != "a\nb\n" {
		t.Errorf("firstLines(_, 2) = %q", got)
	}
	if got := firstLines("a\nb", 3); got != "a\nb" {
		t.Errorf("firstLines of a shorter text = %q", got)
	}
	// sed checks the end from the line after the start, and starts again.
	got := sedPrint("x\nab\nb\nc\na\nc\n", regexp.MustCompile(`^a`), regexp.MustCompile(`b`))
	if want := "ab\nb\na\nc\n"; got != want {
		t.Errorf("sedPrint = %q; want %q", got, want)
	}
}

// TestReadmePictures wants README.md or a guide to name the command that
// regenerates the pictures, in a code block of its own, and every picture
// they show from docs/ to be one that command, or the latency plan's
// (sloDocsArgs), draws there.
func TestReadmePictures(t *testing.T) {
	for _, b := range docBlocks(t, "```sh"+"\n"+docsCommand) {
		if b.text != "" {
			t.Errorf("%s: want %q alone in its code block; it goes on with %q", b.path, docsCommand, b.text)
		}
	}
	_, drawn := plotted(t, "")
	_, slo := plotted(t, "", sloDocsArgs...)
	drawn = append(drawn, slo...)
	var shown []string
	for _, f := range docFiles(t) {
		for _, m := range regexp.MustCompile(`!\[[^\]]*\]\(([^)]+)\)`).FindAllStringSubmatch(f.text, -1) {
			p := path.Join(path.Dir(f.path), m[1])
			name, ok := strings.CutPrefix(p, "docs/")
			if !ok || strings.Contains(name, "/") {
				t.Errorf("%s shows %s, which is not in docs/", f.path, m[1])
				continue
			}
			if _, err := os.Stat(filepath.Join("..", "..", "docs", name)); err != nil {
				t.Errorf("%s shows %s: %v", f.path, m[1], err)
			}
			// docs/serve.png, konvoy serve's page, is the screenshot its
			// browser test takes (go test -tags browser ./internal/serve -update).
			if name == "serve.png" {
				continue
			}
			if !slices.Contains(drawn, name) {
				t.Errorf("%s shows docs/%s, which %s does not draw", f.path, name, docsCommand)
			}
			if !slices.Contains(shown, name) {
				shown = append(shown, name)
			}
		}
	}
	if len(shown) != 4 {
		t.Errorf("README.md and the guides show %d pictures drawn into docs/ (%v); want the lesson's 3 and the latency plan's", len(shown), shown)
	}
	readme := docFiles(t)[0].text
	if !strings.Contains(readme, "](docs/serve.png)") {
		t.Error("README.md does not show docs/serve.png, the page")
	}
}

// readmeGroupProgram is the program README.md shows under "A Kafka
// consumer group", kept where go build ./... and go vet ./... compile it.
const readmeGroupProgram = "../../kafka/internal/readmegroup/main.go"

// TestReadmeKafkaProgramIsBuilt wants the Go program README.md shows (its
// only code block that starts "package main") to be readmeGroupProgram,
// byte for byte, so that it cannot stop compiling unseen.
func TestReadmeKafkaProgramIsBuilt(t *testing.T) {
	built, err := os.ReadFile(readmeGroupProgram)
	if err != nil {
		t.Fatal(err)
	}
	blocks := docBlocks(t, "```go\npackage main")
	if len(blocks) != 1 || blocks[0].path != "README.md" {
		t.Fatalf("README.md and the guides show %d programs (%v); want one, in README.md", len(blocks), blocks)
	}
	if d := cmp.Diff(string(built), "package main\n"+blocks[0].text); d != "" {
		t.Errorf("README.md's program differs from %s (-built +README.md):\n%s", readmeGroupProgram, d)
	}
}

// TestReadmeIsTheFrontDoor wants README.md short, its two commands those a
// newcomer needs and nothing else, and every guide in docs/ linked from it.
func TestReadmeIsTheFrontDoor(t *testing.T) {
	files := docFiles(t)
	readme := files[0].text
	if len(readme) > readmeMaxBytes {
		t.Errorf("README.md holds %d bytes; want at most %d: move detail into a guide in docs/", len(readme), readmeMaxBytes)
	}
	var commands []string
	for _, b := range docBlocks(t, "## Two commands\n\n```sh") {
		for _, line := range strings.Split(strings.TrimSuffix(b.text, "\n"), "\n") {
			command, _, _ := strings.Cut(line, "#")
			commands = append(commands, strings.TrimSpace(command))
		}
	}
	if want := []string{"go run ./cmd/konvoy", "go test ./..."}; !slices.Equal(commands, want) {
		t.Errorf("README.md's two commands are %q; want %q", commands, want)
	}
	for _, f := range files[1:] {
		if !strings.Contains(readme, "]("+f.path+")") {
			t.Errorf("README.md does not link %s", f.path)
		}
	}
}

// TestDocsLinks wants every relative link in README.md and the guides to
// name a file that exists and, after a #, a heading in it.
func TestDocsLinks(t *testing.T) {
	files := docFiles(t)
	anchors := map[string][]string{}
	for _, f := range files {
		anchors[f.path] = headingAnchors(f.text)
	}
	for _, f := range files {
		for _, m := range regexp.MustCompile(`\]\(([^)]+)\)`).FindAllStringSubmatch(f.text, -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			file, anchor, _ := strings.Cut(target, "#")
			p := f.path
			if file != "" {
				p = path.Join(path.Dir(f.path), file)
				if _, err := os.Stat(filepath.Join("..", "..", filepath.FromSlash(p))); err != nil {
					t.Errorf("%s links %s: %v", f.path, target, err)
					continue
				}
			}
			if anchor == "" {
				continue
			}
			if have, ok := anchors[p]; !ok || !slices.Contains(have, anchor) {
				t.Errorf("%s links %s: %s has no heading whose anchor is #%s", f.path, target, p, anchor)
			}
		}
	}
}

// headingAnchors returns the anchors GitHub gives the headings of a
// Markdown text outside its code blocks: lower case, spaces as hyphens,
// other punctuation dropped.
func headingAnchors(text string) []string {
	var anchors []string
	inBlock := false
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(line, "```") {
			inBlock = !inBlock
		}
		if inBlock || !strings.HasPrefix(line, "#") {
			continue
		}
		heading := strings.TrimSpace(strings.TrimLeft(line, "#"))
		anchors = append(anchors, strings.Map(func(r rune) rune {
			switch {
			case r == ' ':
				return '-'
			case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
				return unicode.ToLower(r)
			}
			return -1
		}, heading))
	}
	return anchors
}

func TestHeadingAnchors(t *testing.T) {
	got := headingAnchors("# konvoy — scale\n```\n# not a heading\n```\n## Limits, bad input and interrupts\n### Sweeps: many runs over one trace\n")
	want := []string{"konvoy--scale", "limits-bad-input-and-interrupts", "sweeps-many-runs-over-one-trace"}
	if !slices.Equal(got, want) {
		t.Errorf("headingAnchors = %q; want %q", got, want)
	}
}

// TestDocsNameRealAPI wants every qualified name README.md and the guides
// mention from konvoy's packages (konvoy.Sweep, synth.Default) to be
// declared there, so that a renamed or removed name cannot linger in them.
func TestDocsNameRealAPI(t *testing.T) {
	declared := map[string][]string{}
	for pkg, dir := range map[string]string{"konvoy": "../..", "eventlog": "../../eventlog", "synth": "../../synth", "lesson": "../../lesson", "chart": "../../chart", "live": "../../live", "kafka": "../../kafka"} {
		declared[pkg] = exportedNames(t, dir)
	}
	named := regexp.MustCompile(`\b(konvoy|eventlog|synth|lesson|chart|live|kafka)\.([A-Z][A-Za-z0-9_]*)`)
	count := 0
	for _, f := range docFiles(t) {
		for _, m := range named.FindAllStringSubmatch(f.text, -1) {
			count++
			if !slices.Contains(declared[m[1]], m[2]) {
				t.Errorf("%s names %s.%s, which package %s does not declare", f.path, m[1], m[2], m[1])
			}
		}
	}
	if count == 0 {
		t.Error("README.md and the guides name nothing from konvoy's packages; is the pattern wrong?")
	}
}

// exportedNames returns the exported names declared at the top level of
// the package in dir, its tests left out.
func exportedNames(t *testing.T, dir string) []string {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range paths {
		if strings.HasSuffix(p, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(token.NewFileSet(), p, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, decl := range file.Decls {
			names = append(names, declNames(decl)...)
		}
	}
	if len(names) == 0 {
		t.Fatalf("%s declares no exported name", dir)
	}
	return names
}

// declNames returns the exported names a top-level declaration declares:
// a function (not a method), types, constants and variables.
func declNames(decl ast.Decl) []string {
	var names []string
	switch d := decl.(type) {
	case *ast.FuncDecl:
		if d.Recv == nil && d.Name.IsExported() {
			names = append(names, d.Name.Name)
		}
	case *ast.GenDecl:
		for _, spec := range d.Specs {
			switch s := spec.(type) {
			case *ast.TypeSpec:
				if s.Name.IsExported() {
					names = append(names, s.Name.Name)
				}
			case *ast.ValueSpec:
				for _, n := range s.Names {
					if n.IsExported() {
						names = append(names, n.Name)
					}
				}
			}
		}
	}
	return names
}
