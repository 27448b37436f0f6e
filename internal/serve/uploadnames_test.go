package serve

import (
	"bytes"
	"html"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// pageError is the error message a page shows, unescaped.
func pageError(page string) string {
	_, msg, _ := strings.Cut(page, "<pre>")
	msg, _, _ = strings.Cut(msg, "</pre>")
	return html.UnescapeString(msg)
}

// An upload's errors name the file: one whose body ends inside its
// trace's part (a connection cut, a client that stopped), and one beyond
// -max-upload, as a gzip bomb's already did; and a form field beyond 4 KiB
// is refused with 413, as docs/serve.md says, not 400 (found by a review).
func TestAnUploadsErrorsNameItsFile(t *testing.T) {
	s := newTestServer(0)
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	f, err := w.CreateFormFile("events", "shipments.csv")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write([]byte("key,line,status,duration\nK1,L1,a,1\nK2,L1,a,1\n")); err != nil {
		t.Fatal(err)
	}
	cut := body.Bytes()[:body.Len()-5] // no closing boundary: the trace cut short
	req := httptest.NewRequest(http.MethodPost, "/upload", bytes.NewReader(cut))
	req.Header.Set("Content-Type", w.FormDataContentType())
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, req)
	if msg := pageError(rec.Body.String()); rec.Code != http.StatusBadRequest || !strings.Contains(msg, "konvoy serve: shipments.csv: reading the upload: ") {
		t.Errorf("an upload cut short: status %d, %q; want 400 naming shipments.csv", rec.Code, msg)
	}
	rec = post(t, newTestServer(1000), "shipments.csv", bytes.Repeat([]byte("K,L,a,1\n"), 200))
	if msg := pageError(rec.Body.String()); rec.Code != http.StatusRequestEntityTooLarge || !strings.Contains(msg, "konvoy serve: shipments.csv: the trace is larger than") {
		t.Errorf("an upload past -max-upload: status %d, %q; want 413 naming shipments.csv", rec.Code, msg)
	}
	rec = post(t, s, "ok.csv", []byte("key,line,status,duration\nK,L,a,1\n"), "steps", strings.Repeat("a", maxFieldBytes+1))
	if msg := pageError(rec.Body.String()); rec.Code != http.StatusRequestEntityTooLarge || !strings.Contains(msg, "the form's field steps has more than 4096 bytes") {
		t.Errorf("a field of %d bytes: status %d, %q; want 413 naming the field", maxFieldBytes+1, rec.Code, msg)
	}
}

// The page's "report as konvoy prints it" is konvoy's text for the view's
// flags: with the latency table only when the view names a policy, as
// konvoy prints it only under -policy; it was there always (found by a
// review).
func TestThePagesReportIsKonvoysText(t *testing.T) {
	s := newTestServer(0)
	loc := post(t, s, "shipments.csv", []byte(goodTrace), "steps", "a,b").Header().Get("Location")
	for _, tt := range []struct {
		query   string
		latency bool
	}{{"", false}, {"&policy=lane-aware", true}} {
		page := get(t, s, loc+tt.query)
		_, text, _ := strings.Cut(page.Body.String(), `<pre id="report">`)
		text, _, _ = strings.Cut(text, "</pre>")
		if page.Code != 200 || text == "" || strings.Contains(text, "latency by layout and dispatch policy") != tt.latency {
			t.Errorf("%s%s: status %d, the latency table in the report %v; want %v:\n%s", loc, tt.query, page.Code, !tt.latency, tt.latency, text)
		}
	}
}
