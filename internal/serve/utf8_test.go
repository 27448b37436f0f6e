package serve

import (
	"net/http"
	"os/exec"
	"strings"
	"testing"
	"unicode/utf8"
)

// A query's or a form's value that is not UTF-8 text is refused (400),
// naming it: the page, UTF-8, would show it, and send it back, with U+FFFD
// in its bytes' place (found by a review).
func TestAValueThatIsNotUTF8IsRefused(t *testing.T) {
	s := newTestServer(0)
	for _, path := range []string{"/?steps=%FF", "/api/report?layouts=free,%FF%FE"} {
		rec := get(t, s, path)
		if rec.Code != http.StatusBadRequest || !strings.Contains(rec.Body.String(), "want UTF-8 text") {
			t.Errorf("GET %s: status %d; want 400 saying it wants UTF-8 text:\n%.300s", path, rec.Code, rec.Body.String())
		}
	}
	rec := post(t, s, "t.csv", []byte(goodTrace), "steps", "a,\xff")
	if rec.Code != http.StatusBadRequest || !strings.Contains(rec.Body.String(), "the form&#39;s field steps is") {
		t.Errorf("an upload whose field steps is not UTF-8: status %d; want 400 naming the field:\n%.300s", rec.Code, rec.Body.String())
	}
}

// shellQuote writes a value that is not UTF-8 text, such as a served
// file's name, so that a shell reads back its bytes, where single quotes
// would show, on the UTF-8 page, U+FFFD in their place: the reference
// decoder below reads dollar-single quotes as POSIX.1-2024 says, and bash,
// where there is one, reads them back too.
func TestShellQuoteKeepsBytesThatAreNotUTF8(t *testing.T) {
	for _, v := range []string{"plain.csv", "it's.csv", "a\xffb.csv", "\xfe'\\\xff", "ü\xc3.csv", "\xfe1.csv", "\xffAb9z"} {
		q := shellQuote(v)
		if !utf8.ValidString(q) {
			t.Errorf("shellQuote(%q) = %q: not UTF-8 text", v, q)
		}
		// An escape \xHH takes two hexadecimal digits: a third after it is
		// the shell's to read as it will (POSIX leaves it unspecified).
		for i := 0; i+4 < len(q); i++ {
			if q[i:i+2] == `\x` && strings.IndexByte("0123456789abcdefABCDEF", q[i+4]) >= 0 {
				t.Errorf("shellQuote(%q) = %s: \\x followed by three hexadecimal digits", v, q)
			}
		}
		if got := unquote(t, q); got != v {
			t.Errorf("shellQuote(%q) = %q, which reads back as %q", v, q, got)
		}
		if bash, err := exec.LookPath("bash"); err == nil {
			out, err := exec.Command(bash, "-c", "printf %s "+q).Output()
			if err != nil || string(out) != v {
				t.Errorf("bash reads shellQuote(%q) = %q as %q, %v", v, q, out, err)
			}
		}
	}
}

// unquote reads q as a shell reads a word that is bare, in single quotes
// (a quote in them closing them, escaped, and opening them again), or in
// dollar-single quotes with \xHH, \\ and \' escapes.
func unquote(t *testing.T, q string) string {
	t.Helper()
	switch {
	case strings.HasPrefix(q, "$'") && strings.HasSuffix(q, "'"):
		var b []byte
		for s := q[2 : len(q)-1]; s != ""; {
			if s[0] != '\\' {
				b, s = append(b, s[0]), s[1:]
				continue
			}
			switch {
			case len(s) >= 4 && s[1] == 'x':
				var v byte
				for _, c := range []byte(s[2:4]) {
					v = v<<4 | byte(strings.IndexByte("0123456789abcdef", c))
				}
				b, s = append(b, v), s[4:]
			case len(s) >= 2 && (s[1] == '\\' || s[1] == '\''):
				b, s = append(b, s[1]), s[2:]
			default:
				t.Fatalf("%q: an escape %q the quoting does not write", q, s)
			}
		}
		return string(b)
	case strings.HasPrefix(q, "'"):
		return strings.ReplaceAll(q[1:len(q)-1], `'\''`, "'")
	}
	return q
}
