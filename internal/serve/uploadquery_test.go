package serve

// An upload's flags are its form's fields and its query's: POST
// /upload?layouts=free&policy=lane-aware redirects to the trace's page
// under those flags, as a script sending a trace with curl expects. A
// query the page would refuse (an unknown parameter), or one naming a
// trace, is refused with 400 before the trace is read: nothing is
// dropped without a word.

import (
	"bytes"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestAnUploadsQueryFlagsJoinItsForms(t *testing.T) {
	s := newTestServer(0)
	for _, tt := range []struct{ query, want string }{
		{"bogus=1", "unknown parameter &#34;bogus&#34;"},
		{"trace=0123456789abcdef0123456789abcdef", "names trace"},
		{"layouts=%zz", "does not parse"},
	} {
		var body bytes.Buffer
		w := multipart.NewWriter(&body)
		f, _ := w.CreateFormFile("events", "t.csv")
		f.Write([]byte("key,line,step,duration\nK1,L1,1,2\n"))
		w.Close()
		req := httptest.NewRequest(http.MethodPost, "/upload?"+tt.query, &body)
		req.Header.Set("Content-Type", w.FormDataContentType())
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, req)
		if rec.Code != http.StatusBadRequest || !strings.Contains(rec.Body.String(), tt.want) {
			t.Errorf("POST /upload?%s: status %d, %.300s; want 400 and %s", tt.query, rec.Code, rec.Body.String(), tt.want)
		}
	}
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
