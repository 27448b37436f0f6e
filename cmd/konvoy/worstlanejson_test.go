package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// The JSON report names each run's worst lane and its wait, as the text
// report's latency table does: the two were different measures from the
// heaviest lane, and JSON had no field for them (found by a review).
func TestTheJSONNamesTheWorstLaneAsTheTextDoes(t *testing.T) {
	args := []string{"-events", "testdata/arrivals.csv", "-policy", "all", "-consumers", "4"}
	text, errOut, status := runCommand(args...)
	if status != 0 {
		t.Fatalf("status %d, %s", status, errOut)
	}
	js, errOut, status := runCommand(append(args, "-format", "json")...)
	if status != 0 {
		t.Fatalf("-format json: status %d, %s", status, errOut)
	}
	var records []struct {
		Layout, Policy string
		WorstLane      string `json:"worst_lane"`
		WorstLaneWait  int    `json:"worst_lane_wait"`
	}
	if err := json.Unmarshal([]byte(js), &records); err != nil {
		t.Fatal(err)
	}
	lanes := 0
	for _, r := range records {
		cell := "-"
		if r.WorstLane != "" {
			cell, lanes = fmt.Sprintf("%s (%d)", r.WorstLane, r.WorstLaneWait), lanes+1
		}
		found := false
		for _, line := range strings.Split(text, "\n") {
			if strings.Contains(line, r.Policy) && strings.HasSuffix(line, "  "+cell) {
				found = true
			}
		}
		if !found {
			t.Errorf("%s under %s: JSON's worst lane %q is in no row of the text's latency table", r.Layout, r.Policy, cell)
		}
	}
	if lanes == 0 {
		t.Error("no record names a worst lane")
	}
}
