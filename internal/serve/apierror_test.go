package serve

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
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

// The API's other refusals made before its handler are JSON too: a method
// other than GET (405, with Allow), and a host that is not this machine's
// on a loopback server (421); the page's path keeps its text.
func TestTheAPIRefusesInJSONBeforeItsHandler(t *testing.T) {
	s := newTestServer(0)
	isJSON := func(rec *httptest.ResponseRecorder) bool {
		var e struct{ Error string }
		return json.Unmarshal(rec.Body.Bytes(), &e) == nil && e.Error != "" && strings.HasPrefix(rec.Header().Get("Content-Type"), "application/json")
	}
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, apiPath, nil))
	if rec.Code != http.StatusMethodNotAllowed || rec.Header().Get("Allow") != "GET, HEAD" || !isJSON(rec) {
		t.Errorf("POST %s: status %d, Allow %q, body %q; want 405, GET, HEAD and JSON", apiPath, rec.Code, rec.Header().Get("Allow"), rec.Body.String())
	}
	for path, wantJSON := range map[string]bool{apiPath: true, "/": false} {
		req := httptest.NewRequest(http.MethodGet, path, nil)
		req.Host = "evil.example:8080"
		rec := httptest.NewRecorder()
		loopbackOnly(s).ServeHTTP(rec, req)
		if rec.Code != http.StatusMisdirectedRequest || isJSON(rec) != wantJSON {
			t.Errorf("GET %s from another host: status %d, body %q; want 421, JSON %v", path, rec.Code, rec.Body.String(), wantJSON)
		}
	}
}

// A path under /api/ that is not the API is answered 404 in JSON, as the
// API's errors are, so that a script that asks for the wrong path reads
// why; the page's other paths keep their text.
func TestAnUnknownAPIPathIsAnsweredInJSON(t *testing.T) {
	s := newTestServer(0)
	for _, path := range []string{"/api/report/", "/api/nope", "/api/"} {
		rec := get(t, s, path)
		var e struct{ Error string }
		if rec.Code != http.StatusNotFound || json.Unmarshal(rec.Body.Bytes(), &e) != nil || !strings.Contains(e.Error, "the API is GET /api/report") {
			t.Errorf("GET %s: status %d, body %q; want 404 and a JSON error naming the API", path, rec.Code, rec.Body.String())
		}
	}
	if rec := get(t, s, "/nope"); rec.Code != http.StatusNotFound || strings.HasPrefix(rec.Header().Get("Content-Type"), "application/json") {
		t.Errorf("GET /nope: status %d, Content-Type %q; want 404 in text", rec.Code, rec.Header().Get("Content-Type"))
	}
}

// An upload's key is 32 hexadecimal digits in either case: written in
// upper case it names the same upload, here one never kept (404), never a
// key refused as malformed (400).
func TestAnUploadKeyInUpperCaseIsAKey(t *testing.T) {
	s := newTestServer(0)
	rec := get(t, s, "/api/report?trace="+strings.Repeat("AB", 16))
	if rec.Code != http.StatusNotFound {
		t.Errorf("an upper-case key: status %d, body %q; want 404, a key this server never kept", rec.Code, rec.Body.String())
	}
}

// A request that ends while it waits its turn to run, as when the server
// stops while two others run, is answered 503, as the server's to retry,
// not 422, which says the request's trace or query is at fault; so is one
// whose runs are cut short.
func TestARequestEndedWaitingItsTurnIsUnavailable(t *testing.T) {
	s := newTestServer(0)
	for range MaxRunning {
		s.running <- struct{}{} // the requests running
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, apiPath, nil).WithContext(ctx))
	var e struct{ Error string }
	if err := json.Unmarshal(rec.Body.Bytes(), &e); rec.Code != http.StatusServiceUnavailable || err != nil || !strings.Contains(e.Error, "waited its turn") {
		t.Errorf("a request ended waiting its turn: status %d, body %q; want 503 and why", rec.Code, rec.Body.String())
	}
	if got := status(fmt.Errorf("pass 1: %w", context.Canceled)); got != http.StatusServiceUnavailable {
		t.Errorf("runs cut short: status %d; want 503", got)
	}
}
