package main

import (
	"bytes"
	"encoding/json"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/sirali-konvoy/konvoy/internal/serve"
)

// shipmentsFlags are the trace flags that read testdata/shipments.csv.
var shipmentsFlags = []string{"-steps=accepted,transfer,out-for-delivery,delivered", "-history=scanned,weighed"}

// apiCases are queries of /api/report and the command lines that print
// the same, for the lesson and for served traces.
var apiCases = []struct {
	events string   // the served trace, "" for the lesson
	flags  []string // its trace flags, as given to konvoy serve
	query  string
	args   []string // the query's flags on the command line
}{
	{"", nil, "", nil},
	{"", nil, "layouts=free,convoy&policy=lane-aware&consumers=8", []string{"-layouts", "free,convoy", "-policy", "lane-aware", "-consumers", "8"}},
	{"", nil, "layouts=all&policy=all&consumers=2,4", []string{"-layouts", "all", "-policy", "all", "-consumers", "2,4"}},
	{"", nil, "layouts=partitioned,resequencer&partitions=3&start=zero&reseq-capacity=1&reject-old=true",
		[]string{"-layouts", "partitioned,resequencer", "-partitions", "3", "-start", "zero", "-reseq-capacity", "1", "-reject-old"}},
	{"testdata/shipments.csv", shipmentsFlags, "", nil},
	{"testdata/shipments.csv", shipmentsFlags, "layouts=all&consumers=1,8&policy=static&assignor=round-robin",
		[]string{"-layouts", "all", "-consumers", "1,8", "-policy", "static", "-assignor", "round-robin"}},
	{"testdata/arrivals.csv", nil, "layouts=all&policy=all&consumers=4", []string{"-layouts", "all", "-policy", "all", "-consumers", "4"}},
	{"testdata/shipments.jsonl", shipmentsFlags, "history=scanned&steps=accepted,transfer,out-for-delivery,delivered,weighed",
		[]string{"-history", "scanned", "-steps", "accepted,transfer,out-for-delivery,delivered,weighed"}},
}

// TestServeAnswersWhatTheCommandPrints checks, byte for byte, that GET
// /api/report answers what konvoy -format json prints for the same flags:
// the server reads a query with the command's own parser and makes the
// runs with the same package.
func TestServeAnswersWhatTheCommandPrints(t *testing.T) {
	for _, c := range apiCases {
		t.Run(c.events+"?"+c.query, func(t *testing.T) {
			cfg := serveConfig(c.events, serve.DefaultMaxUpload)
			cfg.EventsArgs = c.flags
			got := apiGet(t, serve.New(cfg), "/api/report?"+c.query)
			args := []string{"-format", "json"}
			if c.events != "" {
				// The view's flags win over the served file's; a command
				// line gives each once.
				served := slices.DeleteFunc(slices.Clone(c.flags), func(f string) bool {
					name, _, _ := strings.Cut(f, "=")
					return slices.Contains(c.args, name)
				})
				args = append(append(args, "-events", c.events), served...)
			}
			want, errOut, status := runCommand(append(args, c.args...)...)
			if status != 0 || errOut != "" {
				t.Fatalf("konvoy %s: status %d, %s", strings.Join(args, " "), status, errOut)
			}
			if got != want {
				t.Errorf("the API answers\n%s\nkonvoy %s prints\n%s", got, strings.Join(append(args, c.args...), " "), want)
			}
		})
	}
}

// TestServeAnswersAnUploadAsTheCommandPrintsTheFile checks that an upload,
// under the flags of its form, gets the records konvoy -events prints for
// the file.
func TestServeAnswersAnUploadAsTheCommandPrintsTheFile(t *testing.T) {
	data, err := os.ReadFile("testdata/shipments.csv")
	if err != nil {
		t.Fatal(err)
	}
	s := serve.New(serveConfig("", serve.DefaultMaxUpload))
	got := apiGet(t, s, "/api/report?"+upload(t, s, "shipments.csv", data,
		"steps", "accepted,transfer,out-for-delivery,delivered", "history", "scanned,weighed", "layouts", "all"))
	want, _, _ := runCommand(append([]string{"-format", "json", "-events", "testdata/shipments.csv", "-layouts", "all"}, shipmentsFlags...)...)
	if got != want {
		t.Errorf("the API answers\n%s\nthe command prints\n%s", got, want)
	}
}

