package konvoy_test

import (
	"strconv"
	"testing"

	"github.com/sirali-konvoy/konvoy"
)

// A budget a few units in its last place short of a whole number of rounds
// counts as that number even where the consumers it asks for are exactly
// the limit: 7 events at 7 events/s in rounds of 0.1 s have a budget that
// float64 writes 9.999999999999998, for 10, so 10 rounds of work need
// ⌈10/9.999999999999998⌉−1 = 1 consumer, the limit, and one consumer runs
// them in 10 rounds, which keeps up (found by mutation testing: plan.go
// survived giving up when the consumers needed equal the limit).
func TestPlanKeepsUpWithExactlyTheLimitItsBudgetWritesShort(t *testing.T) {
	events := []konvoy.Event{
		{Key: "a", Step: 1, Duration: 4}, {Key: "b", Step: 1, Duration: 1},
		{Key: "c", Step: 1, Duration: 1}, {Key: "d", Step: 1, Duration: 1},
		{Key: "e", Step: 1, Duration: 1}, {Key: "f", Step: 1, Duration: 1},
		{Key: "g", Step: 1, Duration: 1},
	}
	p, err := konvoy.PlanConsumers(konvoy.Values(events), konvoy.Free, konvoy.PlanConfig{Peak: 7, RoundSeconds: 0.1, MaxConsumers: 1})
	if err != nil || p.Consumers != 1 || p.Rounds != 10 {
		t.Errorf("plan: %d consumers, %d rounds, %v; want 1 and 10", p.Consumers, p.Rounds, err)
	}
}

// QuoteKey quotes a key whose first character does not print, as it does
// one with such a character further in: a zero-width space or a NUL that
// opens a key would otherwise vanish from the report (found by mutation
// testing: plan.go survived looking for such a character only after the
// key's first byte).
func TestQuoteKeyQuotesAKeyThatOpensWithACharacterThatDoesNotPrint(t *testing.T) {
	for _, k := range []string{"\u200bK1", "\x00K1"} {
		if got, want := konvoy.QuoteKey(k), strconv.Quote(k); got != want {
			t.Errorf("QuoteKey(%q) = %s; want %s", k, got, want)
		}
	}
}
