package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// A plan's JSON writes null for a cost or multiplier that is undefined,
// as the text says it is, where it wrote 0 (found by a review): with no
// ordered step, the selective convoy's formula and cost, and the
// sensitivity's costs and multipliers; the lesson's are numbers.
func TestAPlanWritesAnUndefinedRatioAsNull(t *testing.T) {
	path := filepath.Join(t.TempDir(), "history.csv")
	if err := os.WriteFile(path, []byte("key,step,duration\nA,0,2\nA,0,3\nB,0,1\nC,0,4\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	type doc struct {
		Selective struct {
			Simulated, Formula, Cost *float64
		}
		Sensitivity struct {
			Costs map[string]*float64
			Rows  []struct{ Multipliers map[string]*float64 }
		}
	}
	read := func(args ...string) doc {
		t.Helper()
		out, errOut, status := runCommand(append([]string{"plan", "-format", "json", "-layouts", "free,convoy,selective-convoy"}, args...)...)
		var d doc
		if err := json.Unmarshal([]byte(out), &d); status != 0 || err != nil {
			t.Fatalf("%v: status %d, stderr %q, %v", args, status, errOut, err)
		}
		return d
	}
	d := read("-events", path)
	if s := d.Selective; s.Formula != nil || s.Cost != nil || s.Simulated == nil {
		t.Errorf("no ordered step: formula %v, cost %v, simulated %v; want null, null and a number", s.Formula, s.Cost, s.Simulated)
	}
	if c, ok := d.Sensitivity.Costs["convoy"]; !ok || c != nil || len(d.Sensitivity.Rows) == 0 {
		t.Errorf("no ordered step: the convoy's cost %v (%v), %d rows; want null, and rows", c, ok, len(d.Sensitivity.Rows))
	}
	for _, r := range d.Sensitivity.Rows {
		if m, ok := r.Multipliers["convoy"]; !ok || m != nil {
			t.Errorf("no ordered step: a multiplier %v (%v); want null", m, ok)
		}
	}
	lesson := read()
	if s := lesson.Selective; s.Formula == nil || s.Cost == nil || lesson.Sensitivity.Costs["convoy"] == nil || lesson.Sensitivity.Rows[0].Multipliers["convoy"] == nil {
		t.Errorf("the lesson: %+v; want every ratio a number", lesson)
	}
}
