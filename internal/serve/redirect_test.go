package serve

import (
	"net/http"
	"strings"
	"testing"
)

// TestTheShortLinkIsALinkTheServerServes checks that a query the server
// takes (at most 8 KiB) but would redirect to its short form, a parameter
// given twice, is redirected only to a link the server serves. encode
// percent-escapes characters a query may hold as they are ('!', '*', '('
// and the like), so the short form of a 6 KB query can be an 18 KB link;
// handlePage then serves the page at the query as it came.
func TestTheShortLinkIsALinkTheServerServes(t *testing.T) {
	s := newTestServer(0)
	q := "steps=" + strings.Repeat("!", 3000) + "&steps=" + strings.Repeat("*", 3000)
	rec := get(t, s, "/?"+q)
	if rec.Code != http.StatusSeeOther {
		return // served or refused as it is: no link to check
	}
	loc := rec.Header().Get("Location")
	if next := get(t, s, loc); next.Code == http.StatusRequestURITooLong {
		t.Errorf("a %d-byte query is redirected to a %d-byte link, which the server refuses: %d %s", len(q), len(loc), next.Code, strings.TrimSpace(next.Body.String()))
	}
}
