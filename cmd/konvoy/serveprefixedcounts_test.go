package main

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sirali-konvoy/konvoy/internal/serve"
)

// konvoy serve answers a consumer count that is not in decimal digits (a
// base prefix, 0x, 0o, 0b, or a leading zero) as the command does, whatever
// its value: the server's check read 0101 as octal 65 and told it the
// server's range (found by a review of that check's fix).
func TestServeTellsACountNotInDecimalAsTheCommandDoes(t *testing.T) {
	name := filepath.Join(t.TempDir(), "t.csv")
	if err := os.WriteFile(name, []byte("key,line,step,duration\nA,x,1,1\nA,x,2,3\nB,y,1,2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	const want = "want a whole number in decimal digits, without a leading zero"
	// A list is judged as the command judges it, reading every value before
	// any range: the server skipped 0101 and told 0 after it the server's
	// range, and then told 0 before it so (found by two reviews).
	for _, v := range []string{"0x40", "0x41", "0100", "0101", "0b1000001", "0o101", "-0x1", "+0x41", "0xFFFFFFFFFFFFFFFFFFFF", "4,0101",
		"0101,0", "0x41,99999999999999999999", "0,0101", "100,0x41"} {
		if _, errOut, _ := runCommand("-format", "json", "-events", name, "-consumers", v); !strings.Contains(errOut, want) {
			t.Fatalf("the command on %s: %q; want %q", v, errOut, want)
		}
		rec := httptest.NewRecorder()
		serve.New(serveConfig(name, serve.DefaultMaxUpload)).ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/api/report?consumers="+url.QueryEscape(v), nil))
		if body := rec.Body.String(); rec.Code != http.StatusBadRequest || !strings.Contains(body, want) {
			t.Errorf("GET /api/report?consumers=%s: %d %s; want 400 and, as the command says, %q", v, rec.Code, strings.TrimSpace(body), want)
		}
	}
	// A value that is no number at all is the command's to name too.
	for _, v := range []string{"abc,0", "0,abc", "1e3,100", "4,1.5,0", "x,99999999999999999999"} {
		_, errOut, _ := runCommand("-format", "json", "-events", name, "-consumers", v)
		rec := httptest.NewRecorder()
		serve.New(serveConfig(name, serve.DefaultMaxUpload)).ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/api/report?consumers="+url.QueryEscape(v), nil))
		if body := rec.Body.String(); rec.Code != http.StatusBadRequest || strings.Contains(body, "want 1 to 64") || strings.Contains(errOut, "want 1 to") {
			t.Errorf("consumers=%s: the server %d %s, the command %q; want both to name the value that is no number", v, rec.Code, strings.TrimSpace(body), firstLines(errOut, 1))
		}
	}
}
