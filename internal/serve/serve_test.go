package serve

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"regexp"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"

	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/eventlog"
	"github.com/sirali-konvoy/konvoy/internal/runs"
)

// testRuns reads the few flags these tests use, as konvoy's parser does
// for them; cmd/konvoy's tests run the server with the command's own
// parser and check that the API prints what the command prints.
func testRuns(args []string) (runs.Options, error) {
	fs := flag.NewFlagSet("konvoy", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	layouts := fs.String("layouts", "free,convoy,line-convoy,version-stamp", "")
	policy := fs.String("policy", "head-of-line", "")
	consumers := fs.Int("consumers", 4, "")
	events := fs.String("events", "", "")
	steps := fs.String("steps", "", "")
	if err := fs.Parse(args); err != nil {
		return runs.Options{}, err
	}
	o := runs.Options{Name: *events, Consumers: []int{*consumers}, Reader: eventlog.Reader{Name: *events}}
	if *steps != "" {
		o.Reader.Steps = strings.Split(*steps, ",")
	}
	for _, name := range strings.Split(*layouts, ",") {
		l, err := konvoy.ParseLayout(name)
		if err != nil {
			return o, fmt.Errorf("konvoy: -layouts: unknown layout %q", name)
		}
		o.Layouts = append(o.Layouts, l)
	}
	p, err := konvoy.ParsePolicy(*policy)
	if err != nil {
		return o, err
	}
	o.Policies = []konvoy.Policy{p}
	if *consumers < 1 {
		return o, errors.New("konvoy: -consumers is 0")
	}
	return o, nil
}

func newTestServer(maxUpload int64) *Server {
	return New(Config{Runs: testRuns, MaxUpload: maxUpload})
}

// get answers GET target.
func get(t testing.TB, s *Server, target string) *httptest.ResponseRecorder {
	t.Helper()
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, target, nil))
	return rec
}

// cell returns the cell of the first table in row row and column col
// (1 for the first layout).
func cell(t *testing.T, page, row string, col int) string {
	t.Helper()
	m := regexp.MustCompile(`<th scope="row">` + row + `</th>((?:<td>[^<]*</td>)+)`).FindStringSubmatch(page)
	if m == nil {
		t.Fatalf("no row %q in the page", row)
	}
	cells := regexp.MustCompile(`<td>([^<]*)</td>`).FindAllStringSubmatch(m[1], -1)
	return cells[col-1][1]
}

func TestTheLessonPageShowsTheTableAndThePictures(t *testing.T) {
	s := newTestServer(0)
	rec := get(t, s, "/")
	page := rec.Body.String()
	if rec.Code != http.StatusOK {
		t.Fatalf("status %d; want 200:\n%s", rec.Code, page)
	}
	// The lesson's figures at 4 consumers: free 8 rounds, convoy 13.
	if got := cell(t, page, "rounds", 1) + " " + cell(t, page, "rounds", 2); got != "8 13" {
		t.Errorf("rounds of free and convoy %s; want 8 13", got)
	}
	// Rounds, one schedule per layout, latency: each with a title and a
	// description.
	if n, titles := strings.Count(page, "<svg "), strings.Count(page, "<title>"); n != 6 || titles != 6+1 {
		t.Errorf("%d pictures, %d titles; want 6 pictures, each with a title, and the page's", n, titles)
	}
	for _, want := range []string{`<label for="consumers">`, `<legend>Layouts</legend>`, `<caption>Every layout at 4 consumers, head-of-line dispatch</caption>`,
		`<desc>`, `href="/api/report"`} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %s", want)
		}
	}
	if csp := rec.Header().Get("Content-Security-Policy"); !strings.Contains(csp, "script-src 'self'") {
		t.Errorf("Content-Security-Policy %q; want scripts from the server only", csp)
	}
}

func TestTheQueryChangesTheRuns(t *testing.T) {
	s := newTestServer(0)
	page := get(t, s, "/?layouts=free,convoy&consumers=8&policy=lane-aware").Body.String()
	// At 8 consumers under lane-aware dispatch: free 5 rounds, convoy 8.
	if got := cell(t, page, "rounds", 1) + " " + cell(t, page, "rounds", 2); got != "5 8" {
		t.Errorf("rounds of free and convoy %s; want 5 8", got)
	}
	if !strings.Contains(page, `<option value="lane-aware" selected>`) || !strings.Contains(page, `value="8" required`) {
		t.Errorf("the controls do not show the query's policy and consumers")
	}
	if strings.Contains(page, `value="line-convoy" id="layout-line-convoy" checked`) {
		t.Errorf("line-convoy is checked; the query leaves it out")
	}
}

