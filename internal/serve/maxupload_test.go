package serve

import (
	"math"
	"net/http"
	"strings"
	"testing"
)

// TestALargeMaxUploadTakesASmallUpload: the largest MaxUpload a server
// takes, MaxUploadLimit, takes a small upload (its sums of sizes do not
// overflow); one above it is a programmer's mistake, and New panics with
// konvoy's prefix (konvoy serve -max-upload refuses it first).
func TestALargeMaxUploadTakesASmallUpload(t *testing.T) {
	s := newTestServer(MaxUploadLimit)
	if rec := post(t, s, "t.csv", []byte(goodTrace), "steps", "a,b"); rec.Code != http.StatusSeeOther {
		t.Errorf("MaxUpload %d: an upload of %d bytes answers %d; want 303 to its page", int64(MaxUploadLimit), len(goodTrace), rec.Code)
	}
	for _, max := range []int64{MaxUploadLimit + 1, math.MaxInt64} {
		func() {
			defer func() {
				if v, ok := recover().(string); !ok || !strings.HasPrefix(v, "konvoy: serve.New: Config.MaxUpload is") {
					t.Errorf("New with MaxUpload %d panicked with %v; want konvoy's prefix", max, v)
				}
			}()
			newTestServer(max)
		}()
	}
}
