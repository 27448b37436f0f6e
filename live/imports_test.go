package live_test

import (
	"slices"
	"testing"

	"github.com/sirali-konvoy/konvoy/internal/depstest"
)

// TestLiveImportsTheStandardLibraryAndKonvoy: issue 24 asks that package
// live depend on the standard library and konvoy, the root package, alone,
// so that a program running handlers brings in nothing else.
func TestLiveImportsTheStandardLibraryAndKonvoy(t *testing.T) {
	t.Parallel()
	got := depstest.NonStandard(t, "github.com/sirali-konvoy/konvoy/live")
	if want := []string{"github.com/sirali-konvoy/konvoy", "github.com/sirali-konvoy/konvoy/live"}; !slices.Equal(got, want) {
		t.Errorf("package live depends on %v; want the standard library and konvoy alone", got)
	}
}
