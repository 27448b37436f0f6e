package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
)

// -peak at the trace's own mean rate (3 events over the 10 rounds 0 to 9
// of 100ms: 3 events/s) leaves the arrivals as recorded: the factor is
// 3/(3·0.1·10) = 1, which float64 wrote 0.9999999999999999, and ⌊r·f⌋
// moved every arrival but the first a round earlier, so the plan needed
// twice the consumers it needs without -peak (found by a review).
func TestPlanSLOAtTheTracesOwnRateKeepsItsArrivals(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "sc.csv")
	if err := os.WriteFile(path, []byte("key,line,step,duration,at\nA,L,1,5,0\nB,L,1,1,5\nC,L,1,1,9\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	slo := func(args ...string) (int, float64) {
		t.Helper()
		out, errOut, status := runCommand(append([]string{"plan", "-events", path, "-layouts", "free", "-round-time", "100ms",
			"-slo", "p50=100ms", "-format", "json"}, args...)...)
		if status != 0 {
			t.Fatalf("status %d: %s", status, errOut)
		}
		var doc struct {
			Peak  float64
			Plans []struct {
				SLO struct {
					Consumers   int
					ArrivalSpan int `json:"arrival_span"`
				}
			}
		}
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatal(err)
		}
		return doc.Plans[0].SLO.Consumers, float64(doc.Plans[0].SLO.ArrivalSpan)
	}
	ownC, ownSpan := slo()
	peakC, peakSpan := slo("-peak", "3")
	if ownC != peakC || ownSpan != peakSpan {
		t.Errorf("-peak 3 (the trace's own rate): %d consumers over a span of %v rounds; without -peak: %d over %v", peakC, peakSpan, ownC, ownSpan)
	}
}

// At a huge -peak the note's factor is the quotient it names: 3 events
// over 100 rounds of 1s at 1e308 events/s scale by 3e-310, a subnormal
// float64. Computed as n/(peak·round·span), the product overflowed and the
// quotient was 0, and taken 4 units up it printed 1.97626e-323 (found by
// a review). Every arrival then comes at the first's round.
func TestPlanSLONoteNamesTheFactorAtAHugePeak(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sc.csv")
	if err := os.WriteFile(path, []byte("key,line,step,duration,at\nA,L,1,5,0\nB,L,1,1,5\nC,L,1,1,99\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, status := runCommand("plan", "-events", path, "-layouts", "free", "-round-time", "1s", "-slo", "p50=100s", "-peak", "1e308")
	if status != 0 {
		t.Fatalf("status %d: %s", status, errOut)
	}
	flat := regexp.MustCompile(`\n\s+`).ReplaceAllString(out, " ")
	m := regexp.MustCompile(`with f = [^=]*= ([0-9.e+-]+); the last arrives at round (\d+)`).FindStringSubmatch(flat)
	if m == nil {
		t.Fatalf("no factor in the note:\n%s", out)
	}
	f, err := strconv.ParseFloat(m[1], 64)
	if want := 3 / 1e308 / 100; err != nil || f < want*0.999 || f > want*1.001 || m[2] != "0" {
		t.Errorf("the note's f = %s and last arrival at round %s; want %.6g, the quotient it names, and round 0", m[1], m[2], want)
	}
}