func TestARepeatedParameterRedirectsToTheShortLink(t *testing.T) {
	s := newTestServer(0)
	rec := get(t, s, "/?layouts=free&layouts=convoy&consumers=8&partitions=")
	if loc := rec.Header().Get("Location"); rec.Code != http.StatusSeeOther || loc != "/?consumers=8&layouts=free,convoy" {
		t.Errorf("status %d, Location %q; want 303 and /?consumers=8&layouts=free,convoy", rec.Code, loc)
	}
}

func TestBadRequestsGetTheirReason(t *testing.T) {
	s := newTestServer(0)
	for _, tt := range []struct {
		target string
		status int
		want   string
	}{
		{"/api/report?consumers=99999", 400, "the server runs at most 64 consumers"},
		{"/api/report?layouts=garbage", 400, `unknown layout \"garbage\"`},
		{"/api/report?events=/etc/passwd", 400, `unknown parameter \"events\"`},
		{"/api/report?format=csv", 400, `unknown parameter \"format\"`},
		{"/api/report?trace=../../etc", 400, "want the key of an upload"},
		{"/api/report?trace=0123456789abcdef0123456789abcdef", 404, "no upload with this key on this server"},
		{"/api/report?consumers=0", 400, "-consumers is 0; want 1 to 64"},
		{"/api/report?consumers=2,-3", 400, "-consumers is -3; want 1 to 64"},
		{"/api/report?layouts=" + strings.Repeat("free,", 2000), 414, "the query has"},
		{"/?consumers=99999", 400, "the server runs at most 64 consumers"},
		{"/?layouts=%3Cscript%3E", 400, "unknown layout &#34;&lt;script&gt;&#34;"},
	} {
		rec := get(t, s, tt.target)
		if rec.Code != tt.status || !strings.Contains(rec.Body.String(), tt.want) {
			t.Errorf("%.60s: status %d, body %.300q; want %d and %q", tt.target, rec.Code, rec.Body.String(), tt.status, tt.want)
		}
		if strings.HasPrefix(tt.target, "/api/") && tt.status != 414 {
			var e struct{ Error string }
			if err := json.Unmarshal(rec.Body.Bytes(), &e); err != nil || e.Error == "" {
				t.Errorf("%.60s: body %q is not a JSON error: %v", tt.target, rec.Body.String(), err)
			}
		}
	}
}

func TestTheAPIAnswersTheRecords(t *testing.T) {
	s := newTestServer(0)
	rec := get(t, s, "/api/report?layouts=free,convoy&consumers=8")
	var records []struct {
		Layout    string
		Consumers int
		Rounds    int
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &records); err != nil || rec.Code != 200 {
		t.Fatalf("status %d, %v:\n%s", rec.Code, err, rec.Body.String())
	}
	if len(records) != 2 || records[0].Rounds != 5 || records[1].Rounds != 9 || records[1].Consumers != 8 {
		t.Errorf("records %+v; want free 5 and convoy 9 rounds at 8 consumers", records)
	}
	if ct := rec.Header().Get("Content-Type"); ct != "application/json" {
		t.Errorf("Content-Type %q; want application/json", ct)
	}
}

// post posts a form of the trace data, named name, and fields.
func post(t testing.TB, s *Server, name string, data []byte, fields ...string) *httptest.ResponseRecorder {
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
	return rec
}

const goodTrace = "key,line,status,duration\n" +
	"<script>alert(1)</script>,L1,a,2\nK2,L1,a,1\n<script>alert(1)</script>,L1,b,1\nK2,L2,b,3\n"

