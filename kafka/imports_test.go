package kafka_test

import (
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestKafkaImportsTheStandardLibraryKonvoyAndFranzGo: the package needs
// the standard library, konvoy's own packages and the Kafka client,
// franz-go, and nothing else; and the commit metadata (metadata.go),
// which other tools may want to read, needs the standard library alone.
func TestKafkaImportsTheStandardLibraryKonvoyAndFranzGo(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs go list")
	}
	gotool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command:", err)
	}
	const pkg = "github.com/sirali-konvoy/konvoy/kafka"
	out, err := exec.Command(gotool, "list", "-f", `{{join .Imports "\n"}}`, pkg).CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, p := range strings.Fields(string(out)) {
		if strings.Contains(strings.Split(p, "/")[0], ".") && !strings.HasPrefix(p, "github.com/sirali-konvoy/konvoy") &&
			!strings.HasPrefix(p, "github.com/twmb/franz-go/") {
			t.Errorf("package kafka imports %s; want the standard library, konvoy and franz-go alone", p)
		}
	}
	f, err := parser.ParseFile(token.NewFileSet(), "metadata.go", nil, parser.ImportsOnly)
	if err != nil {
		t.Fatal(err)
	}
	for _, spec := range f.Imports {
		if p, _ := strconv.Unquote(spec.Path.Value); strings.Contains(strings.Split(p, "/")[0], ".") {
			t.Errorf("metadata.go imports %s; want the standard library alone", p)
		}
	}
}

// TestRootAloneBringsNoOtherModule wants a program that imports only the
// root package, konvoy, to need nothing more in its go.sum than the root
// package's own tests do (go-cmp and rapid): not this package's Kafka
// client, nor the plotting or browser modules of the others. It tidies such a program offline, from the module
// cache that building these tests filled.
func TestRootAloneBringsNoOtherModule(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs go mod tidy")
	}
	gotool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command:", err)
	}
	root, err := exec.Command(gotool, "list", "-m", "-f", "{{.Dir}}").Output()
	if err != nil {
		t.Fatalf("go list -m: %v", err)
	}
	dir := t.TempDir()
	files := map[string]string{
		"go.mod": "module example.com/rootonly\n\ngo 1.26.0\n\nrequire github.com/sirali-konvoy/konvoy v0.0.0\n\n" +
			"replace github.com/sirali-konvoy/konvoy => " + strings.TrimSpace(string(root)) + "\n",
		"main.go": "package main\n\nimport \"github.com/sirali-konvoy/konvoy\"\n\nfunc main() { println(konvoy.Convoy.String()) }\n",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tidy := exec.Command(gotool, "mod", "tidy")
	tidy.Dir = dir
	tidy.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOSUMDB=off", "GOWORK=off")
	if out, err := tidy.CombinedOutput(); err != nil {
		t.Fatalf("go mod tidy: %v\n%s", err, out)
	}
	sum, err := os.ReadFile(filepath.Join(dir, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	modules := map[string]bool{}
	for _, line := range strings.Split(strings.TrimSpace(string(sum)), "\n") {
		if f := strings.Fields(line); len(f) > 0 {
			modules[f[0]] = true
		}
	}
	for m := range modules {
		if m != "github.com/google/go-cmp" && m != "pgregory.net/rapid" {
			t.Errorf("a program importing only the root package has %s in its go.sum; want go-cmp and rapid at most", m)
		}
	}
}
