package serve

// An upload's flags are its form's fields; a query on POST /upload, which
// the handler never reads, must be refused or kept, never dropped without
// a word: POST /upload?layouts=free would otherwise run the trace under
// the default layouts and redirect to a page that does not say the
// layouts asked for were ignored. The standards: nothing silently dropped;
// the server refuses every parameter it does not take (parseQuery).

import (
	"bytes"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestAnUploadsQueryIsNotDroppedWithoutAWord(t *testing.T) {
	s := newTestServer(0)
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	f, _ := w.CreateFormFile("events", "t.csv")
	f.Write([]byte("key,line,step,duration\nK1,L1,1,2\nK2,L1,1,1\n"))
	w.Close()
	req := httptest.NewRequest(http.MethodPost, "/upload?layouts=free&policy=lane-aware", &body)
	req.Header.Set("Content-Type", w.FormDataContentType())
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, req)
	loc := rec.Header().Get("Location")
	if rec.Code == http.StatusSeeOther && !(strings.Contains(loc, "layouts=free") && strings.Contains(loc, "policy=lane-aware")) {
		t.Errorf("POST /upload?layouts=free&policy=lane-aware: status 303 to %q, which drops the query's flags; want them kept in the link, or the upload refused naming them", loc)
	}
}
