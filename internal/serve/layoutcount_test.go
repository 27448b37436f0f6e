package serve

import (
	"net/http"
	"strings"
	"testing"
)

// TestThePageDrawsOrRefusesWhatTheAPIAnswers checks that a query the
// server accepts, 13 layouts at one consumer count and policy (13 runs,
// within the 100 a request may make), gets its page as the API gets its
// answer: 200 with the tables, the rounds and latency pictures left out
// with a note, as package chart draws at most 12 series (as the pictures
// of a large trace are left out), rather than an error blaming the trace
// for what is only a picture's limit.
func TestThePageDrawsOrRefusesWhatTheAPIAnswers(t *testing.T) {
	s := newTestServer(0)
	q := "layouts=free,convoy,partitioned:2,partitioned:3,partitioned:4,partitioned:5,partitioned:6,partitioned:7,partitioned:8,partitioned:9,partitioned:10,partitioned:11,partitioned:12"
	api := get(t, s, "/api/report?"+q)
	page := get(t, s, "/?"+q)
	switch {
	case api.Code == http.StatusOK && page.Code != http.StatusOK:
		body := page.Body.String()
		msg := ""
		if i := strings.Index(body, "<pre>"); i >= 0 {
			msg = body[i+5:]
			msg = msg[:strings.Index(msg, "</pre>")]
		}
		t.Errorf("the API answers 200 but the page %d: %s", page.Code, msg)
	case page.Code == http.StatusOK && !strings.Contains(page.Body.String(), "at most 12 layouts"):
		t.Errorf("the page of 13 layouts has no note that its pictures are left out")
	case api.Code != http.StatusOK && (api.Code != http.StatusBadRequest || page.Code != http.StatusBadRequest):
		t.Errorf("the API answers %d and the page %d; want 200 for both, or 400 for both", api.Code, page.Code)
	}
}

// The page makes no more runs than the server's limit, the rounds
// picture's counts 1 to 8 included: a view whose runs at those counts
// would pass it draws the picture at the counts asked for alone, and says
// so; a view within it runs them. Twelve layouts, the most the picture
// draws, at 9 consumers make 108 runs at 1 to 9.
func TestThePageKeepsItsRunsWithinTheLimit(t *testing.T) {
	s := newTestServer(0)
	q := "consumers=9&layouts=free,convoy,partitioned:2,partitioned:3,partitioned:4,partitioned:5,partitioned:6,partitioned:7,partitioned:8,partitioned:9,partitioned:10,partitioned:11"
	page := get(t, s, "/?"+q)
	if page.Code != http.StatusOK || !strings.Contains(page.Body.String(), "this view would make 108 runs, and the server makes at most 100 a request") {
		t.Errorf("12 layouts at 9 consumers: status %d; want 200 and a note that the rounds picture is drawn at the counts asked for alone", page.Code)
	}
	page = get(t, s, "/?layouts=free,convoy")
	if page.Code != http.StatusOK || strings.Contains(page.Body.String(), "at the consumer counts asked for alone") {
		t.Errorf("2 layouts: status %d; want 200, the rounds picture at 1 to 8, and no note", page.Code)
	}
}

// TestThePageNotesNoCountsOfARoundsPictureLeftOut checks that the page
// says at which counts its rounds picture is drawn only when it draws
// one: a view of 13 layouts, beyond the 12 the picture draws, whose runs
// at 1 to 8 consumers would pass the server's limit too, said both that
// "The rounds picture is drawn at the consumer counts asked for alone"
// and that the rounds and latency pictures are not drawn (found by a
// review). Only the second holds.
func TestThePageNotesNoCountsOfARoundsPictureLeftOut(t *testing.T) {
	s := newTestServer(0)
	q := "consumers=1&layouts=free,convoy,line-convoy,version-stamp,selective-convoy,resequencer,partitioned:1,partitioned:2,partitioned:3,partitioned:4,partitioned:5,partitioned:6,partitioned:7"
	page := get(t, s, "/?"+q)
	body := page.Body.String()
	if page.Code != http.StatusOK || !strings.Contains(body, "The rounds and latency pictures are drawn for at most 12 layouts") {
		t.Fatalf("13 layouts: status %d; want 200 and a note that the rounds picture is left out", page.Code)
	}
	if strings.Contains(body, "The rounds picture is drawn at the consumer counts asked for alone") {
		t.Errorf("13 layouts: the page says its rounds picture, which it leaves out, is drawn at the counts asked for alone")
	}
}
