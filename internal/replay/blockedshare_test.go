package replay

import (
	"strings"
	"testing"
	"time"

	"github.com/sirali-konvoy/konvoy"
)

// The text's blocked share is the JSON's, in percent: under head-of-line
// on 2 consumers, A/2 waits a round for A/1 while B/1 runs 7, so 1 of 2 ×
// 8 consumer-rounds is blocked, 0.0625, a tie at three decimals. The text
// said 6.2% and the JSON 0.063 (found by a review); both now round it to
// even.
func TestTheTextsBlockedShareIsTheJSONs(t *testing.T) {
	c := Config{Layout: konvoy.Convoy, Policy: konvoy.HeadOfLine, Consumers: 2, Unit: time.Millisecond}
	events := []konvoy.Event{{Key: "A", Step: 1, Duration: 1}, {Key: "A", Step: 2, Duration: 1}, {Key: "B", Step: 1, Duration: 7}}
	s, err := Predict(events, c, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := s.BlockedShare(2); got != 0.0625 {
		t.Fatalf("blocked share %v; want 0.0625", got)
	}
	cmp := Comparison{Name: "t", Config: c, Of: 3, Total: 3, Predicted: s, FromActual: s, Measured: s}
	js, err := cmp.JSON()
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(js, `"blocked_share": 0.062`); n != 3 {
		t.Errorf("%d blocked shares of 0.062 in the JSON; want 3, predicted, from the actual times and measured:\n%s", n, js)
	}
	if text := cmp.Text(); !strings.Contains(text, "blocked share") || strings.Count(text, "6.2%") != 3 {
		t.Errorf("want the blocked share at 6.2%% in each column of the text:\n%s", text)
	}
}
