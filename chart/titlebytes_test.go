package chart_test

import (
	"bytes"
	"encoding/xml"
	"strconv"
	"strings"
	"testing"

	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/chart"
)

// A schedule's title with bytes that are not UTF-8, as a trace's file
// name may have, is written the same way in the SVG's <title>, which
// screen readers and browsers' tooltips read, as in the picture: quoted,
// its bytes escaped, never with U+FFFD in their place (the <title> had the
// raw title, which XML escaping replaced: found by a review).
func TestAScheduleTitleNotUTF8ReadsTheSameInItsTitleElement(t *testing.T) {
	title := "a<b>&\"'\xff]]>.csv under convoy, 4 consumers"
	slots := []konvoy.Slot{{Key: "K", Consumer: 0, Start: 0, Finish: 1}}
	var b bytes.Buffer
	if err := chart.Schedule(&b, chart.SVG, title, slots, 1); err != nil {
		t.Fatal(err)
	}
	var inTitle bool
	var got string
	d := xml.NewDecoder(bytes.NewReader(b.Bytes()))
	for {
		tok, err := d.Token()
		if err != nil {
			break
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			inTitle = tok.Name.Local == "title"
		case xml.EndElement:
			inTitle = false
		case xml.CharData:
			if inTitle {
				got += string(tok)
			}
		}
	}
	if want := strconv.Quote(title); got != want || strings.ContainsRune(got, '\uFFFD') {
		t.Errorf("<title> %q; want %q, as the picture writes it", got, want)
	}
}
