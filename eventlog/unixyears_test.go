package eventlog

import (
	"strconv"
	"strings"
	"testing"
	"time"
)

// A Unix-time arrival is read for every instant of the years 1678 to 2261
// in UTC, as an RFC 3339 arrival is and as the error for one outside says:
// their first and last instants alike, in unix-s as in RFC 3339. Where
// int has 32 bits, an arrival holds 2^31−1 rounds at most, some 68 years
// of seconds, and the years do not fit.
func TestUnixArrivalsTakeEveryInstantOf1678To2261(t *testing.T) {
	if strconv.IntSize < 64 {
		t.Skip("an arrival of 292 years of seconds passes a 32-bit int")
	}
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

// The years are UTC's, whatever offset an RFC 3339 arrival is written
// in: 23:00 on the last day of 1677 an hour behind UTC is 1678 in UTC, and
// read; half past midnight of 1678 an hour ahead is 1677, and refused.
func TestRFC3339YearsAreUTCs(t *testing.T) {
	if got := readArrivals(t, RFC3339, "1677-12-31T23:00:00-01:00", "1678-01-01T00:00:01Z"); len(got) != 2 || got[1] != 1 {
		t.Errorf("1677-12-31T23:00:00-01:00 (1678 in UTC) read as %v; want it read", got)
	}
	in := "key,step,duration,at\nk,1,0,1678-01-01T00:30:00+01:00\n"
	d, err := NewDecoder(strings.NewReader(in), Reader{Format: CSV, AtFormat: RFC3339, Resolution: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.Next(); err == nil || !strings.Contains(err.Error(), "between the years 1678 and 2261") {
		t.Errorf("1678-01-01T00:30:00+01:00 (1677 in UTC): %v; want it refused", err)
	}
}
