package serve

// The page of a refused upload (too large, malformed, without a trace)
// has the controls of every page, set to the view the upload was sent
// from: the upload form keeps that view's run flags (RunKeep) and the
// trace's flags (-steps), to be sent again, and the page's controls,
// submitted as they are, ask for the view again (see setControls: "the
// controls, submitted as they are, ask for the view the page shows"): its
// layouts and policy, without the trace's flags, which the lesson would
// refuse.

import (
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
)

func TestARefusedUploadsPageHasTheControlsOfItsView(t *testing.T) {
	s := newTestServer(100)
	rec := post(t, s, "big.csv", []byte(strings.Repeat("x", 200)), "layouts", "free,convoy", "policy", "lane-aware", "steps", "a,b")
	if rec.Code != http.StatusRequestEntityTooLarge {
		t.Fatalf("an upload of 200 bytes on a server taking 100: status %d; want 413", rec.Code)
	}
	page := rec.Body.String()
	form := page[strings.Index(page, `<form id="controls"`):]
	form = form[:strings.Index(form, "</form>")]
	for _, l := range pageLayouts {
		if !strings.Contains(form, `id="layout-`+l+`"`) {
			t.Errorf("the refused upload's page has no check box for layout %s", l)
		}
	}
	if !strings.Contains(form, "<option") {
		t.Fatalf("the refused upload's page has a policy select without options:\n%s", form)
	}
	if !strings.Contains(page, `id="upload-steps" name="steps" type="text" value="a,b"`) {
		t.Errorf("the refused upload's form has not kept its -steps a,b")
	}
	q := formQuery(t, page)
	if got := q["layouts"]; !slices.Equal(got, []string{"free", "convoy"}) || q.Get("policy") != "lane-aware" {
		t.Errorf("the refused upload's controls send layouts %q, policy %q; want free, convoy and lane-aware, the view the upload was sent from", got, q.Get("policy"))
	}
	target := "/?" + q.Encode()
	for range 2 { // the short link's redirect, then the page
		rec = get(t, s, target)
		if rec.Code != http.StatusSeeOther {
			break
		}
		target = rec.Header().Get("Location")
	}
	if rec.Code != http.StatusOK {
		u, _ := url.Parse(target)
		t.Errorf("the refused upload's controls, submitted as they are, ask for %s: status %d; want the page of the view the upload was sent from", u.RawQuery, rec.Code)
	}
}
