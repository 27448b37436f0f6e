package live_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestLiveImportsTheStandardLibraryAndKonvoy: issue 24 asks that package
// live import only the standard library and konvoy, the root package, so
// that a program running handlers brings in nothing else.
func TestLiveImportsTheStandardLibraryAndKonvoy(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs go list")
	}
	gotool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command:", err)
	}
	out, err := exec.Command(gotool, "list", "-f", `{{join .Imports "\n"}}`, "github.com/sirali-konvoy/konvoy/live").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, p := range strings.Fields(string(out)) {
		if strings.Contains(strings.Split(p, "/")[0], ".") && p != "github.com/sirali-konvoy/konvoy" {
			t.Errorf("package live imports %s; want the standard library and konvoy alone", p)
		}
	}
}