func TestAnUploadIsRunAndItsKeysEscaped(t *testing.T) {
	s := newTestServer(0)
	rec := post(t, s, `C:\traces\<b>&"shipments".csv`, []byte(goodTrace), "steps", "a,b", "layouts", "free,convoy")
	loc := rec.Header().Get("Location")
	if rec.Code != http.StatusSeeOther || !regexp.MustCompile(`^/\?layouts=free,convoy&steps=a,b&trace=[0-9a-f]{32}$`).MatchString(loc) {
		t.Fatalf("status %d, Location %q; want 303 and the page of the upload", rec.Code, loc)
	}
	page := get(t, s, loc)
	body := page.Body.String()
	if page.Code != 200 || !strings.Contains(body, "The trace &lt;b&gt;&amp;&#34;shipments&#34;.csv: 4 events, 2 keys") {
		t.Fatalf("status %d; want 200 and the trace's summary, its name escaped:\n%s", page.Code, body)
	}
	if strings.Contains(body, "<script>alert") || strings.Contains(body, "<b>shipments") {
		t.Errorf("a key or the file's name reaches the page unescaped")
	}
	if n := strings.Count(body, "<svg "); n != 4 {
		t.Errorf("%d pictures; want rounds, two schedules and latency", n)
	}
	// The upload form of the upload's page keeps the view's runs and shows
	// its trace flags once, as fields to change.
	_, form, _ := strings.Cut(body, `<form id="upload"`)
	if strings.Count(form, `name="steps"`) != 1 || !strings.Contains(form, `<input type="hidden" name="layouts" value="free,convoy">`) {
		t.Errorf("the upload form does not keep the view: steps %d times:\n%s", strings.Count(form, `name="steps"`), form)
	}
	api := get(t, s, "/api/report?"+strings.SplitN(loc, "?", 2)[1])
	if api.Code != 200 || !strings.Contains(api.Body.String(), `"events":4`) {
		t.Errorf("the API on the upload: status %d, %s", api.Code, api.Body.String())
	}
}

func TestABadUploadShowsFileAndLine(t *testing.T) {
	s := newTestServer(0)
	loc := post(t, s, "bad.csv", []byte("key,line,status,duration\nK1,L1,a,1\nK2,L1,zzz,1\n"), "steps", "a").Header().Get("Location")
	rec := get(t, s, loc)
	if rec.Code != http.StatusUnprocessableEntity || !strings.Contains(rec.Body.String(), `bad.csv:3: field &#34;status&#34;: value &#34;zzz&#34;`) {
		t.Errorf("status %d; want 422 and bad.csv:3's error:\n%s", rec.Code, rec.Body.String())
	}
	if !strings.Contains(rec.Body.String(), `role="alert"`) {
		t.Errorf("the error is not announced (role alert)")
	}
}

func TestAnOversizeUploadIsRefusedWithTheLimit(t *testing.T) {
	s := newTestServer(1000)
	rec := post(t, s, "big.csv", bytes.Repeat([]byte("K,L,a,1\n"), 200))
	if rec.Code != http.StatusRequestEntityTooLarge || !strings.Contains(rec.Body.String(), "larger than 1000 bytes, the most this server takes (konvoy serve -max-upload)") {
		t.Errorf("status %d; want 413 and the limit:\n%.500s", rec.Code, rec.Body.String())
	}
	rec = post(t, s, "ok.csv", []byte("key,line,status,duration\nK,L,a,1\n"), "nonsense", "1")
	if rec.Code != http.StatusBadRequest || !strings.Contains(rec.Body.String(), "unknown field &#34;nonsense&#34;") {
		t.Errorf("an unknown field: status %d; want 400", rec.Code)
	}
}

