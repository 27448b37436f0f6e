package kafka_test

import (
	"go/parser"
	"go/token"
	"os/exec"
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
