package serve

import (
	"bytes"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestARefusedUploadKeepsTheFieldsSentAfterItsTrace checks that a refused
// upload's page keeps in its form the trace flags sent after the trace's
// file, as the page's own form sends them (its file input comes first),
// and as the documentation promises: "A refused upload's page keeps, in
// its form, every trace flag the upload was sent with". The server
// stopped reading at the trace's refusal, so that those fields were lost
// (found by a review); it now reads and lets go of the rest of the
// trace's part, within the body's limit, and reads the fields after it.
// A trace too large and a broken gzip-compressed one are both refused
// with their own error, not one of the fields read after them.
func TestARefusedUploadKeepsTheFieldsSentAfterItsTrace(t *testing.T) {
	for _, c := range []struct {
		name, data string
		status     int
	}{
		{"big.csv", strings.Repeat("x", 200), http.StatusRequestEntityTooLarge},
		{"broken.csv.gz", "\x1f\x8bnot gzip", http.StatusBadRequest},
	} {
		s := newTestServer(100)
		var body bytes.Buffer
		w := multipart.NewWriter(&body)
		f, _ := w.CreateFormFile(uploadField, c.name)
		f.Write([]byte(c.data))
		w.WriteField("steps", "accepted,delivered")
		w.WriteField("round", "100ms")
		w.Close()
		req := httptest.NewRequest(http.MethodPost, "/upload", &body)
		req.Header.Set("Content-Type", w.FormDataContentType())
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, req)
		page := rec.Body.String()
		if rec.Code != c.status || !strings.Contains(page, c.name) {
			t.Errorf("%s: status %d; want %d naming the trace", c.name, rec.Code, c.status)
		}
		if !strings.Contains(page, `name="steps" type="text" value="accepted,delivered"`) || !strings.Contains(page, `name="round" type="text" value="100ms"`) {
			t.Errorf("%s: the refused upload's form lost the steps or round field, sent after the trace", c.name)
		}
		if s.uploads.held != 0 {
			t.Errorf("%s: a refused upload was kept", c.name)
		}
	}
}
