package chart_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/sirali-konvoy/konvoy/chart"
)

// TestRoundsBoundAtOneConsumerCount: with a single consumer count
// (konvoy -events T -consumers 2 -plot D), the bound work/consumers would
// be a point, and Rounds draws none; its SVG's description then does not
// speak of a dotted curve either.
func TestRoundsBoundAtOneConsumerCount(t *testing.T) {
	var b bytes.Buffer
	if err := chart.Rounds(&b, chart.SVG, 4, []chart.RoundsSeries{{Layout: "free", Consumers: []int{2}, Rounds: []int{2}}}); err != nil {
		t.Fatal(err)
	}
	desc := strings.Join(elementTexts(b.Bytes(), "desc"), "")
	var texts []string
	for _, t := range elementTexts(b.Bytes(), "text") {
		texts = append(texts, strings.TrimSpace(t))
	}
	drawn := strings.Contains(strings.Join(texts, "\n"), "work/consumers")
	if said := strings.Contains(desc, "dotted curve"); said != drawn {
		t.Errorf("the description says %q, but the bound's legend entry drawn: %v (texts %q)", desc, drawn, texts)
	}
	// A line of one point is described as the point, not as a line "from
	// 2 rounds at 2 consumers to 2 at 2" (found by a review).
	if want := "one line per layout: free 2 rounds at 2 consumers."; !strings.Contains(desc, want) {
		t.Errorf("the description says %q; want %q", desc, want)
	}
}
