package kafka_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestKafkaImportsOnlyTheStandardLibraryAndKonvoy: the commit metadata,
// all the package holds for now, needs nothing beyond the standard
// library; the Kafka client comes with the consumer.
func TestKafkaImportsOnlyTheStandardLibraryAndKonvoy(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs go list")
	}
	gotool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command:", err)
	}
	const pkg = "github.com/sirali-konvoy/konvoy/kafka"
	out, err := exec.Command(gotool, "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", pkg).CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, p := range strings.Fields(string(out)) {
		if p != "github.com/sirali-konvoy/konvoy" && !strings.HasPrefix(p, "github.com/sirali-konvoy/konvoy/") {
			t.Errorf("package kafka depends on %s; want the standard library and konvoy alone", p)
		}
	}
}
