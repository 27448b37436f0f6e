package chart_test

import (
	"bytes"
	"errors"
	"image/png"
	"io"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/chart"
)

// TestErrors calls each function with bad input and wants an error that
// says what is wrong, and nothing written.
func TestErrors(t *testing.T) {
	work, rounds := lessonRounds(t)
	slots := lessonSchedule(t, konvoy.Convoy)
	latency := lessonLatency(t)

	withRounds := func(edit func(s []chart.RoundsSeries)) []chart.RoundsSeries {
		s := make([]chart.RoundsSeries, len(rounds))
		for i, r := range rounds {
			r.Consumers, r.Rounds = append([]int(nil), r.Consumers...), append([]int(nil), r.Rounds...)
			s[i] = r
		}
		edit(s)
		return s
	}
	withSlots := func(edit func(s []konvoy.Slot)) []konvoy.Slot {
		s := append([]konvoy.Slot(nil), slots...)
		edit(s)
		return s
	}
	slo := syntheticSLO(t)
	withSLO := func(edit func(p *chart.SLOPicture)) *chart.SLOPicture {
		p := *slo
		p.Series = nil
		for _, s := range slo.Series {
			s.Consumers, s.Rounds = slices.Clone(s.Consumers), slices.Clone(s.Rounds)
			p.Series = append(p.Series, s)
		}
		edit(&p)
		return &p
	}
	withLatency := func(edit func(s []chart.LatencySeries)) []chart.LatencySeries {
		s := make([]chart.LatencySeries, len(latency))
		for i, l := range latency {
			l.Slots = append([]konvoy.Slot(nil), l.Slots...)
			s[i] = l
		}
		edit(s)
		return s
	}

	tests := []struct {
		name string
		draw func(w io.Writer) error
		want string
	}{
		{"rounds no series", func(w io.Writer) error { return chart.Rounds(w, chart.SVG, work, nil) }, "0 series: want 1 to 12"},
		{"rounds too many series", func(w io.Writer) error {
			return chart.Rounds(w, chart.SVG, work, slices.Repeat(rounds, 5))
		}, "15 series: want 1 to 12"},
		{"rounds negative work", func(w io.Writer) error { return chart.Rounds(w, chart.SVG, -1, rounds) }, "work -1"},
		{"rounds no name", func(w io.Writer) error {
			return chart.Rounds(w, chart.SVG, work, withRounds(func(s []chart.RoundsSeries) { s[1].Layout = "" }))
		}, "series 1: empty Layout"},
		{"rounds name twice", func(w io.Writer) error {
			return chart.Rounds(w, chart.SVG, work, withRounds(func(s []chart.RoundsSeries) { s[1].Layout = "free" }))
		}, `Layout "free" appears twice`},
		{"rounds no points", func(w io.Writer) error {
			return chart.Rounds(w, chart.SVG, work, withRounds(func(s []chart.RoundsSeries) { s[0].Consumers, s[0].Rounds = nil, nil }))
		}, `series "free": no points`},
		{"rounds mismatched lengths", func(w io.Writer) error {
			return chart.Rounds(w, chart.SVG, work, withRounds(func(s []chart.RoundsSeries) { s[2].Rounds = s[2].Rounds[:3] }))
		}, `series "line-convoy": 8 consumer counts but 3 rounds`},
		{"rounds zero consumers", func(w io.Writer) error {
			return chart.Rounds(w, chart.SVG, work, withRounds(func(s []chart.RoundsSeries) { s[0].Consumers[0] = 0 }))
		}, "Consumers[0] = 0"},
		{"rounds consumers not rising", func(w io.Writer) error {
			return chart.Rounds(w, chart.SVG, work, withRounds(func(s []chart.RoundsSeries) { s[0].Consumers[3] = 3 }))
		}, "Consumers[3] = 3 after 3: want rising"},
		{"rounds negative rounds", func(w io.Writer) error {
			return chart.Rounds(w, chart.SVG, 0, withRounds(func(s []chart.RoundsSeries) { s[0].Rounds[2] = -4 }))
		}, "Rounds[2] = -4"},
		{"rounds negative heaviest lane", func(w io.Writer) error {
			return chart.Rounds(w, chart.SVG, work, withRounds(func(s []chart.RoundsSeries) { s[1].HeaviestLane = -1 }))
		}, "HeaviestLane -1"},
		{"rounds below work/consumers", func(w io.Writer) error { return chart.Rounds(w, chart.SVG, 2*work, rounds) }, "below work/consumers"},
		{"rounds below heaviest lane", func(w io.Writer) error {
			return chart.Rounds(w, chart.SVG, work, withRounds(func(s []chart.RoundsSeries) { s[1].HeaviestLane = 10 }))
		}, "Rounds[7] = 9 is below HeaviestLane 10"},

		{"schedule no slots", func(w io.Writer) error { return chart.Schedule(w, chart.SVG, "", nil, 4) }, "no slots"},
		{"schedule zero consumers", func(w io.Writer) error { return chart.Schedule(w, chart.SVG, "", slots, 0) }, "0 consumers"},
		{"schedule too many consumers", func(w io.Writer) error { return chart.Schedule(w, chart.SVG, "", slots, 65) }, "65 consumers"},
		{"schedule consumer out of range", func(w io.Writer) error { return chart.Schedule(w, chart.SVG, "", slots, 2) }, "Consumer 2: want 0 to 1"},
		{"schedule negative consumer", func(w io.Writer) error {
			return chart.Schedule(w, chart.SVG, "", withSlots(func(s []konvoy.Slot) { s[5].Consumer = -1 }), 4)
		}, "slot 5: Consumer -1"},
		{"schedule negative arrival", func(w io.Writer) error {
			return chart.Schedule(w, chart.SVG, "", withSlots(func(s []konvoy.Slot) { s[0].Arrival = -1 }), 4)
		}, "slot 0: Arrival -1"},
		{"schedule start before arrival", func(w io.Writer) error {
			return chart.Schedule(w, chart.SVG, "", withSlots(func(s []konvoy.Slot) { s[1].Arrival = 1 }), 4)
		}, "slot 1: Start 0 before Arrival 1"},
		{"schedule finish before start", func(w io.Writer) error {
			return chart.Schedule(w, chart.SVG, "", withSlots(func(s []konvoy.Slot) { s[2].Finish = 0 }), 4)
		}, "slot 2: Finish 0 before Start 1"},
		{"schedule overlap", func(w io.Writer) error {
			return chart.Schedule(w, chart.SVG, "", withSlots(func(s []konvoy.Slot) { s[4].Start, s[4].Taken = 0, 0 }), 4)
		}, "slots 0 and 4 overlap on consumer 0"},
		{"schedule hold over another slot", func(w io.Writer) error {
			return chart.Schedule(w, chart.SVG, "", withSlots(func(s []konvoy.Slot) { s[4].Taken = 0 }), 4)
		}, "slots 0 and 4 overlap on consumer 0"},
		{"schedule taken after start", func(w io.Writer) error {
			return chart.Schedule(w, chart.SVG, "", withSlots(func(s []konvoy.Slot) { s[2].Taken = s[2].Start + 1 }), 4)
		}, "slot 2: Taken 2: want a time from Arrival 0 to Start 1"},
		{"schedule too many slots", func(w io.Writer) error {
			return chart.Schedule(w, chart.SVG, "", make([]konvoy.Slot, 2001), 4)
		}, "2001 slots"},

		{"latency no series", func(w io.Writer) error { return chart.Latency(w, chart.SVG, nil) }, "0 series: want 1 to 12"},
		{"slo no picture", func(w io.Writer) error { return chart.SLO(w, chart.SVG, nil) }, "chart: SLO: no picture"},
		{"slo no series", func(w io.Writer) error { return chart.SLO(w, chart.SVG, &chart.SLOPicture{Percentile: 99}) }, "0 series: want 1 to 12"},
		{"slo percentile", func(w io.Writer) error {
			return chart.SLO(w, chart.SVG, withSLO(func(p *chart.SLOPicture) { p.Percentile = 101 }))
		}, "percentile 101"},
		{"slo target", func(w io.Writer) error {
			return chart.SLO(w, chart.SVG, withSLO(func(p *chart.SLOPicture) { p.Target = -1 }))
		}, "target -1"},
		{"slo round", func(w io.Writer) error {
			return chart.SLO(w, chart.SVG, withSLO(func(p *chart.SLOPicture) { p.Round = -1 }))
		}, "round -1ns"},
		{"slo repeated layout", func(w io.Writer) error {
			return chart.SLO(w, chart.SVG, withSLO(func(p *chart.SLOPicture) { p.Series[1].Layout = p.Series[0].Layout }))
		}, "free"},
		{"slo lengths", func(w io.Writer) error {
			return chart.SLO(w, chart.SVG, withSLO(func(p *chart.SLOPicture) { p.Series[0].Rounds = p.Series[0].Rounds[1:] }))
		}, "24 consumer counts and 23 rounds"},
		{"slo falling counts", func(w io.Writer) error {
			return chart.SLO(w, chart.SVG, withSLO(func(p *chart.SLOPicture) { p.Series[2].Consumers[3] = 1 }))
		}, "Consumers[3] = 1 after 3: want rising"},
		{"slo negative rounds", func(w io.Writer) error {
			return chart.SLO(w, chart.SVG, withSLO(func(p *chart.SLOPicture) { p.Series[1].Rounds[0] = -4 }))
		}, "Rounds[0] = -4"},
		{"latency too many series", func(w io.Writer) error {
			return chart.Latency(w, chart.SVG, slices.Repeat(latency, 4))
		}, "16 series: want 1 to 12"},
		{"latency no name", func(w io.Writer) error {
			return chart.Latency(w, chart.SVG, withLatency(func(s []chart.LatencySeries) { s[0].Layout = "" }))
		}, "series 0: empty Layout"},
		{"latency name twice", func(w io.Writer) error {
			return chart.Latency(w, chart.SVG, withLatency(func(s []chart.LatencySeries) { s[3].Layout = "convoy" }))
		}, `Layout "convoy" appears twice`},
		{"latency no slots", func(w io.Writer) error {
			return chart.Latency(w, chart.SVG, withLatency(func(s []chart.LatencySeries) { s[2].Slots = nil }))
		}, `series "line-convoy": no slots`},
		{"latency start before arrival", func(w io.Writer) error {
			return chart.Latency(w, chart.SVG, withLatency(func(s []chart.LatencySeries) { s[1].Slots[3].Arrival = 2 }))
		}, `series "convoy": slot 3: Start 0 before Arrival 2`},
		{"latency finish before start", func(w io.Writer) error {
			return chart.Latency(w, chart.SVG, withLatency(func(s []chart.LatencySeries) { s[1].Slots[3].Finish = -1 }))
		}, `series "convoy": slot 3: Finish -1 before Start 0`},
		{"latency negative arrival", func(w io.Writer) error {
			return chart.Latency(w, chart.SVG, withLatency(func(s []chart.LatencySeries) { s[1].Slots[3].Arrival = -1 }))
		}, `series "convoy": slot 3: Arrival -1: want 0 or more`},

		{"unknown format", func(w io.Writer) error { return chart.Rounds(w, chart.Format(7), work, rounds) }, "unknown format Format(7)"},
		{"small size", func(w io.Writer) error { return chart.Rounds(w, chart.PNG, work, rounds, chart.WithSize(3, 10)) }, "width 3 cm"},
		{"huge size", func(w io.Writer) error { return chart.Rounds(w, chart.PNG, work, rounds, chart.WithSize(16, 1e9)) }, "height 1e+09 cm"},
		{"NaN size", func(w io.Writer) error {
			return chart.Rounds(w, chart.PNG, work, rounds, chart.WithSize(math.NaN(), 10))
		}, "width NaN cm"},
		{"low dpi", func(w io.Writer) error { return chart.Rounds(w, chart.PNG, work, rounds, chart.WithDPI(0)) }, "0 dpi"},
		{"high dpi", func(w io.Writer) error { return chart.Rounds(w, chart.PNG, work, rounds, chart.WithDPI(10000)) }, "10000 dpi"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			err := tt.draw(&buf)
			if err == nil {
				t.Fatalf("got no error, want one containing %q", tt.want)
			}
			if !strings.Contains(err.Error(), tt.want) || !strings.HasPrefix(err.Error(), "chart: ") {
				t.Errorf("got error %q, want one starting chart: and containing %q", err, tt.want)
			}
			if buf.Len() > 0 {
				t.Errorf("wrote %d bytes with the error, want none", buf.Len())
			}
		})
	}
}

