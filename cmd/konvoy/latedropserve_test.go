package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/sirali-konvoy/konvoy/internal/serve"
)

// konvoy serve refuses -late drop with -reorder 0 as konvoy does: at
// start, a usage error before it serves, and in a query, the command's
// usage error with 400, not a 422 from the trace's reading.
func TestServeRefusesLateDropWithAZeroWindow(t *testing.T) {
	const want = "-late drop needs a -reorder window above 0"
	type result struct {
		errOut string
		status int
	}
	done := make(chan result, 1)
	go func() {
		_, errOut, status := runCommand("serve", "-addr", "127.0.0.1:0", "-events", "testdata/arrivals.csv", "-reorder", "0", "-late", "drop")
		done <- result{errOut, status}
	}()
	select {
	case r := <-done:
		if r.status != 2 || !strings.Contains(r.errOut, "konvoy serve: "+want) {
			t.Errorf("konvoy serve -reorder 0 -late drop: status %d, stderr %q; want 2 and %q", r.status, r.errOut, want)
		}
	case <-time.After(10 * time.Second):
		t.Fatalf("konvoy serve -reorder 0 -late drop: it serves; want a usage error before serving")
	}
	s := serve.New(serveConfig("testdata/arrivals.csv", serve.DefaultMaxUpload))
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/api/report?reorder=0&late=drop", nil))
	var e struct{ Error string }
	json.Unmarshal(rec.Body.Bytes(), &e)
	if rec.Code != http.StatusBadRequest || !strings.Contains(e.Error, want) {
		t.Errorf("reorder=0&late=drop: status %d, error %q; want 400 and %q", rec.Code, e.Error, want)
	}
}
