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

// TestScheduleSVGIsWellFormedForAnyKey: a key read from a CSV trace may
// hold a control character or bytes that are not UTF-8 (eventlog refuses
// only NUL), which an SVG file cannot hold; Schedule draws such a key, and
// such a lane, quoted, so that its SVG is well-formed XML.
func TestScheduleSVGIsWellFormedForAnyKey(t *testing.T) {
	for _, key := range []string{"x\x01y", "c\xff", "e\x1b[31m"} {
		events := []konvoy.Event{{Key: key, Step: 1, Duration: 2}, {Key: "b", Step: 1, Duration: 1}}
		for _, layout := range []konvoy.Layout{konvoy.Free, konvoy.Convoy} {
			r, err := konvoy.Simulate(events, layout, 2, konvoy.WithSchedule(20))
			if err != nil {
				t.Fatal(err)
			}
			var b bytes.Buffer
			if err := chart.Schedule(&b, chart.SVG, "schedule", r.Schedule, 2); err != nil {
				if b.Len() > 0 {
					t.Errorf("key %q, %v: an error, %v, but %d bytes written", key, layout, err, b.Len())
				}
				continue
			}
			d := xml.NewDecoder(&b)
			for {
				_, err := d.Token()
				if errors.Is(err, io.EOF) {
					break
				}
				if err != nil {
					t.Errorf("key %q, %v: the SVG is not well-formed XML: %v", key, layout, err)
					break
				}
			}
		}
	}
}
