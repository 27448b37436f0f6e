package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestPlanBudgetIsWrittenAboveZero: keeping up means running the trace in
// at most events/(peak·round) rounds, a positive number however high the
// peak, and both reports write it so: at -peak 1e8 the lesson's budget is
// 2e-05 rounds, in the text (formatAmount) and in -format json's
// max_rounds (roundAmount's three significant digits below 0.1). A budget
// of 0 would be one no run can be within, though 0 rounds is what a run of
// events that take no time lasts.
func TestPlanBudgetIsWrittenAboveZero(t *testing.T) {
	out, errOut, status := runCommand("plan", "-peak", "1e8")
	if status != 0 {
		t.Fatalf("status %d: %s", status, errOut)
	}
	if flat := strings.Join(strings.Fields(out), " "); strings.Contains(flat, "at most 0.00 rounds") {
		t.Errorf("the plan prints its budget of 2e-05 rounds as 0.00:\n%.600s", out)
	}
	js, errOut, status := runCommand("plan", "-peak", "1e8", "-format", "json")
	if status != 0 {
		t.Fatalf("-format json: status %d: %s", status, errOut)
	}
	var doc struct {
		MaxRounds float64 `json:"max_rounds"`
	}
	if err := json.Unmarshal([]byte(js), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.MaxRounds <= 0 {
		t.Errorf("-format json: max_rounds is %v; want the budget, 2e-05 rounds", doc.MaxRounds)
	}
}
