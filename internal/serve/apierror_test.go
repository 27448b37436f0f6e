package serve

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// TestTheAPIAnswersEveryErrorInJSON checks that GET /api/report answers a
// query longer than the server takes with its documented error: handleAPI
// says an error is a JSON object {"error": "..."} with a 4xx or 5xx
// status, which a script reads as it reads the records, and ServeHTTP,
// which refuses such a query (414) before the API sees it, answers so on
// the API's path too.
func TestTheAPIAnswersEveryErrorInJSON(t *testing.T) {
	s := newTestServer(0)
	rec := get(t, s, "/api/report?steps="+strings.Repeat("a", maxQueryBytes))
	var e struct{ Error string }
	err := json.Unmarshal(rec.Body.Bytes(), &e)
	if rec.Code != http.StatusRequestURITooLong || err != nil || e.Error == "" || !strings.HasPrefix(rec.Header().Get("Content-Type"), "application/json") {
		t.Errorf("GET /api/report of a %d-byte query: status %d, Content-Type %q, body %q; want 414 and a JSON object {\"error\": ...}",
			len("steps=")+maxQueryBytes, rec.Code, rec.Header().Get("Content-Type"), rec.Body.String())
	}
}
