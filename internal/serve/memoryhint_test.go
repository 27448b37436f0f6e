package serve

// A request whose run alone outgrows the memory the server gives it must
// be told so in the server's words. The page's and the API's errors go
// through report.PageWords, which says "the memory konvoy serve gives a
// request" because neither a query nor konvoy serve takes -max-memory
// (RunFlags and TraceFlags leave it out; konvoy serve's flags are -addr,
// -max-upload, -events and the trace flags). Yet runs.Trace's memoryHint
// adds "-max-memory 1GiB, three quarters of it for the runs, is too little
// for this run alone ...: raise it", advice that no user of the page, the
// API or konvoy serve can follow. The command's parser gives every request
// konvoy.DefaultMaxMemory (1 GiB); this test's parser gives 1 MiB, so that
// a trace of some thousands of keys outgrows it.

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/sirali-konvoy/konvoy/internal/runs"
)

func TestAMemoryErrorNamesNoFlagTheServerLacks(t *testing.T) {
	s := New(Config{Runs: func(args []string) (runs.Options, error) {
		o, err := testRuns(args)
		o.MaxMemory = 1 << 20
		return o, err
	}})
	var b strings.Builder
	b.WriteString("key,line,status,duration\n")
	for i := range 20_000 {
		fmt.Fprintf(&b, "K%d,L%d,a,1\n", i, i)
	}
	rec := post(t, s, "keys.csv", []byte(b.String()), "steps", "a")
	loc := rec.Header().Get("Location")
	if rec.Code != http.StatusSeeOther {
		t.Fatalf("upload: status %d; want 303", rec.Code)
	}
	for _, target := range []string{"/api/report?" + strings.TrimPrefix(loc, "/?"), loc} {
		r := get(t, s, target)
		body := r.Body.String()
		if r.Code == http.StatusOK || !strings.Contains(body, "memory konvoy serve gives a request") {
			t.Fatalf("GET %s: status %d; want the memory error\n%.600s", target, r.Code, body)
		}
		if strings.Contains(body, "-max-memory") {
			i := strings.Index(body, "-max-memory")
			t.Errorf("GET %s: the error tells to raise -max-memory, which neither a query nor konvoy serve takes: ...%s",
				target, body[max(0, i-120):min(len(body), i+160)])
		}
	}
}
