package main

import (
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestAPlanDoesNotDependOnWhereTheRoundsStart wants the same trace with
// every arrival 100,000 rounds later (a window cut out of a longer trace,
// its rounds counted from the longer one's start) planned alike, with its
// own rate and with -peak: the same peak and budget, and under -slo the
// same counts and percentiles. The trace's own rate counted the empty
// rounds before its first arrival, and -peak scaled arrivals from round 0,
// squeezing the moved trace into one round: 62 consumers for free where
// the trace needs 4 (found by a review). A timestamp format counts from
// the earliest arrival, so the same trace written in timestamps was
// planned as the unmoved one.
func TestAPlanDoesNotDependOnWhereTheRoundsStart(t *testing.T) {
	data, err := os.ReadFile("testdata/arrivals.csv")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	moved := []string{lines[0]}
	for _, l := range lines[1:] {
		f := strings.Split(l, ",")
		at, err := strconv.Atoi(f[4])
		if err != nil {
			t.Fatal(err)
		}
		f[4] = fmt.Sprint(at + 100000)
		moved = append(moved, strings.Join(f, ","))
	}
	type answer struct {
		Peak      float64
		MaxRounds float64 `json:"max_rounds"`
		Plans     []struct {
			Layout, Policy string
			Consumers      int
			Rate           *float64
			SLO            *struct {
				Consumers      int
				AchievedRounds int     `json:"achieved_rounds"`
				Utilisation    float64 `json:"utilisation"`
			}
		}
	}
	plan := func(trace string, args ...string) (a answer) {
		t.Helper()
		out, errOut, status := runWithInput(trace, append([]string{"plan", "-events", "-", "-layouts", "free,convoy", "-slo", "p99=100ms", "-format", "json"}, args...)...)
		if status != 0 {
			t.Fatalf("%v: status %d: %s", args, status, errOut)
		}
		if err := json.Unmarshal([]byte(out), &a); err != nil {
			t.Fatal(err)
		}
		return a
	}
	for _, args := range [][]string{nil, {"-peak", "139.53"}, {"-peak", "40"}} {
		want, got := plan(string(data), args...), plan(strings.Join(moved, "\n")+"\n", args...)
		w, _ := json.Marshal(want)
		g, _ := json.Marshal(got)
		if string(w) != string(g) || len(want.Plans) != 2 || want.Plans[0].SLO == nil || want.Plans[0].SLO.AchievedRounds == 0 {
			t.Errorf("%v: the trace planned as\n%s\nand 100,000 rounds later as\n%s", args, w, g)
		}
	}
}
