package konvoy_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestRootImportsOnlyTheStandardLibrary wants the model free of
// dependencies: a user who imports konvoy gets the standard library and
// nothing else (the readers, the generator and the pictures are packages of
// their own).
func TestRootImportsOnlyTheStandardLibrary(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs go list")
	}
	gotool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command:", err)
	}
	out, err := exec.Command(gotool, "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", "github.com/sirali-konvoy/konvoy").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	if got := strings.Fields(string(out)); len(got) != 1 || got[0] != "github.com/sirali-konvoy/konvoy" {
		t.Errorf("the root package depends on %v; want the standard library alone", got)
	}
}

// TestRootAloneBringsNoOtherModule wants a program that imports only the
// root package to need nothing more in its go.sum than the root package's
// own tests do (go-cmp and rapid): no Kafka client, no plotting, no
// browser driver. It tidies such a program offline, from the module
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
