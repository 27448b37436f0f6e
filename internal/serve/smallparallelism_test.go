package serve

import (
	"net/http"
	"strings"
	"testing"
)

// TestASmallParallelismIsNotShownAsZero checks that the page's first table
// writes a parallelism as the text report does (report.FormatAmount): a
// run of 2 rounds of work over 1001 rounds has a parallelism of 0.002,
// which the table wrote with two decimals as 0.00, beside the report on
// the same page and the API, which say 0.002 (found by a review). No
// parallelism above 0 may read as none.
func TestASmallParallelismIsNotShownAsZero(t *testing.T) {
	s := newTestServer(0)
	rec := post(t, s, "sparse.csv", []byte("key,line,step,duration,at\nA,L,1,1,0\nB,M,1,1,1000\n"))
	if rec.Code != http.StatusSeeOther {
		t.Fatalf("upload: status %d; want 303", rec.Code)
	}
	page := get(t, s, rec.Header().Get("Location")+"&layouts=free&consumers=1").Body.String()
	if got := cell(t, page, "parallelism", 1); got != "0.002" {
		t.Errorf("parallelism %q; want 0.002 (2 rounds of work over 1001 rounds), as the report on the page writes it", got)
	}
	if !strings.Contains(page, "free 0.002") {
		t.Errorf("the page's text report does not say free 0.002, the figure the table must agree with")
	}
}
