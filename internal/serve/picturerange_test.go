package serve

// A view whose runs succeed is a page of their tables, status 200, as the
// API answers the same query with 200: a picture the charts cannot draw
// (package chart draws values up to 2^40 rounds) is left out with a note,
// as the package doc and docs/serve.md promise of the pictures it leaves
// out ("beyond, the tables stand alone, with a note"). The page is never
// "That did not run", status 422, over tables of runs that ran: a whole
// result is not shown as a failure, nor a partial one as whole.

import (
	"net/http"
	"strconv"
	"strings"
	"testing"
)

func TestAPictureBeyondTheChartsLeavesThePageItsTables(t *testing.T) {
	if strconv.IntSize < 64 {
		t.Skip("durations of 10^12 rounds do not fit a 32-bit int")
	}
	s := newTestServer(0)
	// Three events of 10^12 rounds each: 3×10^12 rounds of work, beyond
	// the 2^40 the rounds picture draws, well within what runs take.
	trace := "key,line,status,duration\nK1,L1,a,1000000000000\nK2,L1,a,1000000000000\nK1,L1,b,1000000000000\n"
	rec := post(t, s, "long.csv", []byte(trace), "steps", "a,b")
	loc := rec.Header().Get("Location")
	if rec.Code != http.StatusSeeOther || !strings.HasPrefix(loc, "/?") {
		t.Fatalf("upload: status %d, Location %q; want 303 and the page", rec.Code, loc)
	}
	if api := get(t, s, "/api/report?"+strings.TrimPrefix(loc, "/?")); api.Code != http.StatusOK {
		t.Fatalf("the API: status %d, %s; want 200", api.Code, api.Body.String())
	}
	page := get(t, s, loc)
	body := page.Body.String()
	if page.Code != http.StatusOK || strings.Contains(body, `id="error"`) {
		i := strings.Index(body, `id="error"`)
		t.Errorf("the page of runs the API answers with 200: status %d, %s; want 200, the tables and a note for the picture left out",
			page.Code, body[max(i, 0):min(len(body), max(i, 0)+300)])
	}
	if !strings.Contains(body, `<th scope="row">rounds</th><td>1000000000000</td>`) {
		t.Errorf("the page has no first table of the runs")
	}
}
