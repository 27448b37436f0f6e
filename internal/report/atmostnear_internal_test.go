package report

import "testing"

// A budget near 10^15 rounds, where a unit in float64's last place is an
// eighth of a round, reads as the planner counts it (floorNear) in the
// text and in the JSON: 3 events at the rate that a run of 10^15+2 rounds
// of 0.01 s sustains make a budget of 1000000000000001.875, which the
// planner and the assumptions take as 1000000000000002, and the header
// wrote as 1000000000000001 (found by a review).
func TestABudgetNear1e15ReadsAsThePlannerCountsIt(t *testing.T) {
	rate := 3.0 / (float64(1000000000000002) * 0.01)
	budget := 3.0 / (rate * 0.01)
	if got, want := formatAtMost(budget), "1000000000000002"; got != want {
		t.Errorf("formatAtMost(%v) = %s; want %s", budget, got, want)
	}
	if got, want := roundAtMost(budget), 1000000000000002.0; got != want {
		t.Errorf("roundAtMost(%v) = %v; want %v", budget, got, want)
	}
	// A budget short of a whole number by more than the slack is rounded
	// down, in both.
	if got, want := formatAtMost(2000000000000.5), "2000000000000"; got != want {
		t.Errorf("formatAtMost(2000000000000.5) = %s; want %s", got, want)
	}
	if got, want := roundAtMost(2000000000000.5), 2000000000000.0; got != want {
		t.Errorf("roundAtMost(2000000000000.5) = %v; want %v", got, want)
	}
}
