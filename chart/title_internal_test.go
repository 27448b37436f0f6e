package chart

import (
	"strings"
	"testing"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// A title wider than its picture is cut in its middle, around an ellipsis,
// to the most of its start and end that fit: a long trace's name keeps its
// folder's start and its file's end, where it was cut on both sides. A
// title that fits is left as it is, and so is the widest that fits.
func TestATitleFitsItsPicture(t *testing.T) {
	canvas := draw.New(vgimg.New(16*vg.Centimeter, 10*vg.Centimeter))
	for _, long := range []string{
		"schedule of /home/someone/traces/" + strings.Repeat("very-long-directory-name/", 8) + "orders-2024-05-01.csv under convoy",
		"schedule of " + strings.Repeat("x", 100_000) + ".csv", // a measure for each rune took minutes
	} {
		fitsCut(t, canvas, long)
	}
	short := newPlot("schedule of t.csv under convoy", "round", "consumer")
	fitTitle(short, canvas)
	if short.Title.Text != "schedule of t.csv under convoy" {
		t.Errorf("a title that fits became %q", short.Title.Text)
	}
}

// fitsCut checks that fitTitle cuts long, too wide for canvas, to the
// most of its start and end that fit.
func fitsCut(t *testing.T, canvas draw.Canvas, long string) {
	t.Helper()
	p := newPlot(long, "round", "consumer")
	fitTitle(p, canvas)
	room := canvas.Max.X - canvas.Min.X - 2*p.Title.Padding
	got := p.Title.Text
	if w := p.Title.TextStyle.Width(got); w > room || !strings.Contains(got, "…") {
		t.Fatalf("title %q, %v wide; want it cut with an ellipsis to within %v", got, w, room)
	}
	head, tail, _ := strings.Cut(got, "…")
	if !strings.HasPrefix(long, head) || !strings.HasSuffix(long, tail) || len(head) < 20 || len(tail) < 20 {
		t.Errorf("title %q; want the long title's start and end around the ellipsis", got)
	}
	// Keeping one rune more of the original, split as evenly, would not fit.
	r := []rune(long)
	more := len([]rune(head)) + len([]rune(tail)) + 1
	h := (more + 1) / 2
	if longer := string(r[:h]) + "…" + string(r[len(r)-(more-h):]); p.Title.TextStyle.Width(longer) <= room {
		t.Errorf("title %q fits with a rune more: the most that fits is kept", longer)
	}
}
