package serve

import (
	"context"
	"net/http"
	"strings"
	"testing"

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

// TestThePicturesWaitTheirTurn checks that a view's pictures are drawn in
// a turn of their own, as its runs are made, so that no more than
// MaxRunning requests draw at once, and that a request that ends while it
// waits draws none: the pictures were drawn once the runs had given their
// turn back, and a request gone kept the server drawing (found by a
// review).
func TestThePicturesWaitTheirTurn(t *testing.T) {
	s := newTestServer(0)
	o := runs.Options{Layouts: []konvoy.Layout{konvoy.Convoy}, Policies: []konvoy.Policy{konvoy.HeadOfLine}, Consumers: []int{2}}
	tr, err := runs.Events(context.Background(), lesson.Events(), o)
	if err != nil {
		t.Fatal(err)
	}
	for range MaxRunning {
		s.running <- struct{}{} // the requests running
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var p page
	s.pictures(ctx, &p, tr, o, lesson.Events())
	if p.Rounds != "" || p.LatencyPic != "" || len(p.Schedules) > 0 {
		t.Errorf("a request ended while every turn was taken drew pictures")
	}
	for range MaxRunning {
		<-s.running
	}
	s.pictures(context.Background(), &p, tr, o, lesson.Events())
	if p.Rounds == "" || p.LatencyPic == "" || len(p.Schedules) != 1 || len(s.running) != 0 {
		t.Errorf("with turns free: rounds %d bytes, latency %d, %d schedules, %d turns held after; want all three drawn and the turn given back",
			len(p.Rounds), len(p.LatencyPic), len(p.Schedules), len(s.running))
	}
}
