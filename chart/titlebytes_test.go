package chart_test

import (
	"bytes"
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
	got := strings.Join(elementTexts(b.Bytes(), "title"), "")
	if want := strconv.Quote(title); got != want || strings.ContainsRune(got, '\uFFFD') {
		t.Errorf("<title> %q; want %q, as the picture writes it", got, want)
	}
}
