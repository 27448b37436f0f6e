package serve

import (
	"bytes"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/textproto"
	"strings"
	"testing"
)

// formOf is a multipart form of blank fields, then one of pad spaces,
// all named history and so left out once read, and the trace trace, or
// the trace first when traceFirst; and the form's content type.
func formOf(blank, pad int, trace string, traceFirst bool) (*bytes.Buffer, string) {
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	file := func() {
		f, _ := w.CreateFormFile(uploadField, "t.csv")
		f.Write([]byte(trace))
	}
	if traceFirst {
		file()
	}
	for range blank {
		w.WriteField("history", "")
	}
	w.WriteField("history", strings.Repeat(" ", pad))
	if !traceFirst {
		file()
	}
	w.Close()
	return &body, w.FormDataContentType()
}

// TestTheFormBesideTheTraceIsBoundedWithItsFraming checks the bound the
// documentation states on what an upload sends beside its trace: "64 KiB
// in all with their framing (413 beyond, naming the form)". The server
// counted only the fields' values, so that 15,000 blank fields, some 960
// KB of part headers and boundaries beside a 33-byte trace, were taken
// (found by a review). Every byte of the body outside the trace's part
// counts: a form of exactly 64 KiB beside the trace is taken, one of a
// byte more is refused, before the trace or after it; and so is the
// reviewer's form, well within the body's limit of a large -max-upload.
func TestTheFormBesideTheTraceIsBoundedWithItsFraming(t *testing.T) {
	const trace = "key,line,step,duration\nK1,L1,1,2\n"
	send := func(s *Server, body *bytes.Buffer, contentType string) *httptest.ResponseRecorder {
		req := httptest.NewRequest(http.MethodPost, "/upload", body)
		req.Header.Set("Content-Type", contentType)
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, req)
		return rec
	}
	for _, traceFirst := range []bool{false, true} {
		body, _ := formOf(540, 0, trace, traceFirst)
		pad := maxFormBytes - (body.Len() - len(trace)) // the spaces that make the form beside the trace 64 KiB
		if pad < 0 || pad > maxFieldBytes {
			t.Fatalf("540 blank fields make %d bytes beside the trace; the test wants 60 to 64 KiB", body.Len()-len(trace))
		}
		for _, extra := range []int{0, 1} {
			s := newTestServer(0)
			body, contentType := formOf(540, pad+extra, trace, traceFirst)
			beside := body.Len() - len(trace)
			rec := send(s, body, contentType)
			want := http.StatusSeeOther
			if beside > maxFormBytes {
				want = http.StatusRequestEntityTooLarge
			}
			if rec.Code != want || want != http.StatusSeeOther && !strings.Contains(rec.Body.String(), "beside the trace") {
				t.Errorf("%d bytes beside the trace (trace first: %v): status %d; want %d (413 naming the form beyond 64 KiB)", beside, traceFirst, rec.Code, want)
			}
		}
	}
	s := newTestServer(0)
	body, contentType := formOf(15_000, 0, trace, false)
	beside := body.Len() - len(trace)
	if rec := send(s, body, contentType); rec.Code != http.StatusRequestEntityTooLarge || !strings.Contains(rec.Body.String(), "beside the trace") {
		t.Errorf("15,000 blank fields, %d bytes beside the trace: status %d; want 413 naming the form", beside, rec.Code)
	}
	if s.uploads.held != 0 {
		t.Error("an upload refused for its form was kept")
	}
}

// TestAQuotedPrintableTraceIsDecoded checks that a trace's part sent
// quoted-printable is read decoded, as multipart.Reader.NextPart reads
// it: the form is read with NextRawPart, so that the bytes of the trace's
// part can be counted apart from the form beside it, and decodes such a
// part itself.
func TestAQuotedPrintableTraceIsDecoded(t *testing.T) {
	s := newTestServer(0)
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	h := make(textproto.MIMEHeader)
	h.Set("Content-Disposition", `form-data; name="events"; filename="t.csv"`)
	h.Set("Content-Transfer-Encoding", "quoted-printable")
	f, _ := w.CreatePart(h)
	f.Write([]byte("key,line,step,duration=0AK=31,L1,1,2=0AK2,L2,1,3=0A"))
	w.WriteField("steps", "a=3Db") // a field is decoded only when its part says so
	w.Close()
	req := httptest.NewRequest(http.MethodPost, "/upload", &body)
	req.Header.Set("Content-Type", w.FormDataContentType())
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, req)
	if rec.Code != http.StatusSeeOther {
		t.Fatalf("status %d; want 303: %s", rec.Code, rec.Body.String())
	}
	loc := rec.Header().Get("Location")
	page := get(t, s, strings.Replace(loc, "steps=a%3D3Db&", "", 1)).Body.String()
	if !strings.Contains(loc, "steps=a%3D3Db") || !strings.Contains(page, "The trace t.csv: 2 events, 2 keys") {
		t.Errorf("link %s; want the steps field as sent, and a page of the trace decoded, 2 events of 2 keys", loc)
	}
}
