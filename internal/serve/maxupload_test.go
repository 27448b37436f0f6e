package serve

import (
	"bytes"
	"context"
	"math"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// TestALargeMaxUploadTakesASmallUpload: the largest MaxUpload a server
// takes, MaxUploadLimit, takes a small upload (its sums of sizes do not
// overflow); one above it is a programmer's mistake, and New panics with
// konvoy's prefix (konvoy serve -max-upload refuses it first).
func TestALargeMaxUploadTakesASmallUpload(t *testing.T) {
	s := newTestServer(MaxUploadLimit)
	if rec := post(t, s, "t.csv", []byte(goodTrace), "steps", "a,b"); rec.Code != http.StatusSeeOther {
		t.Errorf("MaxUpload %d: an upload of %d bytes answers %d; want 303 to its page", MaxUploadLimit, len(goodTrace), rec.Code)
	}
	for _, max := range []int64{MaxUploadLimit + 1, math.MaxInt64} {
		func() {
			defer func() {
				if v, ok := recover().(string); !ok || !strings.HasPrefix(v, "konvoy: serve.New: Config.MaxUpload is") {
					t.Errorf("New with MaxUpload %d panicked with %v; want konvoy's prefix", max, v)
				}
			}()
			newTestServer(max)
		}()
	}
}

// At most maxReading uploads are read at once, each up to MaxUpload in
// memory: one that comes while that many are read waits its turn, and
// one whose request ends while it waits is answered 503 and not kept.
func TestUploadsWaitTheirTurnToBeRead(t *testing.T) {
	s := newTestServer(0)
	for range maxReading {
		s.reading <- struct{}{} // uploads being read
	}
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	f, _ := w.CreateFormFile("events", "t.csv")
	f.Write([]byte(goodTrace))
	w.Close()
	ctx, cancel := context.WithCancel(context.Background())
	req := httptest.NewRequestWithContext(ctx, http.MethodPost, "/upload", &body)
	req.Header.Set("Content-Type", w.FormDataContentType())
	rec := httptest.NewRecorder()
	done := make(chan struct{})
	go func() { defer close(done); s.ServeHTTP(rec, req) }()
	select {
	case <-done:
		t.Fatalf("an upload was read while %d others were: status %d", maxReading, rec.Code)
	case <-time.After(20 * time.Millisecond): // waiting, as it should: a check that it did not finish, not a timing
	}
	cancel()
	<-done
	if rec.Code != http.StatusServiceUnavailable || s.uploads.held != 0 {
		t.Fatalf("an upload whose request ended while it waited: status %d, %d bytes kept; want 503 and none", rec.Code, s.uploads.held)
	}
	for range maxReading {
		<-s.reading
	}
	if rec := post(t, s, "t.csv", []byte(goodTrace)); rec.Code != http.StatusSeeOther {
		t.Fatalf("an upload with its turn: status %d; want 303", rec.Code)
	}
}

// An upload that waits its turn while maxReading others are read, sent
// slowly, say, for up to readTimeout, waits readingWait at most: then it
// is answered 503, saying why, and not kept, where it waited as long as
// they took, its connection and goroutine held (found by a review: two
// slow uploads held every other for 5 minutes).
func TestAnUploadWaitsItsTurnBoundedly(t *testing.T) {
	s := newTestServer(0)
	s.readingWait = time.Millisecond
	for range maxReading {
		s.reading <- struct{}{} // uploads being read, and not ending
	}
	rec := post(t, s, "t.csv", []byte(goodTrace))
	if rec.Code != http.StatusServiceUnavailable || !strings.Contains(rec.Body.String(), "send the trace again in a while") || s.uploads.held != 0 {
		t.Errorf("an upload behind %d that do not end: status %d, %d bytes kept; want 503, that it may be sent again, and none kept:\n%.400s", maxReading, rec.Code, s.uploads.held, rec.Body.String())
	}
	if got := newTestServer(0).readingWait; got != readingWait {
		t.Errorf("a new server waits %v for an upload's turn; want readingWait, %v", got, readingWait)
	}
}
