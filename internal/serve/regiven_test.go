package serve

// docs/serve.md: "a link to one given up (among the last 1024) asks for
// the trace again (410)". An upload given up, sent again and given up
// once more is among the last given up: its link is owed 410 until 1024
// other uploads have been given up after it.

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
)

func TestAnUploadGivenUpTwiceIsRememberedFromItsLastGivingUp(t *testing.T) {
	s := newTestServer(100) // 8 uploads kept, each 1 byte here: the count decides
	n := 0
	other := func() { // one more upload, which gives up the least recently used
		n++
		if rec := post(t, s, fmt.Sprintf("o%d.csv", n), []byte("x"), "steps", "a"); rec.Code != http.StatusSeeOther {
			t.Fatalf("upload o%d: status %d", n, rec.Code)
		}
	}
	keyOf := func() string {
		rec := post(t, s, "a.csv", []byte("x"), "steps", "a")
		_, key, _ := strings.Cut(rec.Header().Get("Location"), "trace=")
		return key
	}
	a := keyOf()
	for range 1000 { // a is given up at the 8th; 993 others after it
		other()
	}
	if code := get(t, s, "/api/report?trace="+a).Code; code != http.StatusGone {
		t.Fatalf("a, given up 993 uploads ago: status %d; want 410", code)
	}
	if keyOf() != a { // sent again: kept again
		t.Fatal("the same file sent again has another key")
	}
	for range maxUploads { // the 8th gives a up again
		other()
	}
	if code := get(t, s, "/api/report?trace="+a).Code; code != http.StatusGone {
		t.Fatalf("a, given up again: status %d; want 410", code)
	}
	for since := 0; since < maxGivenUp-1; since++ { // a stays among the last 1024 given up
		other()
		if code := get(t, s, "/api/report?trace="+a).Code; code != http.StatusGone {
			t.Fatalf("a, given up again %d uploads ago (among the last %d given up): status %d; want 410, as docs/serve.md promises among the last %d",
				since+1, since+2, code, maxGivenUp)
		}
	}
}
