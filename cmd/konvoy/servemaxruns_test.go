package main

// A request makes at most 100 runs (docs/serve.md: "its runs to 100"),
// counted with every layout it runs: -layouts all on a trace that records
// partitions runs the layout recorded too, an eighth layout, which the
// server counts once the trace tells it joins. Seven layouts at 14
// consumer counts are 98 runs, and 112 with recorded: the API and the
// page refuse the request, as they do 105 runs.

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sirali-konvoy/konvoy/internal/serve"
)

func TestServeCountsRecordedInARequestsRuns(t *testing.T) {
	var b strings.Builder
	b.WriteString("key,line,step,duration,partition\n")
	for i := range 8 {
		fmt.Fprintf(&b, "K%d,L1,1,1,%d\n", i, i%2)
	}
	path := filepath.Join(t.TempDir(), "parts.csv")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	s := serve.New(serveConfig(path, serve.DefaultMaxUpload))
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/api/report?layouts=all&consumers=1,2,3,4,5,6,7,8,9,10,11,12,13,14", nil))
	if runs := strings.Count(rec.Body.String(), `"layout":`); rec.Code == http.StatusOK && runs > 100 {
		t.Errorf("-layouts all at 14 consumer counts on a trace with partitions: status 200 and %d runs; want at most 100, or the request refused", runs)
	}
	rec = httptest.NewRecorder()
	s.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/?consumers=1,2,3,4,5,6,7,8,9,10,11,12,13,14&layouts=all", nil))
	if rec.Code != http.StatusBadRequest || !strings.Contains(rec.Body.String(), "ask for 112 runs") {
		t.Errorf("the page of -layouts all at 14 consumer counts on a trace with partitions: status %d; want 400, 112 runs refused", rec.Code)
	}
}
