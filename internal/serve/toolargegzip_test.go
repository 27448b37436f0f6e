package serve

import (
	"bytes"
	"compress/gzip"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"testing"
)

// A trace larger than MaxUpload is told to gzip itself, or to run konvoy
// -events, unless it is gzipped already: then only the second (it told a
// .gz to gzip it: found by a review).
func TestATooLargeGzipIsNotToldToGzipIt(t *testing.T) {
	s := newTestServer(1000)
	plain := bytes.Repeat([]byte("K,L,a,1\n"), 200)
	rng := rand.New(rand.NewPCG(1, 2))
	var gz bytes.Buffer
	w := gzip.NewWriter(&gz)
	for range 400 { // random keys: the gzip stays above 1000 bytes
		w.Write([]byte(strconv.FormatUint(rng.Uint64(), 36) + ",L,a,1\n"))
	}
	w.Close()
	if gz.Len() <= 1000 {
		t.Fatalf("the gzip has %d bytes; want more than the 1000 the server takes (the test's premise)", gz.Len())
	}
	for _, tc := range []struct {
		name  string
		data  []byte
		gzips bool
	}{{"big.csv", plain, true}, {"big.csv.gz", gz.Bytes(), false}} {
		rec := post(t, s, tc.name, tc.data)
		body := rec.Body.String()
		if rec.Code != http.StatusRequestEntityTooLarge || !strings.Contains(body, "larger than 1000 bytes") || strings.Contains(body, "gzip it") != tc.gzips || !strings.Contains(body, "run konvoy -events on it") {
			t.Errorf("%s: %.300s; want the limit, to run konvoy -events, and to gzip it %v", tc.name, body, tc.gzips)
		}
	}
}

// A server whose MaxUpload was lowered to fit its memory says so when it
// refuses a trace as too large, where it named -max-upload alone, which
// its operator had set higher, and raising it again would change nothing
// (found by a review).
func TestATooLargeUploadOfALoweredLimitSaysItWasLowered(t *testing.T) {
	for _, lowered := range []bool{false, true} {
		s := New(Config{Runs: testRuns, MaxUpload: 1000, MaxUploadLowered: lowered})
		body := post(t, s, "big.csv", bytes.Repeat([]byte("K,L,a,1\n"), 200)).Body.String()
		if said := strings.Contains(body, "(konvoy serve -max-upload, lowered to fit the memory the server has)"); said != lowered {
			t.Errorf("MaxUploadLowered %v: the refusal says it was lowered: %v:\n%.300s", lowered, said, body)
		}
	}
}
