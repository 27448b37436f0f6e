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

// TestABatchPlanDoesNotDependOnItsRound wants a batch, every event
// arriving in one round, planned alike whichever round that is: at round
// 100,000 it kept its arrivals, so that no run kept up at any peak, where
// at round 0 four consumers did (found by a review).
func TestABatchPlanDoesNotDependOnItsRound(t *testing.T) {
	at0 := "key,line,step,duration,at\na,L,1,3,0\nb,L,1,3,0\nc,L,1,3,0\nd,L,1,3,0\n"
	later := strings.ReplaceAll(at0, ",3,0\n", ",3,100000\n")
	args := []string{"plan", "-events", "-", "-layouts", "free,convoy", "-format", "json"}
	want, errOut, status := runWithInput(at0, args...)
	if status != 0 || !strings.Contains(want, `"keeps_up": true`) {
		t.Fatalf("at round 0: status %d, %s\n%s", status, errOut, want)
	}
	got, errOut, status := runWithInput(later, args...)
	if status != 0 || got != want {
		t.Errorf("the batch at round 0 planned as\n%s\nat round 100000 as (status %d, %s)\n%s", want, status, errOut, got)
	}
}
