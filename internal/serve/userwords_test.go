package serve

import (
	"html"
	"strings"
	"testing"
)

// TestErrorsQuoteTheUsersDataAsSent checks that the page's and the API's
// errors show the user's own data as it was sent, however it reads: an
// upload named "my (Reader.Format).csv" whose duration is "abc
// (WithMaxBacklog) z" was told as "my.csv" with a value "abc z", as
// report.PageWords rewrote the libraries' phrases in the whole message,
// the file's name and the value included (found by a review). A refusal
// of the server's own that names the upload keeps its name too.
func TestErrorsQuoteTheUsersDataAsSent(t *testing.T) {
	s := newTestServer(100)
	const name, value = "my (Reader.Format).csv", "abc (WithMaxBacklog) z"
	loc := post(t, s, name, []byte("key,line,step,duration\nA,L,1,"+value+"\n")).Header().Get("Location")
	for _, target := range []string{strings.Replace(loc, "/?", "/api/report?", 1), loc} {
		body := html.UnescapeString(get(t, s, target).Body.String())
		if !strings.Contains(body, name+":2:") || !strings.Contains(body, `value \"`+value+`\"`) && !strings.Contains(body, `value "`+value+`"`) {
			t.Errorf("GET %s: the error does not name the file %q and the value %q as sent:\n%.400s", target, name, value, body)
		}
	}
	const big = "big (WithMaxBacklog).csv"
	if body := html.UnescapeString(post(t, s, big, []byte(strings.Repeat("x", 200))).Body.String()); !strings.Contains(body, big+": the trace is larger than") {
		t.Errorf("a trace too large does not name the file %q as sent", big)
	}
}
