package main

import (
	"html"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/sirali-konvoy/konvoy/internal/serve"
)

// TestThePagesCommandRunsAndPrintsTheAPIsAnswer checks the page's promise
// that the command it shows prints, byte for byte, what the API answers
// for the view: on a served file whose trace flag a view gives again, the
// page showed both values (-duration-model=uniform:1,5 and
// -duration-model=exp:2), and konvoy refuses a flag given twice (found by
// a review). The page now writes each flag once, with the value the API
// takes, the view's. The shown line's arguments need no shell quotes
// here beyond the ones taken off.
func TestThePagesCommandRunsAndPrintsTheAPIsAnswer(t *testing.T) {
	name := filepath.Join(t.TempDir(), "d.csv")
	if err := os.WriteFile(name, []byte("key,line,step,dur\nA,x,1,2\nB,y,1,1\nA,x,2,1\nC,y,1,3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		served []string
		query  string
	}{
		{[]string{"-duration-model=uniform:1,5", "-seed=3"}, "duration-model=exp:2"},
		{[]string{"-duration-model=uniform:1,5", "-seed=3"}, "duration-model=exp:2&seed=4"},
		{[]string{"-duration=dur", "-key=key"}, "duration=dur&key=line"},
	} {
		cfg := serveConfig(name, serve.DefaultMaxUpload)
		cfg.EventsArgs = c.served
		s := serve.New(cfg)
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/?"+c.query, nil))
		m := regexp.MustCompile(`<pre id="command">([^<]*)</pre>`).FindStringSubmatch(rec.Body.String())
		if m == nil {
			t.Fatalf("served with %q, ?%s: no command on the page (status %d)", c.served, c.query, rec.Code)
		}
		line := html.UnescapeString(m[1])
		args := strings.Fields(strings.ReplaceAll(line, "'", ""))[1:]
		want := apiGet(t, s, "/api/report?"+c.query)
		got, errOut, status := runCommand(args...)
		if status != 0 || got != want {
			t.Errorf("served with %q, ?%s: the page shows %s, which exits %d (%s) and prints what the API answers: %v",
				c.served, c.query, line, status, strings.TrimSpace(errOut), got == want)
		}
	}
}