// TestWriterErrors wants a nil writer and a failing one reported.
func TestWriterErrors(t *testing.T) {
	work, rounds := lessonRounds(t)
	if err := chart.Rounds(nil, chart.SVG, work, rounds); err == nil || !strings.Contains(err.Error(), "nil writer") {
		t.Errorf("nil writer: got %v, want a nil writer error", err)
	}
	broken := errors.New("disk full")
	err := chart.Rounds(failingWriter{broken}, chart.PNG, work, rounds)
	if !errors.Is(err, broken) {
		t.Errorf("failing writer: got %v, want it to wrap %v", err, broken)
	}
}

type failingWriter struct{ err error }

func (w failingWriter) Write([]byte) (int, error) { return 0, w.err }

// TestOptions wants the size and resolution options to change the PNG's
// pixel size, and a later option to override an earlier one.
func TestOptions(t *testing.T) {
	work, rounds := lessonRounds(t)
	tests := []struct {
		opts         []chart.Option
		wantW, wantH int
	}{
		{nil, 907, 567},
		{[]chart.Option{chart.WithDPI(96)}, 605, 378},
		{[]chart.Option{chart.WithSize(10, 10), chart.WithDPI(72)}, 283, 283},
		{[]chart.Option{chart.WithSize(10, 10), chart.WithSize(20, 5), chart.WithDPI(72)}, 567, 142},
	}
	for _, tt := range tests {
		var buf bytes.Buffer
		if err := chart.Rounds(&buf, chart.PNG, work, rounds, tt.opts...); err != nil {
			t.Fatal(err)
		}
		cfg, err := png.DecodeConfig(&buf)
		if err != nil {
			t.Fatal(err)
		}
		if cfg.Width != tt.wantW || cfg.Height != tt.wantH {
			t.Errorf("%d options: got %dx%d pixels, want %dx%d", len(tt.opts), cfg.Width, cfg.Height, tt.wantW, tt.wantH)
		}
	}
}

