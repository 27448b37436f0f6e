package chart_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestRootImportsNoPlotting wants the root package free of plotting code:
// the reason this package is a package of its own.
func TestRootImportsNoPlotting(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	gotool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command:", err)
	}
	out, err := exec.Command(gotool, "list", "-deps", "github.com/sirali-konvoy/konvoy").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, dep := range strings.Fields(string(out)) {
		if strings.HasPrefix(dep, "gonum.org/") || strings.Contains(dep, "/chart") {
			t.Errorf("the root package depends on %s", dep)
		}
	}
}
