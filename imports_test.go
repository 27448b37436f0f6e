package konvoy_test

import (
	"os/exec"
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
