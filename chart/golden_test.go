package chart_test

import (
	"bytes"
	"encoding/xml"
	"flag"
	"fmt"
	"image"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/chart"
	"github.com/sirali-konvoy/konvoy/lesson"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// picture is one golden picture: its file name without the extension, and
// the function that draws it.
type picture struct {
	name string
	draw func(w io.Writer, f chart.Format) error
}

// pictures returns the golden pictures, drawn from runs of the lesson's
// events.
func pictures(t testing.TB) []picture {
	work, rounds := lessonRounds(t)
	convoy, free := lessonSchedule(t, konvoy.Convoy), lessonSchedule(t, konvoy.Free)
	latency := lessonLatency(t)
	slo := syntheticSLO(t)
	return []picture{
		{"rounds-lesson", func(w io.Writer, f chart.Format) error {
			return chart.Rounds(w, f, work, rounds)
		}},
		{"schedule-convoy", func(w io.Writer, f chart.Format) error {
			return chart.Schedule(w, f, "The lesson under convoy, 4 consumers", convoy, lesson.Consumers)
		}},
		{"schedule-free", func(w io.Writer, f chart.Format) error {
			return chart.Schedule(w, f, "The lesson under free consumption, 4 consumers", free, lesson.Consumers)
		}},
		{"latency-lesson", func(w io.Writer, f chart.Format) error {
			return chart.Latency(w, f, latency)
		}},
		{"slo-synthetic", func(w io.Writer, f chart.Format) error {
			return chart.SLO(w, f, slo)
		}},
	}
}

// formats are the formats every picture is drawn in.
var formats = []chart.Format{chart.SVG, chart.PNG}

// TestGolden compares every picture with its golden file: an SVG byte for
// byte, a PNG pixel for pixel, so that a change in how a Go release
// compresses PNG does not fail it while a change in what is drawn does.
// Run with -update to rewrite the files.
func TestGolden(t *testing.T) {
	for _, pic := range pictures(t) {
		for _, f := range formats {
			name := fmt.Sprintf("%s.%v", pic.name, f)
			t.Run(name, func(t *testing.T) {
				var buf bytes.Buffer
				if err := pic.draw(&buf, f); err != nil {
					t.Fatal(err)
				}
				got := buf.Bytes()
				path := filepath.Join("testdata", name)
				if *update {
					if err := os.WriteFile(path, got, 0o644); err != nil {
						t.Fatal(err)
					}
				}
				want, err := os.ReadFile(path)
				if err != nil {
					t.Fatalf("%v (run go test -update to create it)", err)
				}
				if f == chart.SVG {
					if diff := cmp.Diff(string(want), string(got)); diff != "" {
						t.Errorf("%s differs (-want +got); run go test -update if the change is meant:\n%s", path, diff)
					}
					return
				}
				if msg := comparePNG(want, got); msg != "" {
					t.Errorf("%s differs: %s; run go test -update if the change is meant", path, msg)
				}
			})
		}
	}
}

// comparePNG returns "" when two PNG files hold the same pixels, or what
// differs.
func comparePNG(want, got []byte) string {
	w, err := png.Decode(bytes.NewReader(want))
	if err != nil {
		return fmt.Sprintf("golden file: %v", err)
	}
	g, err := png.Decode(bytes.NewReader(got))
	if err != nil {
		return fmt.Sprintf("output: %v", err)
	}
	if w.Bounds() != g.Bounds() {
		return fmt.Sprintf("size %v, want %v", g.Bounds().Size(), w.Bounds().Size())
	}
	b := w.Bounds()
	diff, first := 0, image.Point{}
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			wr, wg, wb, wa := w.At(x, y).RGBA()
			gr, gg, gb, ga := g.At(x, y).RGBA()
			if wr != gr || wg != gg || wb != gb || wa != ga {
				if diff == 0 {
					first = image.Pt(x, y)
				}
				diff++
			}
		}
	}
	if diff > 0 {
		return fmt.Sprintf("%d pixels differ, the first at %v", diff, first)
	}
	return ""
}

// TestSVGsSayWhatTheyShow checks that every SVG is well-formed XML whose
// root is an image with a title and a description as its first children,
// the title escaped however it is written: a page that shows the picture
// inline has it read by its name and description.
func TestSVGsSayWhatTheyShow(t *testing.T) {
	pics := append(pictures(t), picture{"hostile-title", func(w io.Writer, f chart.Format) error {
		return chart.Schedule(w, f, `<script>alert("x")</script> & more`, lessonSchedule(t, konvoy.Convoy), lesson.Consumers)
	}})
	for _, pic := range pics {
		var buf bytes.Buffer
		if err := pic.draw(&buf, chart.SVG); err != nil {
			t.Fatalf("%s: %v", pic.name, err)
		}
		var svg struct {
			Role  string `xml:"role,attr"`
			Title string `xml:"title"`
			Desc  string `xml:"desc"`
		}
		if err := xml.Unmarshal(buf.Bytes(), &svg); err != nil {
			t.Fatalf("%s: not well-formed: %v", pic.name, err)
		}
		if svg.Role != "img" || svg.Title == "" || len(svg.Desc) < 40 {
			t.Errorf("%s: role %q, title %q, desc %q; want img, a title and a description", pic.name, svg.Role, svg.Title, svg.Desc)
		}
		if pic.name == "hostile-title" && (svg.Title != `<script>alert("x")</script> & more` || bytes.Contains(buf.Bytes(), []byte("<script>"))) {
			t.Errorf("the title %q is not escaped as it should be", svg.Title)
		}
	}
}
