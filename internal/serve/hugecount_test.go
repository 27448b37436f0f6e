package serve

import (
	"net/http"
	"strings"
	"testing"
)

// TestAHugeConsumerCountIsToldTheRange checks that a consumer count too
// large for an int, 99999999999999999999, is told the server's range, as
// 65 is ("want 1 to 64"), on the API and on the page: the server's check
// let the command's parser judge a number it could not read, and the
// parser answered with the flag package's "value out of range", which
// names no range (found by a review). A list and a negative count are
// told so too.
func TestAHugeConsumerCountIsToldTheRange(t *testing.T) {
	s := newTestServer(0)
	for _, v := range []string{"99999999999999999999", "4,99999999999999999999", "-99999999999999999999",
		"99_999_999_999_999_999_999", "4,99_999_999_999_999_999_999", // the command reads underscores: its range is not the server's
		// The command stops at a count too large for an int, and judges
		// nothing after it: the server's range, not the command's (found by
		// a review).
		"99999999999999999999,0x41", "99999999999999999999,abc", "99999999999999999999,"} {
		for _, path := range []string{"/api/report", "/"} {
			rec := get(t, s, path+"?consumers="+v)
			body := rec.Body.String()
			if rec.Code != http.StatusBadRequest || !strings.Contains(body, "want 1 to 64") || strings.Contains(body, "value out of range") {
				t.Errorf("GET %s?consumers=%s: status %d, %.300s; want 400 naming the range, 1 to 64", path, v, rec.Code, body)
			}
		}
	}
}
