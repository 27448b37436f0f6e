package chart_test

import (
	"bytes"
	"math"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/sirali-konvoy/konvoy/chart"
)

// TestSLOTargetAsTime checks that the SLO picture labels its target, when
// Round is set, with the exact time of Target rounds of Round, and that it
// refuses, with an error and nothing written, a target longer than a
// time.Duration holds (about 292 years): SLO takes targets up to 1<<40 and
// any Round above 0, and a label computed in time.Duration would wrap
// around to a negative time there (3,000,000 rounds of an hour is 3.6·10⁹
// hours, which no time.Duration, and no time.ParseDuration, can hold).
func TestSLOTargetAsTime(t *testing.T) {
	picture := func(target int, round time.Duration) *chart.SLOPicture {
		return &chart.SLOPicture{Percentile: 99, Target: target, Round: round,
			Series: []chart.SLOSeries{{Layout: "free", Consumers: []int{1, 2}, Rounds: []int{3 * target, 2 * target}}}}
	}

	var b bytes.Buffer
	err := chart.SLO(&b, chart.SVG, picture(3_000_000, time.Hour))
	if err == nil || !strings.Contains(err.Error(), "target 3000000 rounds of 1h0m0s: longer than a time.Duration holds") {
		t.Errorf("3000000 rounds of 1h: error %v; want one saying the target is longer than a time.Duration holds", err)
	}
	if b.Len() > 0 {
		t.Errorf("3000000 rounds of 1h: an error, but %d bytes written", b.Len())
	}

	// The longest round that fits is drawn, its label exact.
	const target = 3_000_000
	round := time.Duration(math.MaxInt64 / target)
	b.Reset()
	if err := chart.SLO(&b, chart.SVG, picture(target, round)); err != nil {
		t.Fatalf("%d rounds of %v: %v", target, round, err)
	}
	labels := regexp.MustCompile(`3000000 rounds \(([^)]*)\)`).FindAllStringSubmatch(b.String(), -1)
	if len(labels) == 0 {
		t.Fatalf("%d rounds of %v: no target label in the SVG", target, round)
	}
	for _, l := range labels {
		if d, err := time.ParseDuration(l[1]); err != nil || d != target*round {
			t.Errorf("the target of %d rounds of %v is labelled %q; want %v", target, round, l[1], target*round)
		}
	}
}
