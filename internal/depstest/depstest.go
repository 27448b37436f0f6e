// Package depstest holds what the tests of several packages need to check
// what a package depends on.
package depstest

import (
	"os/exec"
	"strings"
	"testing"
)

// NonStandard returns the packages outside the standard library that pkg
// depends on, pkg itself among them, as go list -deps finds them. It skips
// the test under -short, and where there is no go command, and fails it
// when go list does.
func NonStandard(t *testing.T, pkg string) []string {
	t.Helper()
	if testing.Short() {
		t.Skip("runs go list")
	}
	gotool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command:", err)
	}
	out, err := exec.Command(gotool, "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", pkg).CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	return strings.Fields(string(out))
}
