package serve

import (
	"encoding/json"
	"net/http"
	"testing"
)

// TestAMalformedQueryIsRefusedNotDropped checks that a query parameter
// that does not parse, such as one with a bad %-escape or pairs joined by
// ';', is refused with the reason (400 and a JSON error), not dropped:
// readQuery reads the raw query with url.ParseQuery and returns its error,
// where r.URL.Query() would leave such pairs out and the API would answer
// with the default runs, as though the parameter had not been given. The
// command alike refuses a flag it cannot read.
func TestAMalformedQueryIsRefusedNotDropped(t *testing.T) {
	s := newTestServer(0)
	for _, q := range []string{"layouts=convoy;consumers=2", "layouts=partitioned:3%zz"} {
		rec := get(t, s, "/api/report?"+q)
		var e struct{ Error string }
		json.Unmarshal(rec.Body.Bytes(), &e)
		if rec.Code != http.StatusBadRequest || e.Error == "" {
			body := rec.Body.String()
			t.Errorf("GET /api/report?%s: status %d, %s…; want 400 and the reason", q, rec.Code, body[:min(len(body), 60)])
		}
	}
}
