package serve

import (
	"bytes"
	"net/http"
	"strings"
	"testing"
)

// TestATooLargeUploadIsToldTheLimitItPassed checks that the answer to an
// upload beyond Config.MaxUpload states a limit the upload is larger than:
// megabytes states a limit exactly, in MB with as many decimals as it
// needs, never rounded (the standards: nothing silently rounded). With
// -max-upload 1999999, an upload of exactly 2,000,000 bytes is refused as
// larger than 1.999999 MB, not 2.0 MB, which it is not larger than.
func TestATooLargeUploadIsToldTheLimitItPassed(t *testing.T) {
	s := newTestServer(1_999_999)
	data := append([]byte("key,line,status,duration\n"), bytes.Repeat([]byte("K,L,a,1\n"), (2_000_000-25)/8)...)
	data = append(data, bytes.Repeat([]byte("\n"), 2_000_000-len(data))...)
	rec := post(t, s, "big.csv", data)
	body := rec.Body.String()
	if rec.Code != http.StatusRequestEntityTooLarge {
		t.Fatalf("an upload of %d bytes, with -max-upload 1999999: status %d; want 413", len(data), rec.Code)
	}
	if strings.Contains(body, "larger than 2.0 MB") || strings.Contains(body, "larger than 2 MB") {
		t.Errorf("an upload of exactly %d bytes is refused as \"larger than 2.0 MB\"; want the limit as it is, 1999999 bytes (or 1.999999 MB)", len(data))
	}
}

// TestMegabytesIsExact checks that megabytes states every limit as it is.
func TestMegabytesIsExact(t *testing.T) {
	for n, want := range map[int64]string{999_999: "999999 bytes", 1_000_000: "1 MB", 1_999_999: "1.999999 MB", 10_400_000: "10.4 MB",
		50_000_000: "50 MB", 1 << 40: "1099511.627776 MB", 1_000_001: "1.000001 MB"} {
		if got := megabytes(n); got != want {
			t.Errorf("megabytes(%d) = %q; want %q", n, got, want)
		}
	}
}
