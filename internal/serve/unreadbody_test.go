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

// TestARefusalDoesNotWaitForTheBody checks that the server answers a
// request it refuses before reading its body at once, and closes the
// connection, whatever the client still has to send. net/http reads up
// to 256 KiB of an unread body before it answers, to keep the connection
// for another request: a client that sent its headers and a few bytes
// and then stalled, or sends slowly, heard nothing until the server's
// 5-minute read timeout (left by stop 62's note); and once it had its
// answer, net/http still read up to 256 KiB, holding the connection until
// then (found by a review). Each case declares a body of 100 bytes, or
// sends it in chunks, sends 10 bytes of it and waits, bounded by a
// deadline: the answer comes, and then the connection's end.
func TestARefusalDoesNotWaitForTheBody(t *testing.T) {
	busy := newTestServer(0)
	busy.readingWait = time.Millisecond
	for range maxReading {
		busy.reading <- struct{}{} // every turn to be read taken
	}
	cases := []struct {
		name   string
		h      http.Handler
		line   string
		host   string
		status int
	}{
		{"a host not this machine's", loopbackOnly(newTestServer(0)), "POST /upload", "evil.example", http.StatusMisdirectedRequest},
		{"an upload whose query is refused", newTestServer(0), "POST /upload?layouts=nonsense", "localhost", http.StatusBadRequest},
		{"an upload while every turn to read is taken", busy, "POST /upload", "localhost", http.StatusServiceUnavailable},
		{"an upload that is no form", newTestServer(0), "POST /upload", "localhost", http.StatusBadRequest},
		{"the API, which takes GET", newTestServer(0), "POST /api/report", "localhost", http.StatusMethodNotAllowed},
		{"an upload's path not in its canonical form", newTestServer(0), "POST //upload", "localhost", http.StatusTemporaryRedirect},
		{"a path served by no one", newTestServer(0), "POST /nowhere", "localhost", http.StatusNotFound},
		{"a query too long", newTestServer(0), "POST /?" + strings.Repeat("a", maxQueryBytes+1), "localhost", http.StatusRequestURITooLong},
	}
	framings := map[string]string{
		"declared": "Content-Length: 100\r\n\r\n0123456789",
		"chunked":  "Transfer-Encoding: chunked\r\n\r\n64\r\n0123456789",
	}
	for _, c := range cases {
		for framing, body := range framings {
			t.Run(c.name+", "+framing, func(t *testing.T) { refusedAtOnce(t, c.h, c.line, c.host, body, c.status) })
		}
	}
}

// refusedAtOnce sends h the request line and host with a body of which
// the client sends only what body (the framing's headers and first bytes)
// holds, and checks that the answer is status, that it says the connection
// closes, and that it does.
func refusedAtOnce(t *testing.T, h http.Handler, line, host, body string, status int) {
	t.Helper()
	srv := httptest.NewServer(h)
	defer srv.Close()
	conn, err := net.Dial("tcp", srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(20 * time.Second)) // bounded: before the fix, no answer came
	fmt.Fprintf(conn, "%s HTTP/1.1\r\nHost: %s\r\nContent-Type: text/plain\r\n%s", line, host, body)
	br := bufio.NewReader(conn)
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatalf("%s %s with a stalled body: %v; want an answer before the body ends", line[:4], host, err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != status {
		t.Errorf("status %d; want %d", resp.StatusCode, status)
	}
	if !resp.Close {
		t.Errorf("the answer keeps the connection (Connection %q); want it closed, as the rest of the body is never read", resp.Header.Get("Connection"))
	}
	if n, err := br.Read(make([]byte, 1)); err != io.EOF {
		t.Errorf("after the answer, a read gives %d bytes, %v; want the connection closed (EOF), not held while the body is awaited", n, err)
	}
}

// TestAnAnswerThatReadsTheBodyKeepsTheConnection checks the other side of
// closeUnread: an upload read to its end, and a request with no body,
// keep their connection for the next request, as HTTP/1.1 does.
func TestAnAnswerThatReadsTheBodyKeepsTheConnection(t *testing.T) {
	srv := httptest.NewServer(newTestServer(0))
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
	conn.SetDeadline(time.Now().Add(20 * time.Second))
	br := bufio.NewReader(conn)
	fmt.Fprintf(conn, "POST /upload HTTP/1.1\r\nHost: localhost\r\nContent-Type: %s\r\nContent-Length: %d\r\n\r\n", w.FormDataContentType(), body.Len())
	conn.Write(body.Bytes())
	fmt.Fprintf(conn, "GET /static/page.css HTTP/1.1\r\nHost: localhost\r\n\r\n") // on the same connection
	for _, want := range []int{http.StatusSeeOther, http.StatusOK} {
		resp, err := http.ReadResponse(br, nil)
		if err != nil {
			t.Fatalf("want %d on a kept connection: %v", want, err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != want || resp.Close {
			t.Errorf("status %d, closing %v; want %d, the connection kept", resp.StatusCode, resp.Close, want)
		}
	}
}
