package serve

import (
	"regexp"
	"strings"
	"testing"

	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/internal/runs"
)

// The lesson's page keeps to maxRuns as a trace's does: every layout and
// policy at 9 to 12 consumers make 84 runs, and 1 to 8 as well for the
// rounds picture would make 252, so the picture is drawn at 9 to 12 alone,
// as the page's note says. It made the 252 runs, drawing 1 to 12 beside
// the note that said it had not (found by a review).
func TestTheLessonsPageKeepsToTheRunsLimit(t *testing.T) {
	s := New(Config{Runs: func([]string) (runs.Options, error) {
		return runs.Options{Layouts: konvoy.AllLayouts(4), Policies: konvoy.Policies(), Consumers: []int{9, 10, 11, 12}}, nil
	}})
	body := get(t, s, "/?consumers=9,10,11,12").Body.String()
	if !strings.Contains(body, "drawn at the consumer counts asked for alone") {
		t.Fatal("the page has no note of the rounds picture's counts")
	}
	at := strings.Index(body, "<svg")
	if at < 0 {
		t.Fatal("the page has no picture")
	}
	svg := body[at:]
	svg = svg[:strings.Index(svg, "</svg>")]
	var labels []string
	for _, m := range regexp.MustCompile(`>([0-9]+)</text>`).FindAllStringSubmatch(svg, 5) {
		labels = append(labels, m[1])
	}
	if strings.Join(labels, " ") == "" || !strings.HasPrefix(strings.Join(labels, " "), "9 10 11 12 ") {
		t.Errorf("the rounds picture's first labels are %q; want the consumer counts 9 to 12 alone", labels)
	}
}
