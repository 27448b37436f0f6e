package serve

import (
	"bytes"
	"fmt"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
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

// An upload sends one trace, and at most maxFormBytes beside it: a second
// trace file is refused rather than one of the two dropped, and fields
// past the bound, each within its own and blank, so that none is kept,
// are refused too, where only the whole body was bounded.
func TestAnUploadSendsOneTraceAndBoundedFields(t *testing.T) {
	s := newTestServer(0)
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	for _, name := range []string{"a.csv", "b.csv"} {
		f, _ := w.CreateFormFile(uploadField, name)
		f.Write([]byte("key,line,status,duration\nA,L,a,1\n"))
	}
	w.Close()
	req := httptest.NewRequest(http.MethodPost, "/upload", &body)
	req.Header.Set("Content-Type", w.FormDataContentType())
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, req)
	if rec.Code != http.StatusBadRequest || !strings.Contains(rec.Body.String(), "the form has two traces") {
		t.Errorf("two traces: status %d, %q; want 400 naming the two traces", rec.Code, strings.TrimSpace(rec.Body.String()))
	}
	var fields []string
	blank := strings.Repeat(" ", maxFieldBytes)
	for range maxFormBytes/maxFieldBytes + 1 {
		fields = append(fields, "steps", blank)
	}
	rec = post(t, s, "t.csv", []byte("key,line,step,duration\nA,L,1,1\n"), fields...)
	if rec.Code != http.StatusRequestEntityTooLarge || !strings.Contains(rec.Body.String(), "beside the trace") {
		t.Errorf("%d blank fields of %d bytes: status %d, %q; want 413", len(fields)/2, maxFieldBytes, rec.Code, strings.TrimSpace(rec.Body.String()))
	}
	if s.uploads.held != 0 {
		t.Error("a refused upload was kept")
	}
}

// A view whose query, within the 8 KiB the server takes, escapes to a
// link beyond it (a "(" is three bytes there) fails with 414, saying so:
// the page linked to the API with that link, and its form asked for it,
// both refused (found by a review).
func TestAViewWhoseLinkPassesTheLimitSaysSo(t *testing.T) {
	s := newTestServer(0)
	rec := post(t, s, "t.csv", []byte("key,line,step,duration\nA,L,1,1\n"))
	if rec.Code != http.StatusSeeOther {
		t.Fatalf("upload: status %d; want 303", rec.Code)
	}
	loc := rec.Header().Get("Location")
	target := loc + "&steps=" + strings.Repeat("(", 3000)
	if len(target) > maxQueryBytes {
		t.Fatalf("the query has %d bytes; the test wants it within %d", len(target), maxQueryBytes)
	}
	page := get(t, s, target)
	if want := "want at most 8192: shorten them"; page.Code != http.StatusRequestURITooLong || !strings.Contains(page.Body.String(), want) {
		t.Errorf("status %d; want 414 and %q", page.Code, want)
	}
	if !strings.HasPrefix(loc, "/?trace=") || get(t, s, loc).Code != http.StatusOK {
		t.Errorf("the upload's own page, %s: want 200", loc)
	}
}
