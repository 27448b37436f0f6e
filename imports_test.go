package konvoy_test

import (
	"testing"

	"github.com/sirali-konvoy/konvoy/internal/depstest"
)

// TestRootImportsOnlyTheStandardLibrary wants the model free of
// dependencies: a user who imports konvoy gets the standard library and
// nothing else (the readers, the generator and the pictures are packages of
// their own).
func TestRootImportsOnlyTheStandardLibrary(t *testing.T) {
	t.Parallel()
	if got := depstest.NonStandard(t, "github.com/sirali-konvoy/konvoy"); len(got) != 1 || got[0] != "github.com/sirali-konvoy/konvoy" {
		t.Errorf("the root package depends on %v; want the standard library alone", got)
	}
}
