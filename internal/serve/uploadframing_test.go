package serve

// An upload refused for what it sends beside its trace says so: a form of
// a 33-byte trace and a thousand blank fields, whose multipart framing
// passes the 64 KiB the server reads beside the trace (maxFormBytes: "its
// form's fields and the multipart framing"), is told with 413 that its
// form has too much beside the trace. It is not told that "the trace is
// larger than" -max-upload, which would blame a trace well within the
// limit and ask for it to be gzipped; nor, when the fields come first,
// that its well-formed form has a "malformed MIME header", which is where
// the server's cut of the body fell: an error says where the input is
// wrong and what was expected.

import (
	"bytes"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestAFormTooLargeBesideItsTraceIsToldSo(t *testing.T) {
	const trace = "key,line,step,duration\nK1,L1,1,2\n" // 33 bytes
	for _, fieldsFirst := range []bool{false, true} {
		s := newTestServer(1000)
		var body bytes.Buffer
		w := multipart.NewWriter(&body)
		fields := func() {
			for range 1000 {
				w.WriteField("history", "") // blank, left out, but framed: some 100 bytes each
			}
		}
		if fieldsFirst {
			fields()
		}
		f, _ := w.CreateFormFile("events", "t.csv")
		f.Write([]byte(trace))
		if !fieldsFirst {
			fields()
		}
		w.Close()
		sent := body.Len()
		req := httptest.NewRequest(http.MethodPost, "/upload", &body)
		req.Header.Set("Content-Type", w.FormDataContentType())
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, req)
		if rec.Code == http.StatusSeeOther {
			continue // the blank fields read and left out: no error to check
		}
		page := rec.Body.String()
		msg := page[strings.Index(page, "<pre>"):]
		msg = msg[:strings.Index(msg, "</pre>")]
		if rec.Code != http.StatusRequestEntityTooLarge || !strings.Contains(msg, "beside the trace") ||
			strings.Contains(msg, "the trace is larger than") || strings.Contains(msg, "malformed") {
			t.Errorf("a %d-byte trace with %d bytes of form beside it (fields first: %v): status %d, %s; want an error about the form beside the trace, not the trace's size or a malformed form",
				len(trace), sent-len(trace), fieldsFirst, rec.Code, msg)
		}
	}
}
