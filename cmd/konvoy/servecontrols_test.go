package main

// The page's controls, submitted as they are (Show, or any change, which
// page.js submits at once), ask for the view the page shows, with the
// command's own parser: the package doc of internal/serve promises a page
// whose controls are the command's flags, kept in the URL's query so that
// every view is a link. What the controls cannot show, such as a trace's
// default consumer counts after the first, hidden fields keep.

import (
	"html"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/sirali-konvoy/konvoy/internal/serve"
)

// controlsQuery is the query the page's controls form sends as it is: its
// hidden fields, its checked boxes, each other input's value and each
// select's selected option, as a browser builds it.
func controlsQuery(t *testing.T, page string) url.Values {
	t.Helper()
	start := strings.Index(page, `<form id="controls"`)
	if start < 0 {
		t.Fatal("no controls form in the page")
	}
	form := page[start:]
	form = form[:strings.Index(form, "</form>")]
	attr := func(tag, name string) string {
		m := regexp.MustCompile(`\s` + name + `="([^"]*)"`).FindStringSubmatch(tag)
		if m == nil {
			return ""
		}
		return html.UnescapeString(m[1])
	}
	q := url.Values{}
	for _, tag := range regexp.MustCompile(`<input[^>]*>`).FindAllString(form, -1) {
		if attr(tag, "type") == "checkbox" && !regexp.MustCompile(`\schecked[\s>]`).MatchString(tag) {
			continue
		}
		q.Add(attr(tag, "name"), attr(tag, "value"))
	}
	for _, sel := range regexp.MustCompile(`(?s)<select[^>]*name="([^"]*)"[^>]*>(.*?)</select>`).FindAllStringSubmatch(form, -1) {
		opts := regexp.MustCompile(`<option value="([^"]*)"([^>]*)>`).FindAllStringSubmatch(sel[2], -1)
		chosen := opts[0][1]
		for _, o := range opts {
			if strings.Contains(o[2], "selected") {
				chosen = o[1]
			}
		}
		q.Add(sel[1], html.UnescapeString(chosen))
	}
	return q
}

// checkControls checks that the controls of the page of view, on a server
// of the trace events read with flags, submitted as they are, ask for the
// runs the view makes: the API's answers to both queries are the same.
func checkControls(t *testing.T, events string, flags []string, view string) {
	t.Helper()
	cfg := serveConfig(events, serve.DefaultMaxUpload)
	cfg.EventsArgs = flags
	s := serve.New(cfg)
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/?"+view, nil))
	if rec.Code != http.StatusOK {
		t.Fatalf("%s: GET /?%s: status %d", events, view, rec.Code)
	}
	sent := controlsQuery(t, rec.Body.String())
	want := apiGet(t, s, "/api/report?"+view)
	got := apiGet(t, s, "/api/report?"+sent.Encode())
	if got != want {
		t.Errorf("%s, the view %q: its controls, submitted as they are, send %q, which makes other runs:\nthe view's: %s\nthe form's: %s",
			events, view, sent.Encode(), layoutsAndCounts(want), layoutsAndCounts(got))
	}
}

// TestServeControlsKeepTheDefaultConsumerCounts: without -consumers a
// trace's runs are at 4, 1, 2 and 8 consumers (the page's text report has
// a rounds table of the four), and partitioned has the largest count's
// partitions, 8. The number shows 4, the first table's count, and hidden
// fields after it keep 1, 2 and 8, so that the form sends consumers
// 4,1,2,8 and partitioned stays partitioned:8; a list the query gives is
// kept the same way.
func TestServeControlsKeepTheDefaultConsumerCounts(t *testing.T) {
	checkControls(t, "testdata/arrivals.csv", nil, "")
	checkControls(t, "testdata/arrivals.csv", nil, "layouts=free,partitioned")
	checkControls(t, "testdata/arrivals.csv", nil, "consumers=2,8,16&layouts=free,partitioned")
}

// layoutsAndCounts are the (layout, consumers) pairs of a JSON report.
func layoutsAndCounts(report string) string {
	return strings.Join(regexp.MustCompile(`"layout":"[^"]*","consumers":[0-9]*`).FindAllString(report, -1), " ")
}
