package serve

// A request whose run alone outgrows the memory the server gives it is
// told so in the server's words, with what its user can do: the page's and
// the API's errors go through report.PageWords ("the memory konvoy serve
// gives a request"), and name no -max-memory, which neither a query nor
// konvoy serve takes (RunFlags and TraceFlags leave it out); the command
// alone adds that flag to the error. The command's parser gives every
// request konvoy.DefaultMaxMemory (1 GiB); this test's parser gives 1 MiB,
// so that a trace of some thousands of keys outgrows it.

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
		if r.Code == http.StatusOK || !strings.Contains(body, "memory konvoy serve gives a request") || !strings.Contains(body, "run konvoy -events on the trace") {
			t.Fatalf("GET %s: status %d; want the memory error\n%.600s", target, r.Code, body)
		}
		if strings.Contains(body, "-max-memory") {
			i := strings.Index(body, "-max-memory")
			t.Errorf("GET %s: the error tells to raise -max-memory, which neither a query nor konvoy serve takes: ...%s",
				target, body[max(0, i-120):min(len(body), i+160)])
		}
	}
}
