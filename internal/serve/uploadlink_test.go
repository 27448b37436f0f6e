package serve

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// TestAnAcceptedUploadRedirectsToAPageTheServerServes: every field of the
// upload form is within its own limit (4 KiB, maxFieldBytes), yet together
// they make a link longer than the 8 KiB query ServeHTTP takes. An upload
// is kept only when the page its answer links to is served: this one is
// refused, 413, naming the limit, and not kept.
func TestAnAcceptedUploadRedirectsToAPageTheServerServes(t *testing.T) {
	s := newTestServer(0)
	var steps, history []string
	for i := range 680 {
		steps = append(steps, fmt.Sprintf("s%04d", i))
		history = append(history, fmt.Sprintf("h%04d", i))
	}
	st, hi := strings.Join(steps, ","), strings.Join(history, ",")
	if len(st) > maxFieldBytes || len(hi) > maxFieldBytes {
		t.Fatalf("a field has %d or %d bytes; the test wants each within %d", len(st), len(hi), maxFieldBytes)
	}
	rec := post(t, s, "t.csv", []byte("key,line,status,duration\nA,L,s0001,1\n"), "steps", st, "history", hi)
	if rec.Code != http.StatusSeeOther {
		if want := "want at most 8192: shorten them"; rec.Code != http.StatusRequestEntityTooLarge || !strings.Contains(rec.Body.String(), want) {
			t.Fatalf("upload: status %d; want 303, or 413 and %q", rec.Code, want)
		}
		if s.uploads.held != 0 {
			t.Fatal("the refused upload was kept")
		}
		return
	}
	loc := rec.Header().Get("Location")
	page := get(t, s, loc)
	if page.Code != http.StatusOK {
		t.Fatalf("the upload was accepted (303 to a link of %d bytes) but its page answers %d: %s",
			len(loc), page.Code, strings.TrimSpace(page.Body.String()))
	}
}
