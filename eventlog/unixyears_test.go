package eventlog

import (
	"strings"
	"testing"
	"time"
)

// A Unix-time arrival is read "between the years 1678 and 2261", as the
// error message for one outside says and as an RFC 3339 arrival is: every
// instant of those years fits in an int64 of nanoseconds (from 1677-09-21
// to 2262-04-11). parseUnix bounds them at ±9.2e18 ns instead, from
// 1678-06-18 to 2261-07-15, so the first half of 1678 and the second half
// of 2261 are refused as unix-s (and unix-ms, -us, -ns), though the same
// instants in RFC 3339 are read, with a message that says they are within
// range.
func TestUnixArrivalsTakeEveryInstantOf1678To2261(t *testing.T) {
	for _, c := range []struct{ rfc, unix [2]string }{
		{[2]string{"1678-01-01T00:00:00Z", "1970-01-01T00:00:00Z"}, [2]string{"-9214560000", "0"}},
		{[2]string{"1970-01-01T00:00:00Z", "2261-12-31T23:59:59Z"}, [2]string{"0", "9214646399"}},
	} {
		rfc := readArrivals(t, RFC3339, c.rfc[:]...)
		unix := readArrivals(t, UnixS, c.unix[:]...)
		if len(rfc) != 2 || len(unix) != 2 || rfc[1] != unix[1] {
			t.Errorf("%v read as arrivals %v in RFC 3339, %v in unix-s; want the same", c.rfc, rfc, unix)
		}
	}
}

// readArrivals reads a trace of one event at each of ats, of format f, at
// one second a round, and returns their arrivals.
func readArrivals(t *testing.T, f TimeFormat, ats ...string) []int {
	t.Helper()
	in := "key,step,duration,at\n"
	for _, at := range ats {
		in += "k,1,0s," + at + "\n"
	}
	d, err := NewDecoder(strings.NewReader(in), Reader{Format: CSV, Resolution: time.Second, AtFormat: f})
	if err != nil {
		t.Fatal(err)
	}
	var arrivals []int
	for e, err := range d.All() {
		if err != nil {
			t.Errorf("%v: %v", f, err)
			break
		}
		arrivals = append(arrivals, e.Arrival)
	}
	return arrivals
}
