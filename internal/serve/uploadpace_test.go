package serve

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"mime/multipart"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// TestAStalledUploadGivesUpItsTurn checks the pace of an upload's reads
// (see pace): an upload that sends its first bytes and stalls is cut once
// it falls below the pace, with 408 saying so, and its turn to be read
// goes back, rather than held until the server's 5-minute read timeout
// while others are turned away (found by a review). An upload that keeps
// the pace is read as before.
func TestAStalledUploadGivesUpItsTurn(t *testing.T) {
	s := newTestServer(0)
	s.uploadGrace, s.uploadRate = 300*time.Millisecond, 1<<20
	srv := httptest.NewServer(s)
	defer srv.Close()

	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	f, _ := w.CreateFormFile("events", "t.csv")
	f.Write([]byte(goodTrace))
	w.Close()
	conn, err := net.Dial("tcp", srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(20 * time.Second)) // bounded, whatever the server does
	sent := body.Len() / 2
	fmt.Fprintf(conn, "POST /upload HTTP/1.1\r\nHost: x\r\nContent-Type: %s\r\nContent-Length: %d\r\n\r\n", w.FormDataContentType(), body.Len())
	conn.Write(body.Bytes()[:sent]) // and no more
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("a stalled upload: %v; want the server's answer within the pace", err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	want := fmt.Sprintf("the upload sent %d bytes in ", sent)
	if resp.StatusCode != http.StatusRequestTimeout || !strings.Contains(string(page), want) || !strings.Contains(string(page), "less than 1048576 bytes a second after its first 300ms") {
		t.Errorf("a stalled upload: status %d; want 408 saying %q and the pace:\n%.600s", resp.StatusCode, want, page)
	}
	if n := len(s.reading); n != 0 {
		t.Errorf("after a stalled upload was cut, %d uploads hold a turn to be read; want 0", n)
	}

	// An upload that keeps the pace, on a server of the same rate and a
	// grace a busy machine may take to read the whole form.
	s2 := newTestServer(0)
	s2.uploadGrace, s2.uploadRate = 10*time.Second, 1<<20
	srv2 := httptest.NewServer(s2)
	defer srv2.Close()
	req, _ := http.NewRequest(http.MethodPost, srv2.URL+"/upload", bytes.NewReader(body.Bytes()))
	req.Header.Set("Content-Type", w.FormDataContentType())
	client := &http.Client{Timeout: 20 * time.Second, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err = client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther {
		t.Errorf("an upload at the pace: status %d; want 303, to the trace's page", resp.StatusCode)
	}
}

// TestAPaceNeverPassesTheReadTimeout checks pace.before's arithmetic: the
// deadline is the grace plus the time the bytes read take at the rate,
// and never past readTimeout, even for counts whose time would overflow a
// Duration.
func TestAPaceNeverPassesTheReadTimeout(t *testing.T) {
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		n, rate int64
		want    time.Duration
	}{
		{0, 1000, time.Second},
		{1500, 1000, 2500 * time.Millisecond},
		{1, 3, time.Second + 333333333},
		{1000 * 299, 1000, 300 * time.Second},
		{1000 * 300, 1000, readTimeout},
		{1 << 62, 1, readTimeout},
	} {
		got := paceDeadline(start, time.Second, c.rate, c.n)
		if got.Sub(start) != c.want {
			t.Errorf("%d bytes read at %d a second after a 1 s grace: deadline after %v; want %v", c.n, c.rate, got.Sub(start), c.want)
		}
	}
}
