package main

import (
	"encoding/json"
	"testing"
)

// TestPlanJSONRatesAgreeWithTheText: konvoy plan -format json holds the
// answers the text report gives (planDoc: "one object holding every
// answer"), and a rate in it keeps its significant digits however small:
// three decimals, or below 0.1 events/s three significant digits
// (report's roundAmount), as the text writes such a rate with two
// (formatRate) rather than 0.00. At -peak 0.0001 and an hour a round, as
// for batch jobs, three decimals alone would make every rate 0.
//
// Each check holds by definition: keeping up means a run of the trace
// lasts at most events/(peak·round) rounds, so its rate is at least the
// peak; every lesson event takes time, so every ceiling is above 0 (a
// ceiling no run bounds is null, not 0); and a sensitivity row splits the
// peak, so its two rates add up to it.
func TestPlanJSONRatesAgreeWithTheText(t *testing.T) {
	const peak = 0.0001
	out, errOut, status := runCommand("plan", "-peak", "0.0001", "-round-time", "1h", "-format", "json")
	if status != 0 {
		t.Fatalf("status %d: %s", status, errOut)
	}
	var doc struct {
		Plans []struct {
			Layout  string   `json:"layout"`
			KeepsUp bool     `json:"keeps_up"`
			Rate    *float64 `json:"rate"`
			Ceiling *float64 `json:"ceiling"`
		} `json:"plans"`
		Sensitivity struct {
			Rows []struct {
				Share     float64 `json:"ordered_share"`
				Ordered   float64 `json:"ordered_rate"`
				Unordered float64 `json:"unordered_rate"`
			} `json:"rows"`
		} `json:"sensitivity"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	for _, p := range doc.Plans {
		if p.KeepsUp && (p.Rate == nil || *p.Rate < peak) {
			t.Errorf("%s keeps up with %v events/s, but its rate is %v", p.Layout, peak, deref(p.Rate))
		}
		if p.Ceiling != nil && *p.Ceiling <= 0 {
			t.Errorf("%s: ceiling %v events/s, though every event takes time (the text prints it with two significant digits)", p.Layout, *p.Ceiling)
		}
	}
	for _, r := range doc.Sensitivity.Rows {
		if sum := r.Ordered + r.Unordered; sum < peak*0.99 {
			t.Errorf("share %v: ordered_rate %v + unordered_rate %v = %v; want the peak, %v, split", r.Share, r.Ordered, r.Unordered, sum, peak)
			break
		}
	}
}

func deref(p *float64) any {
	if p == nil {
		return nil
	}
	return *p
}

// The plan's peak, without -peak a trace's own mean rate (6000/41 events/s
// for arrivals.csv: 60 events over the 41 rounds 2 to 42 of 10ms), is rounded in JSON
// as its other rates are; it held every digit of the division (found by a
// review). A -peak given is the peak as given.
func TestPlanJSONRoundsTheTracesOwnPeak(t *testing.T) {
	peakOf := func(args ...string) float64 {
		t.Helper()
		out, errOut, status := runCommand(append([]string{"plan", "-events", "testdata/arrivals.csv", "-format", "json"}, args...)...)
		if status != 0 {
			t.Fatalf("status %d: %s", status, errOut)
		}
		var doc struct{ Peak float64 }
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatal(err)
		}
		return doc.Peak
	}
	if got := peakOf(); got != 146.341 {
		t.Errorf("the trace's own peak: %v in JSON; want 146.341", got)
	}
	if got := peakOf("-peak", "12.34567"); got != 12.34567 {
		t.Errorf("-peak 12.34567: %v in JSON; want it as given", got)
	}
}
