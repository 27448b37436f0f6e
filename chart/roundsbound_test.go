package chart_test

import (
	"bytes"
	"encoding/xml"
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
	var desc string
	var texts []string
	d := xml.NewDecoder(&b)
	in := ""
	for {
		tok, err := d.Token()
		if err != nil {
			break
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			in = tok.Name.Local
		case xml.EndElement:
			in = ""
		case xml.CharData:
			switch in {
			case "desc":
				desc += string(tok)
			case "text":
				texts = append(texts, strings.TrimSpace(string(tok)))
			}
		}
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
