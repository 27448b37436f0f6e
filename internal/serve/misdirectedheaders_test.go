package serve

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

// TestAMisdirectedAnswerCarriesTheSecurityHeaders checks that the 421 a
// loopback server gives a host not this machine's carries the headers of
// every other answer, as the documentation says "every answer forbids
// inline scripts and framing": loopbackOnly answered before the server
// set them, so that its refusal had no Content-Security-Policy (found by
// a review). The page's path and the API's are both checked, and the
// headers must be the server's own, word for word.
func TestAMisdirectedAnswerCarriesTheSecurityHeaders(t *testing.T) {
	s := newTestServer(0)
	h := loopbackOnly(s)
	served := get(t, s, "/api/")
	for _, path := range []string{"/", "/api/report"} {
		req := httptest.NewRequest(http.MethodGet, path, nil)
		req.Host = "evil.example"
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusMisdirectedRequest {
			t.Fatalf("GET %s for evil.example: status %d; want 421", path, rec.Code)
		}
		for _, name := range []string{"Content-Security-Policy", "X-Content-Type-Options", "Referrer-Policy"} {
			if got, want := rec.Header().Get(name), served.Header().Get(name); got != want || want == "" {
				t.Errorf("GET %s for evil.example: %s %q; want %q, as every answer has", path, name, got, want)
			}
		}
	}
}
