package chart_test

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"testing"

	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/chart"
)

// wellFormed returns the first XML error of svg, or nil.
func wellFormed(svg []byte) error {
	d := xml.NewDecoder(bytes.NewReader(svg))
	for {
		_, err := d.Token()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// elementTexts returns the text of each element named name in svg, in
// order, as an XML reader decodes it; it stops at the first XML error.
func elementTexts(svg []byte, name string) []string {
	var texts []string
	in := false
	d := xml.NewDecoder(bytes.NewReader(svg))
	for {
		tok, err := d.Token()
		if err != nil {
			return texts
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			if in = tok.Name.Local == name; in {
				texts = append(texts, "")
			}
		case xml.EndElement:
			in = false
		case xml.CharData:
			if in {
				texts[len(texts)-1] += string(tok)
			}
		}
	}
}

// TestSVGIsWellFormedForAnyName: Rounds, Latency and SLO take any layout
// name that is not empty or repeated, and Schedule any title (the command's
// holds the trace file's name); one holding a control character or bytes
// that are not UTF-8 is drawn quoted, as keys are, wherever the picture
// draws it (a series' legend entry, and the "<layout> ceiling" entry of
// Rounds too), so that the SVG is well-formed: XML forbids such characters,
// and a browser shows a parse error instead of the picture.
func TestSVGIsWellFormedForAnyName(t *testing.T) {
	for _, name := range []string{"x\x01y", "c\xff", "e\x1b[31m"} {
		draws := map[string]func(w io.Writer) error{
			"Rounds": func(w io.Writer) error {
				return chart.Rounds(w, chart.SVG, 4, []chart.RoundsSeries{{Layout: name, Consumers: []int{1, 2}, Rounds: []int{4, 2}}})
			},
			"Rounds ceiling": func(w io.Writer) error {
				return chart.Rounds(w, chart.SVG, 10, []chart.RoundsSeries{{Layout: name, Consumers: []int{1, 2}, Rounds: []int{10, 6}, HeaviestLane: 5}})
			},
			"Latency": func(w io.Writer) error {
				return chart.Latency(w, chart.SVG, []chart.LatencySeries{{Layout: name, Slots: []konvoy.Slot{{Finish: 1}}}})
			},
			"SLO": func(w io.Writer) error {
				return chart.SLO(w, chart.SVG, &chart.SLOPicture{Percentile: 95, Target: 2,
					Series: []chart.SLOSeries{{Layout: name, Consumers: []int{1, 2}, Rounds: []int{4, 2}}}})
			},
			"Schedule title": func(w io.Writer) error {
				return chart.Schedule(w, chart.SVG, name, []konvoy.Slot{{Key: "a", Finish: 1}}, 1)
			},
		}
		for _, fn := range []string{"Rounds", "Rounds ceiling", "Latency", "SLO", "Schedule title"} {
			var b bytes.Buffer
			if err := draws[fn](&b); err != nil {
				if b.Len() > 0 {
					t.Errorf("%s %q: an error, %v, but %d bytes written", fn, name, err, b.Len())
				}
				continue
			}
			if err := wellFormed(b.Bytes()); err != nil {
				t.Errorf("%s, name %q: the SVG is not well-formed XML: %v", fn, name, err)
			}
		}
	}
}
