package eventlog_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/sirali-konvoy/konvoy/eventlog"
)

// TestJSONLDistinctKeysStayDistinct: a JSON Lines decoder never merges
// two different keys into one, as encoding/json would, reading invalid
// UTF-8 as U+FFFD: a key's bytes are kept as they are, escapes or not, as
// CSV keeps them ("a\xff" and "a\xfe" stay two keys), and a lone surrogate
// escape, which UTF-8 cannot hold, is an *Error naming the line and the
// field; a surrogate pair, and an escaped backslash before "ud800", read
// as written.
func TestJSONLDistinctKeysStayDistinct(t *testing.T) {
	for _, c := range []struct {
		name, trace string
		keys        []string // nil: an error at line 1
	}{
		{"invalid UTF-8", "{\"key\":\"a\xff\",\"step\":2,\"duration\":1}\n{\"key\":\"a\xfe\",\"step\":1,\"duration\":1}\n", []string{"a\xff", "a\xfe"}},
		{"lone surrogates", `{"key":"a\ud800","step":2,"duration":1}` + "\n" + `{"key":"a\udbff","step":1,"duration":1}` + "\n", nil},
		{"a low surrogate alone", `{"key":"a\udc00","step":2,"duration":1}` + "\n", nil},
		{"invalid UTF-8 beside an escape", "{\"key\":\"a\\n\xff\",\"step\":2,\"duration\":1}\n", []string{"a\n\xff"}},
		{"a pair", `{"key":"a\ud83d\ude00","step":2,"duration":1}` + "\n", []string{"a\U0001F600"}},
		{"an escaped backslash", `{"key":"a\\ud800","step":2,"duration":1}` + "\n", []string{`a\ud800`}},
		// A number is taken as written, as CSV takes it: 1 and "1" are one
		// key, 1, 1.0 and 10e-1 three (as the doc says).
		{"numbers", `{"key":1,"step":1,"duration":1}` + "\n" + `{"key":"1","step":2,"duration":1}` + "\n" + `{"key":1.0,"step":3,"duration":1}` + "\n" + `{"key":10e-1,"step":4,"duration":1}` + "\n", []string{"1", "1", "1.0", "10e-1"}},
	} {
		var keys []string
		var failed error
		for e, err := range (eventlog.Reader{Name: "t.jsonl", Format: eventlog.JSONL}).Events(strings.NewReader(c.trace)) {
			if err != nil {
				failed = err
				break
			}
			keys = append(keys, e.Key)
		}
		if c.keys == nil {
			// The value decoded, U+FFFD for the escape, and the escape as
			// written in the complaint.
			lone := map[string]string{"lone surrogates": `\ud800`, "a low surrogate alone": `\udc00`}[c.name]
			var ee *eventlog.Error
			if !errors.As(failed, &ee) || ee.Line != 1 || ee.Field != "key" || ee.Value != "a\ufffd" ||
				!strings.HasSuffix(failed.Error(), "want text that reads as written, which a lone surrogate escape (\\ud800 to \\udfff without its pair) is not: it holds "+lone) {
				t.Errorf("%s: keys %q, error %v; want an *eventlog.Error at line 1 naming the key, decoded, and its escape %s", c.name, keys, failed, lone)
			}
			continue
		}
		if failed != nil || !slices.Equal(keys, c.keys) {
			t.Errorf("%s: keys %q, error %v; want %q", c.name, keys, failed, c.keys)
		}
	}
}

// A status holding a lone surrogate escape is refused as a key holding one
// is, saying why: it read "want a string", which it is (found by a
// review), and naming the escape as written, where the value, decoded,
// shows U+FFFD (found by another); a status that is not a string still
// wants one.
func TestJSONLStatusWithALoneSurrogateSaysWhy(t *testing.T) {
	const lone = "want text that reads as written, which a lone surrogate escape (\\ud800 to \\udfff without its pair) is not: it holds "
	for trace, want := range map[string]struct{ end, value string }{
		`{"key":"A","status":"\ud800","duration":1}`:                            {lone + `\ud800`, "\ufffd"},
		`{"key":"A","payload":{"status":"\udc00"},"duration":1}`:                {lone + `\udc00`, "\ufffd"},
		`{"key":"A","status":"caf\u00e9 \n \uD83D\ude00 \uDBFFx","duration":1}`: {lone + `\uDBFF`, "caf\u00e9 \n \U0001F600 \ufffdx"},
		`{"key":"A","status":[1],"duration":1}`:                                 {"want a string", "[1]"},
	} {
		r := eventlog.Reader{Name: "t.jsonl", Format: eventlog.JSONL, Steps: []string{"a"}}
		if strings.Contains(trace, "payload") {
			r.Columns.Status = "payload.status"
		}
		var failed error
		for _, err := range r.Events(strings.NewReader(trace + "\n")) {
			if err != nil {
				failed = err
				break
			}
		}
		var ee *eventlog.Error
		if !errors.As(failed, &ee) || ee.Line != 1 || !strings.Contains(failed.Error(), `field "`) || !strings.HasSuffix(failed.Error(), want.end) || ee.Value != want.value {
			t.Errorf("%s: %v; want an *eventlog.Error at line 1 showing the value %q and ending %q", trace, failed, want.value, want.end)
		}
	}
}
