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
	d := ratiosOf(t, "-events", path)
	if s := d.Selective; s.Formula != nil || s.Cost != nil || s.Simulated == nil {
		t.Errorf("no ordered step: formula %v, cost %v, simulated %v; want null, null and a number", s.Formula, s.Cost, s.Simulated)
	}
	ratios := []map[string]*float64{d.Sensitivity.Costs}
	for _, r := range d.Sensitivity.Rows {
		ratios = append(ratios, r.Multipliers)
	}
	for i, m := range ratios {
		if v, ok := m["convoy"]; !ok || v != nil || len(ratios) == 1 {
			t.Errorf("no ordered step: the convoy's cost (0) or multiplier (1 on) %d: %v (%v), of %d; want null, and rows", i, v, ok, len(ratios))
		}
	}
	lesson := ratiosOf(t)
	if s := lesson.Selective; s.Formula == nil || s.Cost == nil || lesson.Sensitivity.Costs["convoy"] == nil || lesson.Sensitivity.Rows[0].Multipliers["convoy"] == nil {
		t.Errorf("the lesson: %+v; want every ratio a number", lesson)
	}
}

// ratioDoc is what TestAPlanWritesAnUndefinedRatioAsNull reads of a
// plan's JSON.
type ratioDoc struct {
	Selective struct {
		Simulated, Formula, Cost *float64
	}
	Sensitivity struct {
		Costs map[string]*float64
		Rows  []struct{ Multipliers map[string]*float64 }
	}
}

// ratiosOf returns the ratios of the JSON plan of the free, convoy and
// selective convoy layouts, with args.
func ratiosOf(t *testing.T, args ...string) ratioDoc {
	t.Helper()
	out, errOut, status := runCommand(append([]string{"plan", "-format", "json", "-layouts", "free,convoy,selective-convoy"}, args...)...)
	var d ratioDoc
	if err := json.Unmarshal([]byte(out), &d); status != 0 || err != nil {
		t.Fatalf("%v: status %d, stderr %q, %v", args, status, errOut, err)
	}
	return d
}
