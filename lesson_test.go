package konvoy_test

import (
	"go/doc"
	"go/parser"
	"go/token"
	"os"
	"regexp"
	"slices"
	"strconv"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"
	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/lesson"
)

// The examples that reproduce the lesson's scripts claim their output is
// the scripts' own, byte for byte. go test checks each example's output
// against its // Output: block; this test checks the block against the
// lesson's printout, kept in testdata/lesson as the lesson printed it, so
// that a change of the code cannot carry the block along with it.
func TestLessonExamplesPrintTheLessonsPrintouts(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "examples_test.go", nil, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	outputs := map[string]string{}
	for _, ex := range doc.Examples(f) {
		outputs[ex.Name] = ex.Output
	}
	for name, file := range map[string]string{"_lessonMeasures": "olc.txt", "_lessonCapacity": "hesap.txt"} {
		want, err := os.ReadFile("testdata/lesson/" + file)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := outputs[name]
		if !ok {
			t.Errorf("examples_test.go has no Example%s", name)
			continue
		}
		if d := gocmp.Diff(string(want), got); d != "" {
			t.Errorf("Example%s's output block differs from the lesson's %s (-lesson +example):\n%s", name, file, d)
		}
	}
}

// The lesson package's events and statuses are the lesson's OLAY and ADIM,
// as its olay.mjs in testdata/lesson writes them.
func TestLessonEventsAreTheLessons(t *testing.T) {
	src, err := os.ReadFile("testdata/lesson/olay.mjs")
	if err != nil {
		t.Fatal(err)
	}
	var statuses []string
	for i, m := range regexp.MustCompile(`(\w+): (\d+)`).FindAllSubmatch(regexp.MustCompile(`ADIM = \{[^}]*\}`).Find(src), -1) {
		if n, _ := strconv.Atoi(string(m[2])); n != i+1 {
			t.Fatalf("ADIM lists %s as step %d; want %d", m[1], n, i+1)
		}
		statuses = append(statuses, string(m[1]))
	}
	var events []konvoy.Event
	for _, m := range regexp.MustCompile(`\["(TR-\d+)", "(H\d)", "(\w+)", (\d+)\]`).FindAllSubmatch(src, -1) {
		d, err := strconv.Atoi(string(m[4]))
		if err != nil {
			t.Fatal(err)
		}
		events = append(events, konvoy.Event{Key: string(m[1]), Line: string(m[2]), Step: slices.Index(statuses, string(m[3])) + 1, Duration: d})
	}
	if len(events) != 20 || len(statuses) != 4 {
		t.Fatalf("read %d events and %d statuses from olay.mjs; want 20 and 4", len(events), len(statuses))
	}
	if d := gocmp.Diff(statuses, lesson.Statuses()); d != "" {
		t.Errorf("statuses (-lesson +package):\n%s", d)
	}
	if d := gocmp.Diff(events, lesson.Events()); d != "" {
		t.Errorf("events (-lesson +package):\n%s", d)
	}
}
