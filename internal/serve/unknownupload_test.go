package serve

// A link to an upload this server never kept is not answered as one it
// gave up: "is no longer kept", 410 Gone, says the trace was here and was
// dropped to make room (docs/serve.md: "a link to one given up asks for
// the trace again"), which is false of a key the server never held, such
// as a mistyped link or one from another server. Such a key is answered
// 404 Not Found, with an error that does not claim it was once kept; a
// key the server gave up keeps its 410.

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

func TestALinkToAnUploadNeverKeptIsNotToldItWasGivenUp(t *testing.T) {
	s := newTestServer(0)
	const never = "0123456789abcdef0123456789abcdef"
	rec := get(t, s, "/api/report?trace="+never)
	var e struct{ Error string }
	json.Unmarshal(rec.Body.Bytes(), &e)
	if rec.Code != http.StatusNotFound || strings.Contains(e.Error, "no longer kept") {
		t.Errorf("GET /api/report?trace=%s, a key this server never kept: status %d, %q; want 404 and an error that does not say the upload was given up",
			never, rec.Code, e.Error)
	}
	page := get(t, s, "/?trace="+never)
	if page.Code != http.StatusNotFound || strings.Contains(page.Body.String(), "no longer kept") {
		t.Errorf("GET /?trace=%s, a key this server never kept: status %d; want 404 and a page that does not say the upload was given up", never, page.Code)
	}
}
