package serve

import (
	"html"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// formQuery is the query the page's controls form (id="controls") sends
// when submitted as it is: its hidden fields, its checked boxes, the
// selected option of each select (the first when none is), and the value of
// each other input, as a browser builds it.
func formQuery(t *testing.T, page string) url.Values {
	t.Helper()
	start := strings.Index(page, `<form id="controls"`)
	end := strings.Index(page[start:], "</form>")
	if start < 0 || end < 0 {
		t.Fatal("no controls form in the page")
	}
	form := page[start : start+end]
	q := url.Values{}
	attr := func(tag, name string) (string, bool) {
		m := regexp.MustCompile(`\s` + name + `="([^"]*)"`).FindStringSubmatch(tag)
		if m == nil {
			return "", false
		}
		return html.UnescapeString(m[1]), true
	}
	for _, tag := range regexp.MustCompile(`<input[^>]*>`).FindAllString(form, -1) {
		name, _ := attr(tag, "name")
		value, _ := attr(tag, "value")
		typ, _ := attr(tag, "type")
		if typ == "checkbox" && !regexp.MustCompile(`\schecked[\s>]`).MatchString(tag) {
			continue
		}
		q.Add(name, value)
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

// TestTheControlsKeepTheViewTheyDoNotShow checks that the page's controls,
// submitted as they are (Show, or any change, which page.js submits at
// once), ask for the view the page shows. The package doc promises a page
// whose controls are the command's flags, kept in the URL's query so that
// every view is a link. The check boxes show only the page's layouts, so
// the others (partitioned:3) are kept as hidden fields; the policy select
// shows one policy, so a list of them, or all, is an option of its own,
// selected; the consumers' number shows one count, so the others are kept
// as hidden fields. (This test's parser takes one policy and one count,
// so TestTheControlsKeepListsOfPoliciesAndConsumers checks the lists.)
func TestTheControlsKeepTheViewTheyDoNotShow(t *testing.T) {
	s := newTestServer(0)
	for _, view := range []string{"layouts=free,partitioned:3", "layouts=convoy,partitioned:2,free", "policy=static&consumers=3"} {
		rec := get(t, s, "/?"+view)
		if rec.Code != http.StatusOK {
			t.Fatalf("GET /?%s: status %d", view, rec.Code)
		}
		want, _ := parseQuery(mustParse(t, view))
		got, err := parseQuery(formQuery(t, rec.Body.String()))
		if err != nil {
			t.Fatalf("%s: the form's query: %v", view, err)
		}
		// The layouts as a set: the order of the check boxes may differ.
		sorted := func(v string) string {
			l := strings.Split(v, ",")
			slices.Sort(l)
			return strings.Join(l, ",")
		}
		if want.query.Get("layouts") == "" {
			want.query.Set("layouts", strings.Join(pageLayouts[:4], ",")) // the page's default view
		}
		if g, w := sorted(got.query.Get("layouts")), sorted(want.query.Get("layouts")); g != w {
			t.Errorf("the view %s: its controls, submitted as they are, send layouts=%q; want the layouts %q", view, got.query.Get("layouts"), want.query.Get("layouts"))
		}
		if g, w := got.query.Get("policy"), want.query.Get("policy"); w != "" && g != w {
			t.Errorf("the view %s: its controls, submitted as they are, send policy=%q; want %q", view, g, w)
		}
		if g, w := got.query.Get("consumers"), want.query.Get("consumers"); w != "" && g != w {
			t.Errorf("the view %s: its controls, submitted as they are, send consumers=%q; want %q", view, g, w)
		}
	}
}

func mustParse(t *testing.T, q string) url.Values {
	t.Helper()
	v, err := url.ParseQuery(q)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestTheControlsKeepListsOfPoliciesAndConsumers checks that setControls
// keeps what the policy select and the consumers' number cannot show: a
// list of policies, or all, is an option of its own, selected, and the
// consumer counts after the first are hidden fields.
func TestTheControlsKeepListsOfPoliciesAndConsumers(t *testing.T) {
	for _, policy := range []string{"all", "static,lane-aware"} {
		var p page
		p.setControls(url.Values{"policy": {policy}, "consumers": {"2,8,16"}}, parsedView{})
		var selected []string
		for _, c := range p.Policies {
			if c.Checked {
				selected = append(selected, c.Name)
			}
		}
		if !slices.Equal(selected, []string{policy}) {
			t.Errorf("policy=%s: the select's selected options are %q; want %q alone", policy, selected, policy)
		}
		want := []field{{Name: "consumers", Value: "8"}, {Name: "consumers", Value: "16"}}
		if p.Consumers != 2 || !slices.Equal(p.Keep, want) {
			t.Errorf("consumers=2,8,16: the number shows %d and the hidden fields are %v; want 2 and %v", p.Consumers, p.Keep, want)
		}
	}
}

// TestTheControlsKeepTheFirstCountFirst checks that the page's controls,
// submitted as they are, send the consumer counts in the order the runs
// were made at: the number's count, the first table's, before the counts
// the hidden fields keep, a trace's 1, 2 and 8 when its query names none.
func TestTheControlsKeepTheFirstCountFirst(t *testing.T) {
	s := newTestServer(0)
	p := s.newPage(request{query: url.Values{}})
	p.setControls(url.Values{}, parsedView{counts: []int{4, 1, 2, 8}})
	rec := httptest.NewRecorder()
	s.render(rec, http.StatusOK, p)
	if got := formQuery(t, rec.Body.String())["consumers"]; !slices.Equal(got, []string{"4", "1", "2", "8"}) {
		t.Errorf("the controls of the counts 4, 1, 2, 8 send consumers %q; want them in that order", got)
	}
}

// TestTheControlsOfferRecordedForATraceWithPartitions checks that "all"
// layouts checks a box for every layout all runs: for a trace that records
// partitions, recorded joins the page's layouts, so its box is offered,
// and checked under all; for another trace or the lesson, all is the
// page's layouts alone, and no recorded box is offered unless the view
// names recorded.
func TestTheControlsOfferRecordedForATraceWithPartitions(t *testing.T) {
	withRecorded := append(slices.Clone(pageLayouts), recordedBox)
	for _, c := range []struct {
		layouts     string
		partitioned bool
		boxes       []string
		checked     []string
	}{
		{"all", true, withRecorded, withRecorded},
		{"all", false, pageLayouts, pageLayouts},
		{"", true, withRecorded, pageLayouts[:4]},
		{"free,recorded", false, withRecorded, []string{"free", "recorded"}},
	} {
		var p page
		p.setLayouts(c.layouts, c.partitioned)
		var boxes, checked []string
		for _, l := range p.Layouts {
			boxes = append(boxes, l.Name)
			if l.Checked {
				checked = append(checked, l.Name)
			}
		}
		if !slices.Equal(boxes, c.boxes) || !slices.Equal(checked, c.checked) || len(p.Keep) > 0 {
			t.Errorf("layouts %q, partitioned %v: boxes %q, checked %q, hidden %v; want boxes %q, checked %q, none hidden",
				c.layouts, c.partitioned, boxes, checked, p.Keep, c.boxes, c.checked)
		}
	}
}

// A count the page's hidden fields keep, typed into its number, comes
// twice in the form's query: the page shows the view with it first, each
// count once, where -consumers, which refuses a count named twice, made it
// a 400 (found by CI's browser test: the form sent 8,1,2,8).
func TestACountTypedTwiceIsKeptOnce(t *testing.T) {
	req, err := parseQuery(url.Values{"consumers": {"8", "1", "2", "8"}, "layouts": {"free", "free", ""}})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := req.args, []string{"-consumers=8,1,2", "-layouts=free"}; !slices.Equal(got, want) {
		t.Errorf("args %q; want %q", got, want)
	}
}
