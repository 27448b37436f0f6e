package serve

import (
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"
)

// TestTheLatencyPictureAgreesWithTheLatencyTable checks that the page's
// latency picture and its latency table, which show the same run (one
// layout at one consumer count under one policy), give the same p95 wait.
// The table takes konvoy.Latency's figures, which from 2,048 rounds
// (konvoy.ExactLatency) on are a bucket's largest value, and chart.Latency's
// legend counts them alike, with a konvoy.LatencyCounter. A trace of 2,000
// events of 2 rounds each on one consumer waits 0, 2, …, 3998 rounds: p95
// is 3799 in both, not the exact 3798 in one of them.
func TestTheLatencyPictureAgreesWithTheLatencyTable(t *testing.T) {
	var b strings.Builder
	b.WriteString("key,line,status,duration\n")
	for i := range 2000 {
		fmt.Fprintf(&b, "K%d,L1,a,2\n", i)
	}
	s := newTestServer(0)
	rec := post(t, s, "waits.csv", []byte(b.String()), "steps", "a", "layouts", "free", "consumers", "1")
	if rec.Code != http.StatusSeeOther {
		t.Fatalf("upload: status %d", rec.Code)
	}
	page := get(t, s, rec.Header().Get("Location"))
	body := page.Body.String()
	if page.Code != http.StatusOK {
		t.Fatalf("page: status %d", page.Code)
	}
	table := regexp.MustCompile(`<tr><th scope="row">free</th><td>\d+</td><td>(\d+)</td>`).FindStringSubmatch(body)
	picture := regexp.MustCompile(`p95 wait and response, in rounds: free (\d+) and`).FindStringSubmatch(body)
	if table == nil || picture == nil {
		t.Fatalf("no latency table row or picture for free in the page")
	}
	if table[1] != picture[1] {
		t.Errorf("the latency table gives free's p95 wait as %s rounds, the latency picture as %s", table[1], picture[1])
	}
}
