package chart

// Rounds marks every consumer count on its axis when there are at most 16
// of them, on a linear axis, but labels only those whose numbers stand
// apart: konvoy serve's page draws rounds at 1 to 8 consumers and the
// counts a view asks for, so /?consumers=64,10,11,12,13,14 draws 14 counts
// of which 13 fall in the first fifth of the axis, and labelling each
// would print "10" to "14" over each other.
// (checkNumbersApart is in ticklabels_test.go.)

import (
	"bytes"
	"testing"
)

func TestRoundsTickNumbersDoNotOverlap(t *testing.T) {
	counts := []int{1, 2, 3, 4, 5, 6, 7, 8, 10, 11, 12, 13, 14, 64}
	var rounds []int
	for _, c := range counts {
		rounds = append(rounds, (6400+c-1)/c)
	}
	var b bytes.Buffer
	if err := Rounds(&b, SVG, 6400, []RoundsSeries{{Layout: "free", Consumers: counts, Rounds: rounds}}); err != nil {
		t.Fatal(err)
	}
	checkNumbersApart(t, "Rounds", b.Bytes())
}