func TestAGzipUploadIsReadAndABombStopped(t *testing.T) {
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(goodTrace))
	zw.Close()
	s := newTestServer(0)
	loc := post(t, s, "t.csv.gz", gz.Bytes(), "steps", "a,b").Header().Get("Location")
	if rec := get(t, s, loc); rec.Code != 200 {
		t.Errorf("a gzip-compressed trace: status %d; want 200", rec.Code)
	}
	// A bomb: more than 4 times the upload's limit once decompressed.
	var bomb bytes.Buffer
	zw = gzip.NewWriter(&bomb)
	zw.Write([]byte("key,line,step,duration\n" + strings.Repeat("K,L,1,1\n", 100000)))
	zw.Close()
	s = newTestServer(int64(bomb.Len()) + 100)
	if rec := post(t, s, "bomb.csv.gz", bomb.Bytes()); rec.Code != http.StatusRequestEntityTooLarge ||
		!strings.Contains(rec.Body.String(), "bomb.csv.gz: decompressed, the trace has more than") {
		t.Errorf("a gzip bomb: status %d; want 413 and why:\n%.300s", rec.Code, rec.Body.String())
	}
	if rec := post(t, s, "broken.csv.gz", []byte("\x1f\x8bnot gzip")); rec.Code != http.StatusBadRequest || !strings.Contains(rec.Body.String(), "broken.csv.gz") {
		t.Errorf("a broken gzip upload: status %d; want 400 naming it:\n%.300s", rec.Code, rec.Body.String())
	}
	// A trace gzipped twice: the page says what konvoy undoes in its own
	// words, not the library's functions.
	var twice bytes.Buffer
	zw = gzip.NewWriter(&twice)
	zw.Write(gz.Bytes())
	zw.Close()
	s = newTestServer(0)
	rec := post(t, s, "twice.csv.gz", twice.Bytes(), "steps", "a,b")
	if loc := rec.Header().Get("Location"); loc != "" {
		rec = get(t, s, loc)
	}
	if body := rec.Body.String(); rec.Code != http.StatusUnprocessableEntity || !strings.Contains(body, "konvoy undoes one layer of gzip, no more") || strings.Contains(body, "Decompress") {
		t.Errorf("a trace gzipped twice: status %d; want 422 in the page's words:\n%.600s", rec.Code, body)
	}
	// A capped reader lets its bytes through and fails on one more.
	c := &capped{r: strings.NewReader("abcdef"), left: 4, most: 4, name: "bomb.csv.gz"}
	got, err := io.ReadAll(c)
	if string(got) != "abcd" || err == nil || !strings.Contains(err.Error(), "bomb.csv.gz: decompressed, the trace has more than") {
		t.Errorf("capped: %q, %v; want abcd and the cap's error", got, err)
	}
	c = &capped{r: strings.NewReader("abcd"), left: 4}
	if got, err := io.ReadAll(c); string(got) != "abcd" || err != nil {
		t.Errorf("capped at its length: %q, %v; want abcd and no error", got, err)
	}
}

// Uploads keep the most recently used within their bounds, each under the
// hash of its name and content.
func TestUploadsKeepTheMostRecentlyUsed(t *testing.T) {
	u := newUploads(2, 10)
	a := u.add(&upload{name: "a", data: []byte("aaaa")})
	b := u.add(&upload{name: "b", data: []byte("bbbb")})
	u.get(a) // a is now the most recently used
	c := u.add(&upload{name: "c", data: []byte("cccc")})
	if u.get(b) != nil || u.get(a) == nil || u.get(c) == nil {
		t.Errorf("after a, b, a used, c: want a and c kept, b given up")
	}
	d := u.add(&upload{name: "d", data: []byte("dddddddd")}) // 8 bytes: only d fits
	if u.get(a) != nil || u.get(c) != nil || u.get(d) == nil || u.held != 8 {
		t.Errorf("a large upload: want it alone kept, %d bytes held", u.held)
	}
	if k := u.add(&upload{name: "d", data: []byte("dddddddd")}); k != d || u.held != 8 {
		t.Errorf("the same file again: want one copy, under its key")
	}
	// The name decides how the content reads (its format, gzip): the same
	// bytes under another name are another upload, and the first link
	// still names the first.
	if k := u.add(&upload{name: "d.jsonl", data: []byte("dddddddd")}); k == d || u.get(k).name != "d.jsonl" {
		t.Errorf("the same content under another name: key %s, the first's %s; want another key", k, d)
	}
}

func TestCleanNameKeepsOnlyTheFileName(t *testing.T) {
	for in, want := range map[string]string{
		"/etc/passwd": "passwd", `C:\a\b.csv`: "b.csv", "": "upload", "-": "upload", "..": "..",
		"a\x00b\nc.csv": "abc.csv", strings.Repeat("é", 80): strings.Repeat("é", 50),
		// A long name is cut before its extension, which tells its format.
		strings.Repeat("t", 120) + ".jsonl.gz": strings.Repeat("t", 91) + ".jsonl.gz",
		strings.Repeat("t", 120) + ".csv":      strings.Repeat("t", 96) + ".csv",
	} {
		if got := cleanName(in); got != want {
			t.Errorf("cleanName(%q) = %q; want %q", in, got, want)
		}
	}
}