// TestParseFormat wants every format's name to parse back to it, in any
// case, and an unknown name refused.
func TestParseFormat(t *testing.T) {
	for _, f := range []chart.Format{chart.SVG, chart.PNG} {
		for _, name := range []string{f.String(), strings.ToUpper(f.String())} {
			got, err := chart.ParseFormat(name)
			if err != nil || got != f {
				t.Errorf("ParseFormat(%q) = %v, %v; want %v", name, got, err, f)
			}
		}
	}
	if _, err := chart.ParseFormat("pdf"); err == nil {
		t.Error(`ParseFormat("pdf") gave no error`)
	}
}

// A PNG is drawn in memory, 4 bytes a pixel: a size and resolution within
// their ranges that make more than 64 Mi pixels are an error, before any
// memory is taken, with nothing written; an SVG of that size has no pixels
// to bound. (pixels_internal_test.go checks the bound's edge.)
func TestPNGPixelsAreBounded(t *testing.T) {
	work, rounds := lessonRounds(t)
	var buf bytes.Buffer
	err := chart.Rounds(&buf, chart.PNG, work, rounds, chart.WithSize(100, 100), chart.WithDPI(600))
	if err == nil || !strings.Contains(err.Error(), "100 by 100 cm at 600 dpi is 557998884 pixels") || buf.Len() != 0 {
		t.Fatalf("a PNG of 100 by 100 cm at 600 dpi: %v, %d bytes written; want an error that says its pixels, nothing written", err, buf.Len())
	}
	if err := chart.Rounds(&buf, chart.SVG, work, rounds, chart.WithSize(100, 100), chart.WithDPI(600)); err != nil {
		t.Fatalf("an SVG of 100 by 100 cm: %v", err)
	}
}
