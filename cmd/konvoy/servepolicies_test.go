package main

// The page shows, or says it leaves out, every run a view makes: the
// lesson's page for -policy head-of-line,static has static's figures
// beside head-of-line's (its latency table has a row per layout and
// policy, as the command's has: "each adds a row per layout to a latency
// table", konvoy -help), and a note that its first table and pictures are
// head-of-line's alone. Nothing is silently dropped, and a partial result
// is never shown as whole.

import (
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"github.com/sirali-konvoy/konvoy/internal/serve"
)

func TestServeLessonPageShowsOrNotesEveryPolicy(t *testing.T) {
	s := serve.New(serveConfig("", serve.DefaultMaxUpload))
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/?policy=head-of-line,static", nil))
	if rec.Code != http.StatusOK {
		t.Fatalf("GET /?policy=head-of-line,static: status %d", rec.Code)
	}
	if api := apiGet(t, s, "/api/report?policy=head-of-line,static"); !strings.Contains(api, `"policy":"static"`) {
		t.Fatalf("the API's answer has no static run")
	}
	// What the page shows of its runs: everything but its head (which
	// links /static/), its forms (the controls, the upload) and the
	// command line that names the flags.
	page := rec.Body.String()
	for _, re := range []string{`(?s)<head>.*?</head>`, `(?s)<form.*?</form>`, `(?s)<section aria-labelledby="api-title">.*?</section>`} {
		page = regexp.MustCompile(re).ReplaceAllString(page, "")
	}
	if !strings.Contains(page, "static") {
		t.Errorf("the lesson's page for -policy head-of-line,static shows no figure of static and no note that it leaves them out; its results:\n%s",
			regexp.MustCompile(`(?s)<caption>[^<]*</caption>`).FindAllString(page, -1))
	}
}