func BenchmarkLessonPage(b *testing.B) {
	s := newTestServer(0)
	for b.Loop() {
		if rec := get(b, s, "/?consumers=4"); rec.Code != 200 {
			b.Fatal(rec.Code)
		}
	}
}

func BenchmarkLessonAPI(b *testing.B) {
	s := newTestServer(0)
	for b.Loop() {
		if rec := get(b, s, "/api/report?consumers=4"); rec.Code != 200 {
			b.Fatal(rec.Code)
		}
	}
}

// TestALoopbackServerAnswersLoopbackHostsOnly holds the guard against DNS
// rebinding: a name that is not this machine's loopback is refused, with
// or without a port, and localhost, 127.0.0.1 and [::1] are served.
func TestALoopbackServerAnswersLoopbackHostsOnly(t *testing.T) {
	h := loopbackOnly(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "served") }))
	for host, want := range map[string]int{
		"127.0.0.1:8080": http.StatusOK, "localhost:8080": http.StatusOK, "LOCALHOST": http.StatusOK,
		"[::1]:8080": http.StatusOK, "127.0.0.2": http.StatusOK, "[::1]": http.StatusOK,
		"evil.example:8080": http.StatusMisdirectedRequest, "evil.example": http.StatusMisdirectedRequest,
		"10.0.0.1:8080": http.StatusMisdirectedRequest, "localhost.evil.example": http.StatusMisdirectedRequest, "": http.StatusMisdirectedRequest,
	} {
		r := httptest.NewRequest("GET", "/", nil)
		r.Host = host
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Code != want {
			t.Errorf("Host %q: status %d, want %d", host, w.Code, want)
		}
		if want != http.StatusOK && !strings.Contains(w.Body.String(), "not this machine's") {
			t.Errorf("Host %q: the refusal does not say why: %q", host, w.Body.String())
		}
	}
}

// The server sets the process's garbage collector limit once, when it
// starts, to the runs' memory, not per request (a request's runs leave it
// as it is: TestTraceLeavesTheMemoryLimitAlone in package runs), and puts
// it back when it stops.
func TestTheServerSetsTheMemoryLimitOnce(t *testing.T) {
	const before int64 = 3 << 40
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(before))
	ctx, cancel := context.WithCancel(context.Background())
	var during int64
	err := newTestServer(0).ListenAndServe(ctx, "127.0.0.1:0", func(url string) {
		during = debug.SetMemoryLimit(-1)
		cancel()
	})
	if err != nil {
		t.Fatal(err)
	}
	if during != konvoy.DefaultMaxMemory {
		t.Errorf("while serving, the memory limit is %d; want %d", during, konvoy.DefaultMaxMemory)
	}
	if after := debug.SetMemoryLimit(-1); after != before {
		t.Errorf("after the server stops, the memory limit is %d; want %d, as before", after, before)
	}
}

// Uploads remember the keys of the last maxGivenUp uploads they gave up,
// told apart from a key never kept.
func TestUploadsRememberTheKeysTheyGaveUp(t *testing.T) {
	u := newUploads(1, 10)
	a := u.add(&upload{name: "a", data: []byte("aaaa")})
	b := u.add(&upload{name: "b", data: []byte("bbbb")})
	if !u.givenUp(a) || u.givenUp(b) || u.givenUp(strings.Repeat("0", uploadKeyBytes)) {
		t.Errorf("want a told given up, and neither b, kept, nor a key never kept")
	}
	few := newUploads(1, 10)
	first := few.add(&upload{name: "first", data: []byte("x")})
	for i := range maxGivenUp + 1 {
		few.add(&upload{name: strconv.Itoa(i), data: []byte("x")})
	}
	if few.givenUp(first) || len(few.gone) != maxGivenUp {
		t.Errorf("after %d uploads given up: the first told given up %v, %d remembered; want false and %d", maxGivenUp+1, few.givenUp(first), len(few.gone), maxGivenUp)
	}
}
