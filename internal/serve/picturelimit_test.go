package serve

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/internal/runs"
	"github.com/sirali-konvoy/konvoy/lesson"
)

// TestThePageDrawsAtMostTwelveSchedules checks that a view of more layouts
// than the pictures draw lines for draws the schedules of the first
// maxPictureLayouts alone, and says so: a view of 100 layouts drew 100
// schedules, a page of 43 MB (found by a review).
func TestThePageDrawsAtMostTwelveSchedules(t *testing.T) {
	s := newTestServer(0)
	q := "consumers=2&layouts=free,convoy,partitioned:2,partitioned:3,partitioned:4,partitioned:5,partitioned:6,partitioned:7,partitioned:8,partitioned:9,partitioned:10,partitioned:11,partitioned:12,partitioned:13"
	page := get(t, s, "/?"+q)
	body := page.Body.String()
	if n := strings.Count(body, "<title>The schedule under "); page.Code != http.StatusOK || n != maxPictureLayouts ||
		!strings.Contains(body, "Schedules are drawn for at most 12 layouts, the first; this view has 14.") {
		t.Errorf("14 layouts: status %d, %d schedules; want 200, %d, and a note", page.Code, n, maxPictureLayouts)
	}
}

// TestAPageTakesOneTurn checks that a view makes its runs and draws its
// pictures in one turn: it waits while MaxRunning others run, holding
// nothing, runs and draws once a turn is free, and gives it back. Its
// pictures took a second turn after the runs, so that nearly every
// request's result waited in memory, outside any turn, behind the
// requests still to run (found by a review).
func TestAPageTakesOneTurn(t *testing.T) {
	s := newTestServer(0)
	for range MaxRunning {
		s.running <- struct{}{} // the requests running
	}
	page := make(chan *httptest.ResponseRecorder, 1)
	go func() { page <- get(t, s, "/") }()
	select {
	case <-page:
		t.Fatal("a page was made while every turn was taken")
	case <-time.After(100 * time.Millisecond):
	}
	<-s.running // one request ends
	select {
	case rec := <-page:
		if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), "<title>The schedule under ") || len(s.running) != MaxRunning-1 {
			t.Errorf("status %d, %d turns held after; want 200, the pictures drawn, and the page's turn given back", rec.Code, len(s.running))
		}
	case <-time.After(time.Minute):
		t.Fatal("no page a minute after a turn came free")
	}
}

// TestPicturesStopWithTheirRequest checks that a request ended draws no
// picture, and that one under way draws them in the turn its runs took,
// waiting for no other while every turn is taken (its own among them).
func TestPicturesStopWithTheirRequest(t *testing.T) {
	s := newTestServer(0)
	o := runs.Options{Layouts: []konvoy.Layout{konvoy.Convoy}, Policies: []konvoy.Policy{konvoy.HeadOfLine}, Consumers: []int{2}}
	tr, err := runs.Events(context.Background(), lesson.Events(), o)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var p page
	s.pictures(ctx, &p, tr, o, lesson.Events())
	if p.Rounds != "" || p.LatencyPic != "" || len(p.Schedules) > 0 {
		t.Errorf("a request ended drew pictures")
	}
	for range MaxRunning {
		s.running <- struct{}{} // the requests running, this one among them
	}
	drawn := make(chan struct{})
	go func() {
		defer close(drawn)
		s.pictures(context.Background(), &p, tr, o, lesson.Events())
	}()
	select {
	case <-drawn:
	case <-time.After(time.Minute):
		t.Fatal("the pictures waited a minute for a turn while their request held one")
	}
	if p.Rounds == "" || p.LatencyPic == "" || len(p.Schedules) != 1 {
		t.Errorf("a request under way: rounds %d bytes, latency %d, %d schedules; want all three drawn", len(p.Rounds), len(p.LatencyPic), len(p.Schedules))
	}
}
