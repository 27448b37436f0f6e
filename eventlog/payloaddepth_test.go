package eventlog_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/sirali-konvoy/konvoy/eventlog"
)

// kcatLine is a kcat -J export line of key a whose payload is a string
// holding payload.
func kcatLine(t *testing.T, payload string) string {
	t.Helper()
	q, err := json.Marshal(payload)
	if err != nil {
		t.Fatal(err)
	}
	return `{"topic":"orders","partition":0,"offset":1,"tstype":"create","ts":1700000000000,"broker":1,"key":"a","payload":` + string(q) + "}\n"
}

// A kcat -J payload nested deeper than encoding/json reads, 10000 levels,
// is an error at its line and path that says so, naming the limit, not
// one that says the string holds no object: it holds one, too deep to
// read. A payload nested exactly 10000 levels deep is read, so the limit
// named is the one applied.
func TestAPayloadNestedTooDeepIsNamedSo(t *testing.T) {
	nested := func(levels int) string { // an object holding arrays, levels deep in all
		return `{"status":"paid","x":` + strings.Repeat("[", levels-1) + strings.Repeat("]", levels-1) + "}"
	}
	if events, _, err := read(t, kcatReader(), kcatLine(t, nested(10000))); err != nil || len(events) != 1 {
		t.Fatalf("a payload 10000 levels deep: %+v, %v; want it read", events, err)
	}
	_, _, err := read(t, kcatReader(), kcatLine(t, nested(10001)))
	var e *eventlog.Error
	if !errors.As(err, &e) || e.File != "export.jsonl" || e.Line != 1 || e.Field != "payload.status" {
		t.Fatalf("a payload 10001 levels deep: %v; want an *Error at export.jsonl:1 for the field payload.status", err)
	}
	const want = `want an object at "payload", or a string that holds one; it is a string that holds invalid JSON: nested deeper than 10000 levels of objects and arrays, the most encoding/json reads (column 10021 of its text)`
	if e.Want != want {
		t.Errorf("a payload 10001 levels deep: %v\nwant %s", err, want)
	}
}

// A kcat -J payload that starts as an object but is not valid JSON, here
// cut short, is an error that says its text is invalid JSON and where,
// not one that says the string holds no object.
func TestAPayloadOfInvalidJSONIsNamedSo(t *testing.T) {
	_, _, err := read(t, kcatReader(), kcatLine(t, `{"status":"paid"`))
	const want = `export.jsonl:1: field "payload.status": value "{\"status\":\"paid\"": want an object at "payload", or a string that holds one; it is a string that holds invalid JSON: unexpected end of JSON input (column 16 of its text)`
	if err == nil || err.Error() != want {
		t.Errorf("error\n%v\nwant\n%s", err, want)
	}
}

// A path through strings nested in strings decodes at most twice
// MaxRecordBytes of them in all, and past that is an error at its line
// and path that says so: each level is decoded whole, so a 15 MB line of
// 17 levels took 6 s and 452 MB, 28 times its length, where a decoder
// holds about 3 (found by a review). Within the bound the path reads.
func TestStringsWithinStringsAreBoundedByTheRecord(t *testing.T) {
	nested := func(levels int) string { // the payload, a status under levels−1 objects each held in a string
		s := `{"status":"paid","pad":"` + strings.Repeat("x", 900) + `"}`
		for range levels - 1 {
			q, _ := json.Marshal(s)
			s = `{"a":` + string(q) + "}"
		}
		return s
	}
	r := kcatReader()
	two, four := kcatLine(t, nested(2)), kcatLine(t, nested(4))
	r.MaxRecordBytes = len(two) - 1 // its strings, the payload and the one in it, decode to less than twice the line
	r.Columns.Status = "payload.a.status"
	if events, _, err := read(t, r, two); err != nil || len(events) != 1 {
		t.Fatalf("a payload two strings deep: %+v, %v; want it read", events, err)
	}
	r.MaxRecordBytes = len(four) - 1 // its three strings, each most of the line, pass twice it
	r.Columns.Status = "payload.a.a.a.status"
	_, _, err := read(t, r, four)
	var e *eventlog.Error
	if !errors.As(err, &e) || e.Line != 1 || e.Field != "payload.a.a.a.status" ||
		!strings.Contains(e.Want, "want strings within strings, on the way to") || !strings.Contains(e.Want, fmt.Sprintf("of at most %d bytes in all, twice the longest record; they pass it", 2*r.MaxRecordBytes)) {
		t.Fatalf("a payload four strings deep, past twice MaxRecordBytes: %v; want an *Error at line 1 for its path saying so", err)
	}
}