// TestServeRefusesWhatTheCommandRefuses checks that a bad query gets the
// command's own usage error.
func TestServeRefusesWhatTheCommandRefuses(t *testing.T) {
	s := serve.New(serveConfig("", serve.DefaultMaxUpload))
	for query, want := range map[string]string{
		"layouts=garbage":        `konvoy: -layouts: unknown layout "garbage"`,
		"steps=a":                "konvoy: -steps needs -events",
		"policy=all,static":      "konvoy: -policy all stands alone; it names every policy",
		"consumers=2,,3":         `invalid value "2,,3" for flag -consumers: want whole numbers separated by commas`,
		"assignor=range":         "konvoy: -assignor says how the static policy deals lanes; add static to -policy",
		"reseq-timeout=-1":       "konvoy: -reseq-timeout is -1; want 0 (wait forever) to 2147483647 rounds",
		"consumers=65":           "konvoy serve: -consumers is 65; want 1 to 64: the server runs at most 64 consumers",
		"consumers=0":            "konvoy serve: -consumers is 0; want 1 to 64: the server runs at most 64 consumers",
		"layouts=all&policy=all": "",
	} {
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/api/report?"+query, nil))
		var e struct{ Error string }
		json.Unmarshal(rec.Body.Bytes(), &e)
		switch {
		case want == "" && rec.Code != http.StatusOK:
			t.Errorf("%s: status %d, %s; want 200", query, rec.Code, e.Error)
		case want != "" && (rec.Code != http.StatusBadRequest || !strings.HasPrefix(e.Error, want)):
			t.Errorf("%s: status %d, error %q; want 400 and %q", query, rec.Code, e.Error, want)
		}
	}
}

// apiGet returns the answer to GET target, which must be 200 OK.
func apiGet(t *testing.T, s *serve.Server, target string) string {
	t.Helper()
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, target, nil))
	if rec.Code != http.StatusOK {
		t.Fatalf("GET %s: status %d, %s", target, rec.Code, rec.Body.String())
	}
	return rec.Body.String()
}

// konvoy serve -events FILE reads the file afresh for each request: one
// it cannot open now is an error before it serves, naming the file, not a
// server whose every view fails.
func TestServeRefusesATraceItCannotOpen(t *testing.T) {
	out, errOut, status := runCommand("serve", "-events", "testdata/no-such-trace.csv")
	if status != 1 || out != "" || !strings.Contains(errOut, "konvoy serve: open testdata/no-such-trace.csv: no such file or directory") {
		t.Errorf("status %d, stdout %q, stderr %q; want 1 and the file named", status, out, errOut)
	}
}

// An upload's name, which the request chose, names no file of the
// server's: -layouts all joins recorded for an upload with partitions
// whatever its name, also the name of a directory where the server runs
// ("testdata", ".."), which a look at the server's disk took for a trace
// that streams, leaving recorded out without a word. (Found by a review.)
func TestServeLooksUpNoUploadsNameOnItsDisk(t *testing.T) {
	trace := "key,line,step,duration,partition\nA,L,1,1,0\nB,L,1,1,2\nA,L,2,1,0\n"
	for _, name := range []string{"x.csv", "testdata", ".."} {
		s := serve.New(serveConfig("", serve.DefaultMaxUpload))
		got := apiGet(t, s, "/api/report?"+upload(t, s, name, []byte(trace), "layouts", "all"))
		if n := strings.Count(got, `"layout":"recorded:3"`); n != 4 {
			t.Errorf("upload named %q: %d records of recorded:3; want 4, one a consumer count", name, n)
		}
	}
}

// upload posts data to s as the file name of the page's form, with the
// form's other fields, name and value in turn, and returns the query of
// the page it is sent to.
func upload(t *testing.T, s *serve.Server, name string, data []byte, fields ...string) string {
	t.Helper()
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	for i := 0; i+1 < len(fields); i += 2 {
		w.WriteField(fields[i], fields[i+1])
	}
	f, _ := w.CreateFormFile("events", name)
	f.Write(data)
	w.Close()
	req := httptest.NewRequest(http.MethodPost, "/upload", &body)
	req.Header.Set("Content-Type", w.FormDataContentType())
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, req)
	loc := rec.Header().Get("Location")
	if rec.Code != http.StatusSeeOther || !strings.HasPrefix(loc, "/?") {
		t.Fatalf("upload %s: status %d, Location %q; want 303 and the page", name, rec.Code, loc)
	}
	return strings.TrimPrefix(loc, "/?")
}
