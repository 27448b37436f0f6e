package serve

import (
	"net/http"
	"strings"
	"testing"
)

// An unknown parameter is refused (400) whatever its value, as
// docs/serve.md says: ?consumer=8 is, and so are ?consumer= and ?foo, on
// the page and the API, and before an upload is read, as the form's field
// consumer= is (they were let through, an empty value taken for none:
// found by a review).
func TestAnUnknownParameterWithNoValueIsRefused(t *testing.T) {
	s := newTestServer(0)
	for _, q := range []string{"consumer=", "foo", "layout=&consumers=2", "consumers=2&consumer="} {
		for _, path := range []string{"/api/report?", "/?"} {
			rec := get(t, s, path+q)
			if rec.Code != http.StatusBadRequest || !strings.Contains(rec.Body.String(), "unknown parameter") {
				t.Errorf("GET %s%s: status %d; want 400 naming the unknown parameter:\n%.300s", path, q, rec.Code, rec.Body.String())
			}
		}
	}
	if rec := post(t, s, "t.csv", []byte(goodTrace), "consumers", ""); rec.Code != http.StatusSeeOther {
		t.Errorf("an upload with a known field left empty: status %d; want 303, the field left out", rec.Code)
	}
	if rec := get(t, s, "/api/report?consumers=&layouts=convoy"); rec.Code != http.StatusOK {
		t.Errorf("GET /api/report?consumers=&layouts=convoy: status %d; want 200, a known parameter left empty left out", rec.Code)
	}
}
